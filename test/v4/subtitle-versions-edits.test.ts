// The writers of subtitle versions under stress (docs/decisions.md, "Subtitle versions"): a restore too large for one
// transaction runs as a subtitle-restore job; hostile input to the cue edit, the language deletion and the restore is
// refused with the field it names and changes nothing; whole-track writers never interleave (409). The life of a
// track and the reads: subtitle-versions.test.ts; who may write: test/services/access-writes-localisation.test.ts.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { insertJob } from "../../src/db/queries/jobs";
import { jobs } from "../../src/db/schema";
import { RESTORE_INLINE_CUES } from "../../src/services/subtitle-edits";
import { api, createApplication, db, errorBody, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { completionJobsSince as waitForCompletions, lastJobId } from "../helpers/jobs";
import { deliver, importJob, importSrt, makeCues, postSrtImport, srtOf, waitForJob, type TestCue } from "../helpers/subtitles";
import { eventsWhere } from "../webhooks/events-helpers";

type Signed = Awaited<ReturnType<typeof signedInUser>>;
type Video = Awaited<ReturnType<typeof createVideo>>;
type Version = { number: number; cause: string; cues: number; hash: string; restored_from: number | null };

let official: string;
let manager: Signed;
let container: Awaited<ReturnType<typeof createContainer>>;

const asManager = () => ({ token: manager.token, app: official });
const tracks = (v: Video) => `/v4/videos/${v.wireId}/subtitle_tracks`;
const decode = async (res: Response) => new TextDecoder().decode(await res.arrayBuffer());

const V1: TestCue[] = [
  { startMs: 1000, endMs: 2500, text: "Hello there" },
  { startMs: 3000, endMs: 4000, text: "The red fox ran" },
  { startMs: 5000, endMs: 7000, text: "Goodbye" },
];

async function versions(v: Video, language = "en") {
  const res = await api(`${tracks(v)}/${language}/versions.json`, { ...asManager(), query: { per_page: "100" } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { response: Version[] }).response;
}

async function currentSrt(v: Video, language = "en") {
  const res = await api(`${tracks(v)}/${language}.srt`, asManager());
  return res.status === 200 ? await decode(res) : res.status;
}

async function versionSrt(v: Video, n: number, language = "en") {
  const res = await api(`${tracks(v)}/${language}/versions/${n}.srt`, asManager());
  expect(res.status).toBe(200);
  return decode(res);
}

/** Waits for the completion jobs of the video enqueued since `since`. */
const completionJobsSince = (since: number, v: Video) => waitForCompletions(since, v.id, manager.token);

async function expectField(res: Response, what: string, status: number, field: string) {
  expect(res.status, `${what}: ${await res.clone().text()}`).toBe(status);
  expect(
    (await errorBody(res)).details?.map((d) => d.field),
    what,
  ).toEqual([field]);
}

beforeAll(async () => {
  official = (await createApplication({ official: true })).wireId;
  manager = await signedInUser();
  container = await createContainer({ title: `Version edits ${crypto.randomUUID()}`, managers: [manager.user.id] });
});

describe("a restore of more than RESTORE_INLINE_CUES cues", () => {
  it("answers 202 with a subtitle-restore job that writes the version's text and names the version it made", async () => {
    const video = await createVideo(container.id, { number: 1 });
    const first = makeCues(RESTORE_INLINE_CUES + 100, "first");
    const second = makeCues(RESTORE_INLINE_CUES + 100, "second");
    expect((await importSrt(asManager(), video, first)).version).toBe(1);
    expect((await importSrt(asManager(), video, second)).version).toBe(2);
    expect(await currentSrt(video)).toContain(`second ${RESTORE_INLINE_CUES + 100}`);

    const res = await api(`${tracks(video)}/en/versions/1/restore.json`, { ...asManager(), method: "POST" });
    expect(res.status).toBe(202);
    const queued = ((await res.json()) as { job: { id: string; type: string } }).job;
    expect(queued.type).toBe("subtitle-restore");
    const job = await waitForJob(queued.id, manager.token, 60_000);
    expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
    expect(job.result).toMatchObject({ restored_from: 1, version: 3, cues: RESTORE_INLINE_CUES + 100, removed: 0 });
    expect((await waitForJob((job.result as { completion_job: string }).completion_job, manager.token)).status).toBe("succeeded");

    const [made, , v1] = await versions(video);
    expect(made).toMatchObject({ number: 3, cause: "restore", restored_from: 1, cues: RESTORE_INLINE_CUES + 100, hash: v1.hash });
    const now = await currentSrt(video);
    expect(now).toBe(await versionSrt(video, 1));
    expect(now).not.toContain("second");
    const causes = (await eventsWhere("subtitles.updated", { video_id: video.wireId })).map((e) => e.data.cause);
    expect(causes).toEqual(["import", "import", "restore"]);

    // Restoring what the track already holds, as a job too: it succeeds and makes no version.
    const again = await api(`${tracks(video)}/en/versions/1/restore.json`, { ...asManager(), method: "POST" });
    expect(again.status).toBe(202);
    const noop = await waitForJob(((await again.json()) as { job: { id: string } }).job.id, manager.token, 60_000);
    expect(noop.status).toBe("succeeded");
    expect(noop.result).toMatchObject({ restored_from: 1, version: 3, rows_written: 0 });
    expect((await versions(video)).map((v) => v.number)).toEqual([3, 2, 1]);
    expect((await eventsWhere("subtitles.updated", { video_id: video.wireId })).length).toBe(3);
  });
});

describe("hostile input to the writers is refused with the field it names, and changes nothing", () => {
  let video: Video;
  let other: Video;
  let before: { versions: Version[]; srt: string | number };

  beforeAll(async () => {
    video = await createVideo(container.id, { number: 2 });
    other = await createVideo(container.id, { number: 3 });
    await importSrt(asManager(), video, V1);
    await importSrt(asManager(), other, V1);
    const edit = await api(`${tracks(other)}/en/cues/1000.json`, { ...asManager(), method: "PUT", json: { text: "Hi" } });
    expect(edit.status).toBe(200);
    before = { versions: await versions(video), srt: await currentSrt(video) };
  });

  const unchanged = async () => expect({ versions: await versions(video), srt: await currentSrt(video) }).toEqual(before);

  it("restore: a malformed version number is a 400 naming `number`; an unknown one, or another track's, a 404", async () => {
    for (const bad of ["0", "-1", "1e99", "abc", "1.5", "01"]) {
      await expectField(
        await api(`${tracks(video)}/en/versions/${bad}/restore.json`, { ...asManager(), method: "POST" }),
        `version ${bad}`,
        400,
        "number",
      );
    }
    const missing = [
      `${tracks(video)}/en/versions/99/restore.json`,
      // Version 2 is the other video's (its edit); fr has no versions; an unknown video.
      `${tracks(video)}/en/versions/2/restore.json`,
      `${tracks(video)}/fr/versions/1/restore.json`,
      "/v4/videos/999999999v/subtitle_tracks/en/versions/1/restore.json",
    ];
    for (const path of missing) {
      const res = await api(path, { ...asManager(), method: "POST" });
      expect(res.status, path).toBe(404);
      expect((await errorBody(res)).vcode).toBe(404);
    }
    await unchanged();
  });

  it("PUT cue: no segment at that start is a 404; a malformed start a 400 naming `start_ms`", async () => {
    for (const start of ["1234", "0", "999999"]) {
      const res = await api(`${tracks(video)}/en/cues/${start}.json`, { ...asManager(), method: "PUT", json: { text: "Where?" } });
      expect(res.status, start).toBe(404);
    }
    for (const start of ["abc", "-1", "1.5", "1e3", "01"]) {
      await expectField(
        await api(`${tracks(video)}/en/cues/${start}.json`, { ...asManager(), method: "PUT", json: { text: "When?" } }),
        `start ${start}`,
        400,
        "start_ms",
      );
    }
    await unchanged();
  });

  it("PUT cue: empty, blank, too long, missing or non-string text is a 400 naming `text`", async () => {
    // A number is not among them: the API reads one as its digits where a string is due (docs/api.md, "What the API
    // tolerates").
    const bodies: Array<[string, unknown]> = [
      ["empty", { text: "" }],
      ["blank", { text: "  \n " }],
      ["5,000 characters", { text: "x".repeat(5000) }],
      ["a boolean", { text: true }],
      ["null", { text: null }],
      ["an array", { text: ["a"] }],
      ["an object", { text: { en: "a" } }],
      ["missing", {}],
    ];
    for (const [what, json] of bodies) {
      await expectField(await api(`${tracks(video)}/en/cues/1000.json`, { ...asManager(), method: "PUT", json }), what, 400, "text");
    }
    await unchanged();
  });

  it("a malformed language is a 400 naming `language` on every writer", async () => {
    for (const bad of ["EN", "..%2Fx", "english", "e"]) {
      await expectField(
        await api(`${tracks(video)}/${bad}/cues/1000.json`, { ...asManager(), method: "PUT", json: { text: "Hi" } }),
        `PUT ${bad}`,
        400,
        "language",
      );
      await expectField(await api(`${tracks(video)}/${bad}.json`, { ...asManager(), method: "DELETE" }), `DELETE ${bad}`, 400, "language");
      await expectField(
        await api(`${tracks(video)}/${bad}/versions/1/restore.json`, { ...asManager(), method: "POST" }),
        `restore ${bad}`,
        400,
        "language",
      );
    }
    // A track file is not a language: `en.srt` is not deleted.
    await expectField(await api(`${tracks(video)}/en.srt`, { ...asManager(), method: "DELETE" }), "DELETE en.srt", 400, "language");
    await unchanged();
  });

  it("DELETE of a language without subtitles is a 404, and makes no version", async () => {
    for (const path of [`${tracks(video)}/fr.json`, `${tracks(video)}/pt-br.json`]) {
      const res = await api(path, { ...asManager(), method: "DELETE" });
      expect(res.status, path).toBe(404);
      expect((await errorBody(res)).vcode).toBe(404);
    }
    expect(await versions(video, "fr")).toEqual([]);
    await unchanged();
  });
});

describe("whole-track writers never interleave", () => {
  it("a restore while an import of the track is queued or running is a 409 and loses nothing; after it, 201", async () => {
    const video = await createVideo(container.id, { number: 4 });
    await importSrt(asManager(), video, V1);
    const edit = await api(`${tracks(video)}/en/cues/3000.json`, { ...asManager(), method: "PUT", json: { text: "The blue cat ran" } });
    expect(edit.status).toBe(200);
    const edited = await currentSrt(video);

    // The import the route would have queued, its message not yet delivered.
    const incoming = V1.map((c) => ({ ...c, text: `${c.text} (new)` }));
    const job = await importJob(manager.user.id, video.id, "en", srtOf(incoming));
    const restore = () => api(`${tracks(video)}/en/versions/1/restore.json`, { ...asManager(), method: "POST" });
    const busy = await restore();
    expect(busy.status).toBe(409);
    expect((await errorBody(busy)).vcode).toBe(5409);
    const del = await api(`${tracks(video)}/en.json`, { ...asManager(), method: "DELETE" });
    expect(del.status, "a deletion waits for the import too").toBe(409);
    await db().update(jobs).set({ status: "running" }).where(eq(jobs.id, job.id));
    expect((await restore()).status, "the import running").toBe(409);
    expect(await currentSrt(video)).toBe(edited);
    expect((await versions(video)).map((v) => v.number)).toEqual([2, 1]);

    const since = await lastJobId();
    await deliver({ type: "srt-import", jobId: job.id });
    expect((await waitForJob(`${job.id}j`, manager.token)).status).toBe("succeeded");
    expect(await completionJobsSince(since, video)).toBe(1);
    expect(await currentSrt(video)).toContain("Goodbye (new)");
    expect((await versions(video)).map((v) => [v.number, v.cause])).toEqual([
      [3, "import"],
      [2, "edit"],
      [1, "import"],
    ]);

    const done = await restore();
    expect(done.status).toBe(201);
    expect(((await done.json()) as { version: Version }).version).toMatchObject({ number: 4, cause: "restore", restored_from: 1 });
    expect(await currentSrt(video)).toBe(await versionSrt(video, 1));
    // Nothing lost: the import the restore waited for is a version of its own.
    expect(await versionSrt(video, 3)).toContain("Goodbye (new)");
    expect(await versionSrt(video, 2)).toBe(edited);
  });

  it("an import, an edit, a deletion or another restore while a subtitle-restore job is queued is a 409", async () => {
    const video = await createVideo(container.id, { number: 5 });
    await importSrt(asManager(), video, V1);
    await importSrt(
      asManager(),
      video,
      V1.map((c) => ({ ...c, text: `${c.text}!` })),
    );
    const held = await currentSrt(video);
    const queued = await insertJob(db(), {
      type: "subtitle-restore",
      params: { videoId: video.id, language: "en", number: 1 },
      createdBy: manager.user.id,
    });

    const refused: Array<[string, Response]> = [
      ["import", await postSrtImport(asManager(), video, V1)],
      ["edit", await api(`${tracks(video)}/en/cues/1000.json`, { ...asManager(), method: "PUT", json: { text: "Hi" } })],
      ["deletion", await api(`${tracks(video)}/en.json`, { ...asManager(), method: "DELETE" })],
      ["restore", await api(`${tracks(video)}/en/versions/2/restore.json`, { ...asManager(), method: "POST" })],
    ];
    for (const [what, res] of refused) {
      expect(res.status, what).toBe(409);
      expect((await errorBody(res)).vcode, what).toBe(5409);
    }
    expect(await currentSrt(video)).toBe(held);
    expect((await versions(video)).map((v) => v.number)).toEqual([2, 1]);
    // Another language of the video is another track.
    expect((await importSrt(asManager(), video, V1, "fr")).version).toBe(1);

    await deliver({ type: "subtitle-restore", jobId: queued.id });
    const ran = await waitForJob(`${queued.id}j`, manager.token);
    expect(ran.status, JSON.stringify(ran.error)).toBe("succeeded");
    expect(ran.result).toMatchObject({ restored_from: 1, version: 3 });
    expect(await currentSrt(video)).toBe(await versionSrt(video, 1));
    expect(
      (
        await importSrt(
          asManager(),
          video,
          V1.map((c) => ({ ...c, text: `${c.text}?` })),
        )
      ).version,
    ).toBe(4);
  });
});
