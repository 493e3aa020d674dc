// docs/decisions.md, "An import's history is one row per kind and chunk": D1 bills rows written, index entries and
// trigger writes included. An SRT import writes at most 16 rows per cue (a segment, a subtitle, the language count,
// the track's quality-check count; its history is one row per kind and chunk), and importing the same file again
// writes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { findJob } from "../../src/db/queries/jobs";
import { createUser, db } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { deliver, importJob, makeCues, srtOf } from "../helpers/subtitles";

const CUES = 500;
const ROWS_PER_CUE = 16;
let userId: number;
let containerId: number;

beforeAll(async () => {
  userId = (await createUser()).user.id;
  containerId = (await createContainer({ title: "Import cost", originLanguage: "ko" })).id;
});

async function rowsWritten(videoId: number, language: string, content: string) {
  const job = await importJob(userId, videoId, language, content);
  await deliver({ type: "srt-import", jobId: job.id });
  const row = (await findJob(db(), job.id))!;
  expect(row.status).toBe("succeeded");
  return { written: Number(row.result?.rows_written), result: row.result };
}

describe("rows written by an SRT import", () => {
  for (const [label, language] of [
    ["a translation (not the origin language)", "en"],
    ["originals (the origin language)", "ko"],
  ] as const) {
    it(`${CUES} new cues as ${label}: at most ${ROWS_PER_CUE} rows per cue, and nothing again`, async () => {
      const videoId = (await createVideo(containerId)).id;
      const content = srtOf(makeCues(CUES, `${language} cue`));
      const first = await rowsWritten(videoId, language, content);
      expect(first.result).toMatchObject({ created: CUES, segments_created: CUES });
      console.log(
        JSON.stringify({ bench: "import-cost", language, cues: CUES, rows_written: first.written, per_cue: first.written / CUES }),
      );
      expect(first.written).toBeLessThanOrEqual(ROWS_PER_CUE * CUES);
      const again = await rowsWritten(videoId, language, content);
      expect(again.result).toMatchObject({ unchanged: CUES, created: 0, updated: 0 });
      expect(again.written).toBe(0);
    });
  }

  it("a second language on the same segments (match mode): at most the same per cue", async () => {
    const videoId = (await createVideo(containerId)).id;
    await rowsWritten(videoId, "ko", srtOf(makeCues(CUES, "ko cue")));
    const { written, result } = await rowsWritten(videoId, "fr", srtOf(makeCues(CUES, "fr cue")));
    expect(result).toMatchObject({ mode: "match", created: CUES });
    console.log(
      JSON.stringify({ bench: "import-cost", language: "fr (match)", cues: CUES, rows_written: written, per_cue: written / CUES }),
    );
    expect(written).toBeLessThanOrEqual(ROWS_PER_CUE * CUES);
  });
});
