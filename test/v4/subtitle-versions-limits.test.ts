// The writers of a track other than the import are held to the limits an import is (docs/api.md, "Limits and
// retention"): an edit's text to the cue and line limits and the track it makes to the track limit (400 naming the
// field), a restore to all three on the version's cues (400 naming `number`; its job fails the same way). A version
// recorded before the limits held may pass them: restoring it would bring back what every download spends its CPU on.
import { beforeAll, describe, expect, it } from "vitest";
import { findJob, insertJob } from "../../src/db/queries/jobs";
import { SUBTITLE_LIMITS } from "../../src/domain/subtitles/cue";
import { restoreProblem } from "../../src/services/subtitle-edits";
import { api, db, errorBody, signedInUser } from "../helpers";
import { createVideo, managedContainer } from "../helpers/catalogue";
import { createSubtitles } from "../helpers/localisation";
import { deliver } from "../helpers/subtitles";

type Video = Awaited<ReturnType<typeof createVideo>>;

let official: string;
let manager: Awaited<ReturnType<typeof signedInUser>>;
let containerId: number;

beforeAll(async () => {
  ({ official, manager, containerId } = await managedContainer("Writer limits"));
});

const tracks = (v: Video) => `/v4/videos/${v.wireId}/subtitle_tracks/en`;
const putCue = (v: Video, startMs: number, text: string) =>
  api(`${tracks(v)}/cues/${startMs}.json`, { token: manager.token, app: official, method: "PUT", json: { text } });
const restore = (v: Video, n: number) =>
  api(`${tracks(v)}/versions/${n}/restore.json`, { token: manager.token, app: official, method: "POST" });

/** A text of `chars` characters in lines of 400 (within the line limit). */
const textOf = (chars: number, label = "x") =>
  Array.from({ length: Math.ceil(chars / 401) }, (_, k) => `${label}${k}`.padEnd(400, "x"))
    .join("\n")
    .slice(0, chars);

async function expectRefused(res: Response, field: string, message: string) {
  expect(res.status, await res.clone().text()).toBe(400);
  const body = await errorBody(res);
  expect(body.details).toEqual([{ field, message }]);
}

describe("an edit of a cue", () => {
  it("is held to the line limit as an import's cue is (400 naming text); the contract already holds it to the cue limit", async () => {
    const video = await createVideo(containerId);
    await createSubtitles(video.id, 2, { en: ["one", "two"] });
    await expectRefused(
      await putCue(video, 1000, `short\n${"x".repeat(SUBTITLE_LIMITS.lineChars + 1)}`),
      "text",
      `a line of the cue is over ${SUBTITLE_LIMITS.lineChars} characters`,
    );
    expect((await putCue(video, 1000, `short\n${"x".repeat(SUBTITLE_LIMITS.lineChars)}`)).status).toBe(200);
  });

  it("that would take the track past the track limit is a 400 naming text; one that shrinks or keeps it is applied", async () => {
    const video = await createVideo(containerId);
    // 1,048 texts of 2,000 characters (2,096,000) and a segment without one.
    await createSubtitles(video.id, 1049, { en: [...Array.from({ length: 1048 }, (_, k) => textOf(2000, `t${k}`)), null] });
    await expectRefused(
      await putCue(video, 1_048_000, textOf(1200)),
      "text",
      `the track would hold 2097200 characters of text; a track may hold at most ${SUBTITLE_LIMITS.trackChars}`,
    );
    // The text it replaces counts out: 2,000 characters for 2,000 keeps the total, 1,152 more at the empty one fills it.
    expect((await putCue(video, 0, textOf(2000, "replaced"))).status).toBe(200);
    expect((await putCue(video, 1_048_000, textOf(1152))).status).toBe(200);
    // Full: one character more anywhere is refused.
    await expectRefused(
      await putCue(video, 1_048_000, textOf(1153)),
      "text",
      `the track would hold ${SUBTITLE_LIMITS.trackChars + 1} characters of text; a track may hold at most ${SUBTITLE_LIMITS.trackChars}`,
    );
  });
});

describe("a restore", () => {
  /** A track whose first version holds a cue stored before the limits held (3,000 characters), and a second version. */
  async function legacyTrack() {
    const video = await createVideo(containerId);
    await createSubtitles(video.id, 3, { en: ["x".repeat(3000), "two", "three"] });
    // The first change records the track as it was as version 1, then itself as version 2.
    expect((await putCue(video, 2000, "changed")).status).toBe(200);
    return video;
  }
  const PROBLEM = `version 1 cannot be restored: the cue at 00:00:00.000: the cue's text is over ${SUBTITLE_LIMITS.cueChars} characters`;

  it("of a version holding a cue past the limits is a 400 naming number, and changes nothing", async () => {
    const video = await legacyTrack();
    await expectRefused(await restore(video, 1), "number", PROBLEM);
    const versions = await api(`${tracks(video)}/versions.json`, { app: official, token: manager.token });
    expect(((await versions.json()) as { response: unknown[] }).response).toHaveLength(2);
  });

  it("run as a job fails for good with the same reason, before any write", async () => {
    const video = await legacyTrack();
    const job = await insertJob(db(), {
      type: "subtitle-restore",
      params: { videoId: video.id, language: "en", number: 1 },
      createdBy: manager.user.id,
    });
    await deliver({ type: "subtitle-restore", jobId: job.id });
    expect(await findJob(db(), job.id)).toMatchObject({ status: "failed", error: PROBLEM });
    const current = await api(`${tracks(video)}.json`, { app: official });
    expect(((await current.json()) as { cues: Array<{ text: string }> }).cues.map((c) => c.text)).toEqual([
      "x".repeat(3000),
      "two",
      "changed",
    ]);
  });

  it("holds a version's cues to the cue, line and track limits", () => {
    const cue = (k: number, text: string): [number, number, string] => [k * 1000, k * 1000 + 900, text];
    expect(restoreProblem([cue(0, "a"), cue(1, "b")])).toBeNull();
    expect(restoreProblem([cue(0, "a"), cue(61, `a\n${"x".repeat(501)}`)])).toBe(
      "the cue at 00:01:01.000: a line of the cue is over 500 characters",
    );
    const full = Array.from({ length: 1049 }, (_, k) => cue(k, textOf(2000)));
    expect(restoreProblem(full)).toBe(
      `the track would hold 2098000 characters of text; a track may hold at most ${SUBTITLE_LIMITS.trackChars}`,
    );
    expect(restoreProblem(full.slice(0, 1048))).toBeNull();
  });
});
