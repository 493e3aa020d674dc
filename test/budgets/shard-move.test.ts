import { beforeAll, describe, expect, it } from "vitest";
import { SHARD_ID_RANGE } from "../../src/db/queries/shard-rows";
import { DERIVED_TABLES, SHARD_TABLES } from "../../src/db/shard-schema";
import { MOVE_CHUNK_ROWS } from "../../src/jobs/container-move";
import { signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { moveContainer, putShardSubtitles, shardOf } from "../helpers/shards";

/**
 * The cost of moving one large container between shards (docs/scaling.md, "Shards as built"): 100 videos × 200
 * comments, and 20 videos × 600 cues in 3 languages of the subtitle family. The figures printed here are the ones
 * quoted there; the assertions hold the statement count to the chunking.
 */
const VIDEOS = 100;
const PER_VIDEO = 200;

let author: Awaited<ReturnType<typeof signedInUser>>;
beforeAll(async () => {
  author = await signedInUser();
});

type MoveResult = {
  rows: Record<string, number>;
  statements: number;
  d1_rows_read: number;
  d1_rows_written: number;
  ms: number;
  fenced_ms: number;
};

async function move(containerId: number, from: number, to: number) {
  const done = await moveContainer(containerId, from, to);
  expect(done?.status).toBe("succeeded");
  return done!.result as MoveResult;
}

/**
 * Statements of an online move (docs/decisions.md, "Online moves"): per chunk of a table, a copy read and write, a
 * check read on each side and a delete of three statements (the fence's pass around it); per table, however empty,
 * the same once more, the target's clearing and a count on each side; about 30 for the log, the fence, the replays
 * and the switch.
 */
const moveStatements = (chunks: number) => 7 * chunks + 10 * SHARD_TABLES.length + 2 * DERIVED_TABLES.length + 30;

describe("moving a large container", () => {
  it("copies, checks and deletes in chunks: rows read and time", async () => {
    const c = await createContainer();
    const { shard, binding } = await shardOf(c.id);
    for (let i = 0; i < VIDEOS; i++) {
      const v = await createVideo(c.id, { number: i + 1 });
      await binding
        .prepare(
          `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ?4)
           INSERT INTO timed_comments (id, container_id, video_id, language, user_id, username, time_ms, comment)
           SELECT ?1 + k, ?2, ?3, 'en', ?5, ?6, k * 10, 'a timed comment of ordinary length, ' || k FROM n`,
        )
        .bind(shard * SHARD_ID_RANGE + 10_000_000 + i * 1_000, c.id, v.id, PER_VIDEO, author.user.id, author.user.username)
        .run();
    }
    // D1 reports the database's size after each statement: the bytes a comment takes with its indexes.
    const size = async () => (await binding.prepare("SELECT 1").run()).meta.size_after;
    const full = await size();
    const to = shard === 1 ? 2 : 1;
    const result = await move(c.id, shard, to);
    const rows = VIDEOS * PER_VIDEO;
    expect(result.rows.timed_comments).toBe(rows);
    const chunks = Math.ceil((rows + 1) / MOVE_CHUNK_ROWS);
    expect(result.statements).toBeLessThanOrEqual(moveStatements(chunks));
    // Per row: copy 3 (the source row, its JSON element, the target's key lookup), the check 3 (the source row, the
    // target's by its key), count 2 (both sides), delete 5 (the index scan, the row and its three index entries) and
    // 3 more for the fence's trigger on each row deleted (the fence row, read by its condition, its refusal and its
    // log test), 4 to spare; written: the row and three index entries, then the delete.
    expect(result.d1_rows_read).toBeLessThanOrEqual(20 * rows + 20 * SHARD_TABLES.length);
    expect(result.d1_rows_written).toBeLessThanOrEqual(5 * rows + 20 * SHARD_TABLES.length);
    console.log(
      `shard move: ${rows} rows, ${result.statements} statements, ${result.d1_rows_read} rows read, ` +
        `${result.d1_rows_written} rows written, ${result.ms} ms, writes refused for ${result.fenced_ms} ms`,
    );
    expect((await shardOf(c.id)).shard).toBe(to);
    console.log(`shard size: ${full} bytes with ${rows} comments (about ${Math.round(full / rows)} bytes a comment)`);
  }, 60_000);

  it("moves a container's subtitle family: segments, subtitles in three languages and their facts", async () => {
    const VIDEOS_WITH_SUBTITLES = 20;
    const CUES = 600;
    const c = await createContainer();
    let shard = 0;
    for (let i = 0; i < VIDEOS_WITH_SUBTITLES; i++) {
      const v = await createVideo(c.id, { number: i + 1 });
      ({ shard } = await putShardSubtitles({ id: v.id, containerId: c.id }, ["ko", "en", "fr"], CUES, 20_000_000 + i * 10_000));
    }
    const to = shard === 1 ? 2 : 1;
    const result = await move(c.id, shard, to);
    const subtitles = VIDEOS_WITH_SUBTITLES * CUES * 3;
    const rows = Object.values(result.rows).reduce((a, b) => a + b, 0);
    expect(result.rows).toMatchObject({ subtitles, segments: VIDEOS_WITH_SUBTITLES * CUES, video_facts: VIDEOS_WITH_SUBTITLES });
    const chunks = SHARD_TABLES.reduce((sum, t) => sum + Math.ceil(((result.rows[t] ?? 0) + 1) / MOVE_CHUNK_ROWS), 0);
    expect(result.statements).toBeLessThanOrEqual(moveStatements(chunks));
    // Writes are refused only for the fenced part, whose statements do not grow with the container.
    expect(result.fenced_ms).toBeLessThan(1000);
    console.log(
      `shard move (subtitle family): ${rows} rows (${subtitles} subtitles), ${result.statements} statements, ` +
        `${result.d1_rows_read} rows read, ${result.d1_rows_written} rows written, ${result.ms} ms, writes refused for ${result.fenced_ms} ms`,
    );
    expect((await shardOf(c.id)).shard).toBe(to);
  }, 120_000);
});
