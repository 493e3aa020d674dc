import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { findJob, insertJob } from "../../src/db/queries/jobs";
import { COPY_CHUNK_ROWS } from "../../src/jobs/subtitle-family-copy";
import { SUBTITLE_FAMILY_TABLES } from "../../src/db/shard-schema";
import { db, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { fromBeforeTheSwitch, subtitlesCopied } from "../helpers/catalogue-family";
import { shardOf } from "../helpers/shards";
import { deliver } from "../helpers/subtitles";

/**
 * The cost of copying one large container's subtitle family from the catalogue to its shard (docs/scaling.md, "Shards
 * as built"): 20 videos × 600 cues in 3 languages, with a history row per track. The figure printed here is the one
 * quoted there (it sizes `shards copy-subtitles all`); the assertion holds the statements to the chunking. The
 * container is one from before the switch (docs/decisions.md, "Subtitles on the shards"): marked not copied, its
 * family in the catalogue's tables.
 */
const VIDEOS = 20;
const CUES = 600;
const LANGUAGES = ["ko", "en", "fr"];

let author: Awaited<ReturnType<typeof signedInUser>>;
beforeAll(async () => {
  author = await signedInUser();
});

describe("copying a large container's subtitle family to its shard", () => {
  it("copies a video at a time in chunks: statements, rows and time", async () => {
    const c = await createContainer({ originLanguage: "ko" });
    await fromBeforeTheSwitch(c.id);
    for (let i = 0; i < VIDEOS; i++) {
      const v = await createVideo(c.id, { number: i + 1 });
      await env.DB.prepare(
        `WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k + 1 < ?2)
         INSERT INTO segments (video_id, start_ms, end_ms, author_id) SELECT ?1, k * 1000, k * 1000 + 900, ?3 FROM n`,
      )
        .bind(v.id, CUES, author.user.id)
        .run();
      await env.DB.batch(
        LANGUAGES.flatMap((language) => [
          env.DB.prepare(
            `INSERT INTO subtitles (segment_id, video_id, language, text, author_id)
             SELECT id, video_id, ?2, ?2 || ': a line of ordinary length, number ' || start_ms, ?3 FROM segments WHERE video_id = ?1`,
          ).bind(v.id, language, author.user.id),
          env.DB.prepare(
            `INSERT INTO subtitle_histories (kind, user_id, video_id, container_id, language, count) VALUES ('subtitle', ?, ?, ?, ?, ?)`,
          ).bind(author.user.id, v.id, c.id, language, CUES),
        ]),
      );
    }
    const job = await insertJob(db(), { type: "subtitle-family-copy", params: { containerId: c.id } });
    await deliver({ type: "subtitle-family-copy", jobId: job.id });
    const done = await findJob(db(), job.id);
    expect(done?.error).toBeNull();
    expect(done?.status).toBe("succeeded");
    const result = done!.result as {
      rows: Record<string, number>;
      statements: number;
      d1_rows_read: number;
      d1_rows_written: number;
      ms: number;
    };
    expect(result.rows).toMatchObject({ segments: VIDEOS * CUES, subtitles: VIDEOS * CUES * LANGUAGES.length });
    const rows = Object.values(result.rows).reduce((a, b) => a + b, 0);
    // Shard statements: per video and table a read of the catalogue (not counted here) and a write per chunk; the
    // clearing, the facts and the checks are a fixed few per table.
    const chunks = VIDEOS * SUBTITLE_FAMILY_TABLES.length + Math.ceil(rows / COPY_CHUNK_ROWS);
    expect(result.statements).toBeLessThanOrEqual(chunks + 4 * SUBTITLE_FAMILY_TABLES.length + 10);
    expect(await subtitlesCopied(c.id)).toBe(1);
    // Once marked, a second run copies nothing: its shard holds what was written since.
    const again = await insertJob(db(), { type: "subtitle-family-copy", params: { containerId: c.id } });
    await deliver({ type: "subtitle-family-copy", jobId: again.id });
    const rerun = await findJob(db(), again.id);
    expect(rerun?.status).toBe("succeeded");
    expect(rerun?.result).toMatchObject({ already_copied: true });
    const { binding } = await shardOf(c.id);
    const onShard = await binding.prepare("SELECT count(*) AS n FROM subtitles WHERE container_id = ?").bind(c.id).first("n");
    expect(onShard).toBe(result.rows.subtitles);
    console.log(
      `subtitle family copy: ${rows} rows, ${result.statements} shard statements, ${result.d1_rows_read} rows read and ` +
        `${result.d1_rows_written} written on the shard, ${result.ms} ms`,
    );
  }, 120_000);
});
