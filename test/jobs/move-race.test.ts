// A move racing the writers of a container's subtitles (docs/decisions.md, "Online moves"): a 20,000-cue import, cue
// edits and a restore run while the container moves between shards. Afterwards every row is on the target as the
// writers left it, the counts the target's triggers keep match its rows, nothing is left on the source, and every
// write that was refused was a 503 with Retry-After (the fence), never lost and never a 500.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { SHARD_TABLES } from "../../src/db/shard-schema";
import { shardBinding } from "../../src/db/shards";
import { containerMove } from "../../src/jobs/container-move";
import { enqueue } from "../../src/jobs/enqueue";
import { RESTORE_INLINE_CUES } from "../../src/services/subtitle-edits";
import { api, createApplication, db, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { makeCues, srtOf, startSrtImport, waitForJob, type TestCue } from "../helpers/subtitles";
import { otherShard, shardOf } from "../helpers/shards";

type Video = Awaited<ReturnType<typeof createVideo>>;

let official: string;
let manager: Awaited<ReturnType<typeof signedInUser>>;
let staff: Awaited<ReturnType<typeof signedInUser>>;

const asManager = () => ({ token: manager.token, app: official });
const tracks = (v: Video) => `/v4/videos/${v.wireId}/subtitle_tracks`;

beforeAll(async () => {
  official = (await createApplication({ official: true })).wireId;
  manager = await signedInUser();
  staff = await signedInUser({ staff: true });
});

async function importSrt(v: Video, cues: TestCue[], language: string) {
  const job = await waitForJob(await startSrtImport(asManager(), v, cues, language), manager.token, 60_000);
  expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
}

async function srt(path: string) {
  const res = await api(path, asManager());
  expect(res.status).toBe(200);
  // The writer ends the file with a blank line, which the test's own SubRip does not.
  return new TextDecoder().decode(await res.arrayBuffer()).trimEnd();
}

const rows = <T>(shard: number, query: string, ...binds: unknown[]) =>
  shardBinding(env, shard)
    .prepare(query)
    .bind(...binds)
    .all<T>()
    .then((r) => r.results);

describe("a move racing the writers of the container's subtitles", () => {
  it("a 20,000-cue import, cue edits and a restore during a move: every row on the target, none lost, each refusal a 503", async () => {
    const container = await createContainer({
      title: `Move race ${crypto.randomUUID()}`,
      originLanguage: "ko",
      managers: [manager.user.id],
    });
    const [v1, v2] = [await createVideo(container.id, { number: 1 }), await createVideo(container.id, { number: 2 })];
    // v1: a French track with two versions (a restore of version 1 is a job: more cues than a request restores) and
    // an English one the edits change.
    const fr1 = makeCues(RESTORE_INLINE_CUES + 100, "première");
    await importSrt(v1, fr1, "fr");
    await importSrt(v1, makeCues(RESTORE_INLINE_CUES + 100, "seconde"), "fr");
    const en = makeCues(50, "line");
    await importSrt(v1, en, "en");
    const { shard } = await shardOf(container.id);

    // The race: the import of 20,000 Korean cues to v2, the move, the restore and the edits, all at once.
    const big = makeCues(20_000, "대사 한 줄");
    const importJob = await startSrtImport(asManager(), v2, big, "ko");
    const move = await enqueue(
      { db: db(), env },
      containerMove,
      { containerId: container.id, from: shard, to: otherShard(shard) },
      { createdBy: staff.user.id },
    );
    let restoreJob: string | undefined;
    const refusals: Array<{ status: number; retryAfter: string | null }> = [];
    const accepted: string[] = [];
    let moving = true;
    const restore = (async () => {
      for (;;) {
        const res = await api(`${tracks(v1)}/fr/versions/1/restore.json`, { ...asManager(), method: "POST" });
        if (res.status === 202) {
          restoreJob = ((await res.json()) as { job: { id: string } }).job.id;
          return;
        }
        refusals.push({ status: res.status, retryAfter: res.headers.get("retry-after") });
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const edits = (async () => {
      for (let i = 0; moving || i < 3; i++) {
        const text = `edit ${i} — 편집`;
        const res = await api(`${tracks(v1)}/en/cues/${en[i % en.length].startMs}.json`, { ...asManager(), method: "PUT", json: { text } });
        if (res.ok) accepted.push(`${en[i % en.length].startMs} ${text}`);
        else refusals.push({ status: res.status, retryAfter: res.headers.get("retry-after") });
      }
    })();
    const moved = await waitForJob(`${move.id}j`, staff.token, 120_000);
    moving = false;
    await Promise.all([edits, restore]);
    expect(moved.status, JSON.stringify(moved.error)).toBe("succeeded");
    const imported = await waitForJob(importJob, manager.token, 120_000);
    expect(imported.status, JSON.stringify(imported.error)).toBe("succeeded");
    const restored = await waitForJob(restoreJob!, manager.token, 120_000);
    expect(restored.status, JSON.stringify(restored.error)).toBe("succeeded");

    // Writes landed while the container moved (the log replayed them on the target), and every one refused was the
    // fence's 503 with Retry-After, or the 409 of a track busy with another whole-track writer.
    expect(accepted.length).toBeGreaterThan(0);
    for (const r of refusals) {
      expect([503, 409]).toContain(r.status);
      if (r.status === 503) expect(r.retryAfter).toBe("5");
    }
    const result = moved.result as { replayed: number; compared: number; fenced_ms: number };
    expect(result.compared).toBeGreaterThan(0);

    // Every row is on the target, none on the source.
    expect((await shardOf(container.id)).shard).toBe(otherShard(shard));
    for (const table of SHARD_TABLES) {
      expect(await rows(shard, `SELECT count(*) AS n FROM ${table} WHERE container_id = ?`, container.id), table).toEqual([{ n: 0 }]);
    }
    expect(await rows(shard, "SELECT count(*) AS n FROM move_fences WHERE container_id = ?", container.id)).toEqual([{ n: 0 }]);
    expect(await rows(shard, "SELECT count(*) AS n FROM move_changes WHERE container_id = ?", container.id)).toEqual([{ n: 0 }]);

    // What the writers left, read from the target: the whole import, the restored track, each cue's last edit.
    expect(await srt(`${tracks(v2)}/ko.srt`)).toBe(srtOf(big).trimEnd());
    expect(await srt(`${tracks(v1)}/fr.srt`)).toBe(srtOf(fr1).trimEnd());
    const last = new Map(accepted.map((a) => [a.split(" ")[0], a.slice(a.indexOf(" ") + 1)]));
    const expected = en.map((c) => ({ ...c, text: last.get(String(c.startMs)) ?? c.text }));
    expect(await srt(`${tracks(v1)}/en.srt`)).toBe(srtOf(expected).trimEnd());

    // The counts the target's triggers keep match its rows: languages of the container, contributions per user.
    const target = otherShard(shard);
    const counted = await rows<{ language: string; originals: number; translations: number }>(
      target,
      "SELECT language, originals, translations FROM container_language_counts WHERE container_id = ? ORDER BY language",
      container.id,
    );
    const recounted = await rows<{ language: string; originals: number; translations: number }>(
      target,
      `SELECT language, sum(is_translation = 0) AS originals, sum(is_translation = 1) AS translations FROM subtitles
       WHERE container_id = ? GROUP BY language ORDER BY language`,
      container.id,
    );
    expect(counted).toEqual(recounted);
    expect(recounted.find((r) => r.language === "ko")).toMatchObject({ originals: 20_000 });
    const contributions = await rows(
      target,
      "SELECT user_id, total FROM contributions WHERE container_id = ? ORDER BY user_id",
      container.id,
    );
    const histories = await rows(
      target,
      `SELECT user_id, sum(count) AS total FROM subtitle_histories WHERE container_id = ? AND kind IN ('segment', 'subtitle')
       GROUP BY user_id ORDER BY user_id`,
      container.id,
    );
    expect(contributions).toEqual(histories);
    console.log(
      `move race: ${accepted.length} edits accepted, ${refusals.length} refused, ${result.replayed} changes replayed, ` +
        `${result.compared} rows compared, writes refused for ${result.fenced_ms} ms`,
    );
  }, 240_000);
});
