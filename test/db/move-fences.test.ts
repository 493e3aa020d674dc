// The fence and the change log of a move on the shard a container leaves (docs/decisions.md, "Online moves";
// src/db/shard-triggers/move-fences.sql), at the database: whoever writes, whatever placement they read.
import { beforeAll, describe, expect, it } from "vitest";
import { changesAfter, endMove, setMoveState, startMoveLog } from "../../src/db/queries/shard-moves";
import { deleteRows } from "../../src/db/queries/shard-rows";
import { FENCE_REFUSAL, MOVED_TABLES } from "../../src/db/shard-schema";
import { isFenceRefusal } from "../../src/services/shards";
import { signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { putShardSubtitles, shardOf } from "../helpers/shards";

let author: Awaited<ReturnType<typeof signedInUser>>;
beforeAll(async () => {
  author = await signedInUser();
});

let base = 70_000_000;
/** A container with one video, two subtitled cues in Korean and Japanese, and a timed comment, on its shard. */
async function container() {
  const c = await createContainer({ originLanguage: "ko" });
  const v = await createVideo(c.id, { number: 1 });
  base += 100_000;
  const { shard, binding } = await putShardSubtitles({ id: v.id, containerId: c.id }, ["ko", "ja"], 2, base);
  const { db } = await shardOf(c.id);
  await binding
    .prepare(
      "INSERT INTO timed_comments (id, container_id, video_id, language, user_id, username, time_ms, comment) VALUES (?, ?, ?, 'ko', ?, ?, 5, '좋아요')",
    )
    .bind(shard * 2 ** 32 + base + 90_000, c.id, v.id, author.user.id, author.user.username)
    .run();
  return { c, v, shard, db, binding };
}

const run = (binding: D1Database, query: string, ...binds: unknown[]) =>
  binding
    .prepare(query)
    .bind(...binds)
    .run();

describe("a move's log and fence on the shard a container leaves", () => {
  it("no fence: writes are neither logged nor refused", async () => {
    const { c, db, binding } = await container();
    await run(binding, "UPDATE subtitles SET text = text || '!' WHERE container_id = ?", c.id);
    expect(await changesAfter(db, c.id, 0, 10)).toEqual([]);
  });

  it("logging: every insert, update and delete of the container's rows is logged with its key, another container's not", async () => {
    const { c, db, binding } = await container();
    const bystander = await container();
    await startMoveLog(db, c.id);
    await run(binding, "UPDATE subtitles SET text = '新しい' WHERE container_id = ? AND language = 'ja'", c.id);
    await run(binding, "UPDATE timed_comments SET comment = '최고' WHERE container_id = ?", c.id);
    await run(bystander.binding, "UPDATE subtitles SET text = 'x' WHERE container_id = ?", bystander.c.id);
    const ja = await binding
      .prepare("SELECT id FROM subtitles WHERE container_id = ? AND language = 'ja' ORDER BY id")
      .bind(c.id)
      .all<{ id: number }>();
    const logged = await changesAfter(db, c.id, 0, 100);
    expect(logged.map((l) => [l.tableName, l.rowKey])).toEqual([
      ...ja.results.map((r) => ["subtitles", `[${r.id}]`]),
      ["timed_comments", expect.stringMatching(/^\[\d+\]$/)],
    ]);
    expect(await changesAfter(bystander.db, bystander.c.id, 0, 10)).toEqual([]);
  });

  it("fenced: every write of the container's rows in each moved table is refused with the fence's error; reads and other containers go on", async () => {
    const { c, db, binding } = await container();
    const bystander = await container();
    await startMoveLog(db, c.id);
    await setMoveState(db, c.id, "fenced");
    let tables = 0;
    for (const table of MOVED_TABLES) {
      const count = await binding.prepare(`SELECT count(*) AS n FROM ${table} WHERE container_id = ?`).bind(c.id).first<{ n: number }>();
      const update = () => run(binding, `UPDATE ${table} SET container_id = container_id WHERE container_id = ?`, c.id);
      // A table with no row of the container has nothing to refuse.
      if (count!.n === 0) await update();
      else {
        await expect(update(), table).rejects.toThrow(FENCE_REFUSAL);
        tables++;
      }
    }
    expect(tables).toBe(3);
    const deleting = run(binding, "DELETE FROM timed_comments WHERE container_id = ?", c.id);
    await expect(deleting).rejects.toSatisfy(isFenceRefusal);
    await expect(
      run(
        binding,
        "INSERT INTO timed_comments (id, container_id, video_id, language, user_id, username, time_ms, comment) VALUES (?, ?, 1, 'ar', 1, 'x', 1, 'مرحبا')",
        Date.now(),
        c.id,
      ),
    ).rejects.toThrow(FENCE_REFUSAL);
    expect(
      (await binding.prepare("SELECT count(*) AS n FROM timed_comments WHERE container_id = ?").bind(c.id).first<{ n: number }>())!.n,
    ).toBe(1);
    await run(bystander.binding, "UPDATE subtitles SET text = 'ok' WHERE container_id = ?", bystander.c.id);
    // Nothing refused was logged.
    expect(await changesAfter(db, c.id, 0, 10)).toEqual([]);
  });

  it("a delete that passes the fence (a drain, a cleanup) deletes, is not logged, and leaves the fence standing", async () => {
    const { c, db, binding } = await container();
    await startMoveLog(db, c.id);
    await setMoveState(db, c.id, "fenced");
    expect(await deleteRows(db, "timed_comments", c.id, null, 10)).toBe(1);
    expect(await changesAfter(db, c.id, 0, 10)).toEqual([]);
    await expect(run(binding, "UPDATE subtitles SET text = 'late' WHERE container_id = ?", c.id)).rejects.toThrow(FENCE_REFUSAL);
    // The move's end takes the fence and its log away: writes go through again.
    expect(await endMove(db, c.id, 100)).toBe(true);
    await run(binding, "UPDATE subtitles SET text = 'after' WHERE container_id = ?", c.id);
  });
});

describe("isFenceRefusal", () => {
  it("knows the refusal through the query builder's wrapping, and nothing else", () => {
    const d1 = new Error(`D1_ERROR: ${FENCE_REFUSAL}: SQLITE_CONSTRAINT`);
    expect(isFenceRefusal(d1)).toBe(true);
    expect(isFenceRefusal(new Error("Failed query: update ...", { cause: d1 }))).toBe(true);
    expect(isFenceRefusal(new Error("UNIQUE constraint failed"))).toBe(false);
    expect(isFenceRefusal("container_moving")).toBe(false);
  });
});
