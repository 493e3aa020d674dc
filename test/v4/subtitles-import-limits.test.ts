// The limits hold for what an import stores, not only for what it reads (docs/api.md, "Limits and retention"): cues that
// start together are joined into one text held to the cue limits, and the track an import leaves is held to the track
// limit in either mode. Each refusal fails the job naming the cue and the line, as the reader's refusals do.
import { beforeAll, describe, expect, it } from "vitest";
import { SUBTITLE_LIMITS } from "../../src/domain/subtitles/cue";
import { api, signedInUser } from "../helpers";
import { createVideo, managedContainer } from "../helpers/catalogue";
import { insertSegments, insertTexts, startSrtImport, waitForJob, type TestCue } from "../helpers/subtitles";

let official: string;
let manager: Awaited<ReturnType<typeof signedInUser>>;
let containerId: number;

beforeAll(async () => {
  ({ official, manager, containerId } = await managedContainer("Import limits"));
});

/** An import run to its end, failed or not: its job. */
const importSrt = async (video: { wireId: string }, cues: TestCue[]) =>
  waitForJob(await startSrtImport({ app: official, token: manager.token }, video, cues), manager.token);

const track = async (video: string) => {
  const res = await api(`/v4/videos/${video}/subtitle_tracks/en.json`, { app: official });
  return res.status === 200 ? ((await res.json()) as { cues: Array<{ text: string }> }).cues : res.status;
};

/** A cue text of `chars` characters (a label, then x), in lines of at most `width`: within the line limit. */
function textOf(chars: number, label = "x", width = 400) {
  const flat = (label + "x".repeat(chars)).slice(0, chars);
  const lines: string[] = [];
  for (let at = 0; at < chars; at += width) lines.push(flat.slice(at, at + width));
  return lines.join("\n").slice(0, chars);
}

describe("cues that start at the same millisecond (create mode)", () => {
  it("750 cues at 00:00:00,000 are refused once joined past the cue limit, naming the cue and line that pass it; nothing is stored", async () => {
    const video = await createVideo(containerId);
    // The file of the report: every cue within the limits, their texts 374,049 characters once joined.
    const cues = Array.from({ length: 750 }, (_, k) => ({ startMs: 0, endMs: 1000, text: textOf(498, `cue ${k + 1} `, 500) }));
    const job = await importSrt(video, cues);
    expect(job.status).toBe("failed");
    // Four cues make 4 × 498 + 3 = 1,995 characters; the fifth (its timing on line 18) takes the text past 2,000.
    expect(job.error).toBe(
      `invalid SubRip file: cue 5 (line 18): the cue's text is over ${SUBTITLE_LIMITS.cueChars} characters once joined with the cues that start at the same time`,
    );
    expect(await track(video.wireId)).toBe(404);
  });

  it("cues of one start within the limits once joined are stored as one text", async () => {
    const video = await createVideo(containerId);
    const cues = Array.from({ length: 4 }, (_, k) => ({ startMs: 0, endMs: 1000 + k, text: textOf(498, `cue ${k + 1} `, 500) }));
    const job = await importSrt(video, cues);
    expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
    const stored = await track(video.wireId);
    expect(stored).toHaveLength(1);
    expect((stored as Array<{ text: string }>)[0].text).toHaveLength(4 * 498 + 3);
  });
});

describe(`a track holds at most ${SUBTITLE_LIMITS.trackChars} characters, whatever the imports (match mode)`, () => {
  /** A video with 1,050 segments, a second apart, the first 1,048 holding 2,000 characters each: 2,096,000 in all. */
  async function nearlyFull() {
    const video = await createVideo(containerId);
    const segments = await insertSegments(
      video.id,
      Array.from({ length: 1050 }, (_, k) => [k * 1000, k * 1000 + 900] as [number, number]),
    );
    await insertTexts(
      video.id,
      segments.slice(0, 1048).map((s, k) => ({ segmentId: s.id, language: "en", text: textOf(2000, `stored ${k}`) })),
    );
    return video;
  }

  it("an import that would take the track past the limit fails naming the cue and line; one that replaces texts still imports", async () => {
    const video = await nearlyFull();
    // 1,200 more characters at the 1,049th segment: 2,097,200 in all.
    const over = await importSrt(video, [{ startMs: 1_048_000, endMs: 1_048_500, text: textOf(1200) }]);
    expect(over.status).toBe("failed");
    expect(over.error).toBe(
      `invalid SubRip file: cue 1 (line 2): the track would hold 2097200 characters of text; a track may hold at most ${SUBTITLE_LIMITS.trackChars}`,
    );
    expect(await track(video.wireId)).toHaveLength(1048);

    // Replacing a stored text with one as long leaves the track as large as it was: imported.
    const same = await importSrt(video, [{ startMs: 0, endMs: 500, text: textOf(2000, "replaced") }]);
    expect(same.status, JSON.stringify(same.error)).toBe("succeeded");
    expect(same.result).toMatchObject({ mode: "match", updated: 1 });
  });

  it("the track grows across imports up to the limit and no further", async () => {
    const video = await nearlyFull();
    // 1,152 characters fit exactly (2,096,000 + 1,152 = the limit); one more in the next import does not.
    const fits = await importSrt(video, [{ startMs: 1_048_000, endMs: 1_048_500, text: textOf(1152) }]);
    expect(fits.status, JSON.stringify(fits.error)).toBe("succeeded");
    const more = await importSrt(video, [{ startMs: 1_049_000, endMs: 1_049_500, text: "x" }]);
    expect(more.status).toBe("failed");
    expect(more.error).toContain("cue 1 (line 2): the track would hold 2097153 characters of text");
  });
});
