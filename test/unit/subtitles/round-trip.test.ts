// Properties of the readers and writers together: whatever cues are written in a format, its reader gives them back
// as far as the format carries them (format-expectations.ts states how far), in every pair of formats too, and
// through the real import route.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { CueInput } from "../../../src/domain/subtitles/cue";
import { FORMATS, SUBTITLE_FORMATS, type SubtitleFormat } from "../../../src/domain/subtitles/formats";
import { api, signedInUser } from "../../helpers";
import { createVideo, managedContainer } from "../../helpers/catalogue";
import { waitForJob } from "../../helpers/jobs";
import { comparable, expectedText, readBackTimes } from "./format-expectations";
import { cueList, distinctStarts } from "./round-trip-arbitraries";

const SEED = 20_240_611;
const RUNS = 200;

const write = (format: SubtitleFormat, cues: CueInput[]) => FORMATS[format].write(cues, { language: "en" });
const read = (format: SubtitleFormat, text: string): CueInput[] =>
  FORMATS[format].read(text).cues.map(({ startMs, endMs, text }) => ({ startMs, endMs, text }));

/** WebVTT is written in time order (sort is stable); the other writers keep the order given. */
const inWrittenOrder = (format: SubtitleFormat, cues: CueInput[]) =>
  format === "vtt" ? [...cues].sort((a, b) => a.startMs - b.startMs) : cues;

/** What `format`'s reader should give back for `cues` written in it. */
const expectedIn = (format: SubtitleFormat, cues: CueInput[]): CueInput[] =>
  inWrittenOrder(format, cues).map((c) => {
    const [startMs, endMs] = readBackTimes(format, c.startMs, c.endMs);
    return { startMs, endMs, text: expectedText(format, c.text) };
  });

const shape = (cues: CueInput[], ...through: SubtitleFormat[]) => cues.map((c) => [c.startMs, c.endMs, comparable(c.text, ...through)]);

describe("write then read, in each format", () => {
  for (const format of SUBTITLE_FORMATS) {
    it(`${format}: the cues come back as the format carries them`, () => {
      fc.assert(
        fc.property(cueList, (cues) => {
          expect(shape(read(format, write(format, cues)), format)).toEqual(shape(expectedIn(format, cues), format));
        }),
        { seed: SEED, numRuns: RUNS },
      );
    });
  }
});

describe("write, read, write, read across every pair of formats", () => {
  for (const a of SUBTITLE_FORMATS)
    for (const b of SUBTITLE_FORMATS) {
      if (a === b) continue;
      it(`${a} then ${b}`, () => {
        fc.assert(
          fc.property(cueList, (cues) => {
            const once = read(a, write(a, cues));
            const twice = read(b, write(b, once));
            expect(shape(twice, a, b)).toEqual(shape(expectedIn(b, expectedIn(a, cues)), a, b));
          }),
          { seed: SEED, numRuns: RUNS },
        );
      });
    }
});

describe("generated cues imported through the route", () => {
  let official: string;
  let manager: Awaited<ReturnType<typeof signedInUser>>;
  let containerId: number;

  beforeAll(async () => {
    ({ official, manager, containerId } = await managedContainer("Round trip"));
  });

  it("are stored as written, in time order, in whichever format they were written", async () => {
    await fc.assert(
      fc.asyncProperty(distinctStarts, fc.constantFrom(...SUBTITLE_FORMATS), async (cues, format) => {
        const video = await createVideo(containerId);
        const res = await api(`/v4/videos/${video.wireId}/subtitles/import_srt.json?app=${official}&language=en&token=${manager.token}`, {
          method: "POST",
          body: write(format, cues),
          headers: { "content-type": FORMATS[format].mediaTypes[0] },
        });
        expect(res.status).toBe(202);
        const job = await waitForJob(((await res.json()) as { job: { id: string } }).job.id, manager.token);
        expect(job.status, job.error ?? "").toBe("succeeded");
        await waitForJob((job.result as { completion_job: string }).completion_job, manager.token);
        const track = await api(`/v4/videos/${video.wireId}/subtitle_tracks/en.json?app=${official}`);
        const stored = ((await track.json()) as { cues: Array<{ start_ms: number; end_ms: number; text: string }> }).cues;
        const expected = expectedIn(format, cues).sort((x, y) => x.startMs - y.startMs);
        expect(
          shape(
            stored.map((c) => ({ startMs: c.start_ms, endMs: c.end_ms, text: c.text })),
            format,
          ),
        ).toEqual(shape(expected, format));
      }),
      { seed: SEED, numRuns: 10 },
    );
  });
});
