// The subtitle-search-index job (src/jobs/subtitle-search-index.ts): lines written before the index existed, or
// written without their index form, become searchable when it has run, over as many deliveries as it takes.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { subtitleSearchIndex } from "../../src/jobs/subtitle-search-index";
import { enqueue } from "../../src/jobs/enqueue";
import { db, okJson, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { waitForJob } from "../helpers/jobs";
import { insertTrack } from "../helpers/subtitles";
import { shardBinding } from "../../src/db/shards";
import { shardOf } from "../helpers/shards";

type Signed = Awaited<ReturnType<typeof signedInUser>>;
interface Page {
  response: Array<{ text: string; video: { id: string } }>;
}

let staff: Signed;
let series: { id: number; wireId: string };
let video: { id: number; wireId: string };
let shard: number;

const found = async (q: string, extra: Record<string, string> = {}) =>
  (
    (await okJson({ path: "/v4/search/subtitles.json", query: { q, video_id: video.wireId, per_page: "50", ...extra } })) as Page
  ).response.map((h) => h.text);

/** What a shard held before migrations-shard/0005: lines with no index form and no index entry. */
async function asBeforeTheIndex(videoId: number) {
  const binding = shardBinding(env, shard);
  await binding.prepare("UPDATE subtitles SET search_text = NULL WHERE video_id = ?").bind(videoId).run();
  await binding.prepare("DELETE FROM subtitle_search WHERE rowid IN (SELECT id FROM subtitles WHERE video_id = ?)").bind(videoId).run();
}

async function runIndex(params: { containerId?: number; statementsPerDelivery?: number }) {
  const job = await enqueue({ db: db(), env }, subtitleSearchIndex, { shard, ...params }, { createdBy: staff.user.id });
  return waitForJob(`${job.id}j`, staff.token);
}

beforeAll(async () => {
  staff = await signedInUser({ staff: true });
  series = await createContainer({ title: "Index series" });
  ({ shard } = await shardOf(series.id));
  video = await createVideo(series.id, { number: 1 });
  const cues = Array.from({ length: 450 }, (_, i): [number, number, string] => [
    1000 + i * 3000,
    2500 + i * 3000,
    i % 3 === 0 ? `고양이 ${i}번 사랑해요` : i % 3 === 1 ? `東京の猫 ${i}` : `plain line ${i}`,
  ]);
  await insertTrack(video.id, "ko", cues);
});

describe("subtitle-search-index", () => {
  it("makes lines from before the index searchable, over several deliveries, and says how many it corrected", async () => {
    await asBeforeTheIndex(video.id);
    expect(await found("사랑")).toEqual([]);
    expect(await found("plain", { per_page: "49" })).toEqual([]);
    // 450 lines, 200 a chunk, two statements a chunk: 3 chunks over deliveries of at most 2 statements.
    const job = await runIndex({ containerId: series.id, statementsPerDelivery: 2 });
    expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
    expect(job.result).toEqual({ shard, container_id: series.id, indexed: 450, corrected: 300 });
    expect(await found("사랑", { per_page: "48" })).toHaveLength(48);
    expect(await found("猫", { language: "ko" })).toHaveLength(50);
    expect(await found("plain", { per_page: "47" })).toHaveLength(47);
  });

  it("run again (the admin's rebuild of a whole shard) changes nothing it need not", async () => {
    const job = await runIndex({});
    expect(job.status).toBe("succeeded");
    expect((job.result as { corrected: number }).corrected).toBe(0);
    expect((job.result as { indexed: number }).indexed).toBeGreaterThanOrEqual(450);
    expect(await found("고양이", { per_page: "46" })).toHaveLength(46);
  });

  it("fails at once for a shard that has no database", async () => {
    const job = await enqueue({ db: db(), env }, subtitleSearchIndex, { shard: 9 }, { createdBy: staff.user.id });
    const done = await waitForJob(`${job.id}j`, staff.token);
    expect(done.status).toBe("failed");
  });
});
