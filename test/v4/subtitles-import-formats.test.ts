// The import in every format it reads: a 2,000-cue file written by the project's own writers goes through the queue
// consumer, is stored cue for cue, and costs the same rows per cue whatever the format. The figures printed here are
// the ones docs/performance.md quotes ("Subtitle formats"): `npx vitest run test/v4/subtitles-import-formats.test.ts`.
import { beforeAll, describe, expect, it } from "vitest";
import type { CueInput } from "../../src/domain/subtitles/cue";
import { FORMATS, SUBTITLE_FORMATS } from "../../src/domain/subtitles/formats";
import { findJob } from "../../src/db/queries/jobs";
import { listSubtitlesByStart } from "../../src/db/queries/subtitles";
import { createUser, db } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { videoShard } from "../helpers/localisation";
import { deliver, importJob } from "../helpers/subtitles";
import { expectedText } from "../unit/subtitles/format-expectations";

const CUES = 2000;
// As test/v4/subtitles-import-cost.test.ts: the track_checks upsert is the 16th (docs/performance.md, "Rows written per cue").
const ROWS_PER_CUE = 16;
let userId: number;
let containerId: number;

beforeAll(async () => {
  userId = (await createUser()).user.id;
  containerId = (await createContainer({ title: "Import formats", originLanguage: "ko" })).id;
});

/** Cues 2.5 s apart in whole centiseconds (SSA's unit), half of them styled, in Korean and English. */
const track: CueInput[] = Array.from({ length: CUES }, (_, i) => ({
  startMs: 1000 + i * 2500,
  endMs: 1000 + i * 2500 + 1800,
  text: i % 2 ? `<i>Line ${i + 1}</i>\n두 번째 줄 ${i}` : `대사 ${i + 1}: "quoted" & more`,
}));

describe(`a ${CUES}-cue file in each format`, () => {
  for (const format of SUBTITLE_FORMATS) {
    it(`${format}: stored cue for cue, at most ${ROWS_PER_CUE} rows written per cue`, async () => {
      const videoId = (await createVideo(containerId)).id;
      const content = FORMATS[format].write(track, { language: "en" });
      const job = await importJob(userId, videoId, "en", content);
      const started = Date.now();
      await deliver({ type: "srt-import", jobId: job.id });
      const elapsed = Date.now() - started;
      const row = (await findJob(db(), job.id))!;
      expect(row.status, row.error ?? "").toBe("succeeded");
      const result = row.result as Record<string, unknown> & { rows_written: number; duration_ms: number };
      expect(result).toMatchObject({ format, format_source: "content", cues: CUES, created: CUES, segments_created: CUES });
      // On the container's shard (docs/decisions.md, "Subtitles on the shards").
      const stored = (await listSubtitlesByStart((await videoShard(videoId)).db, videoId, "en")).sort((a, b) => a.startMs - b.startMs);
      const expected = track.map((c) => expectedText(format, c.text));
      expect(stored.map((s) => s.text)).toEqual(expected);
      expect(stored.map((s) => s.startMs)).toEqual(track.map((c) => c.startMs));
      console.log(
        JSON.stringify({
          bench: "import-formats",
          format,
          bytes: new TextEncoder().encode(content).length,
          cues: CUES,
          duration_ms: result.duration_ms,
          delivery_ms: elapsed,
          rows_written: result.rows_written,
          rows_per_cue: result.rows_written / CUES,
        }),
      );
      expect(result.rows_written).toBeLessThanOrEqual(ROWS_PER_CUE * CUES);
    });
  }
});
