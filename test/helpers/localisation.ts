import { indexForm } from "../../src/domain/search-text";
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { runBatch } from "../../src/db/raw-batch";
import { ensureFactsStatements } from "../../src/db/queries/shard-facts";
import { allocateShardIdsStatement, firstAllocatedId } from "../../src/db/queries/shard-rows";
import { segments, subtitleHistories, subtitles } from "../../src/db/shard-schema";
import { shardOf } from "./shards";

/**
 * What a writer of a video's subtitle family knows before it writes (docs/decisions.md, "Subtitles on the shards"):
 * the video's facts and its container's, its shard, and the names of the users who author rows.
 */
export async function videoShard(videoId: number) {
  const row = await env.DB.prepare(
    `SELECT v.id AS id, v.container_id AS containerId, v.state AS state, v.origin_language AS originLanguage, v.number AS number,
       c.state AS containerState, c.origin_language AS containerOrigin
     FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.id = ?`,
  )
    .bind(videoId)
    .first<{
      id: number;
      containerId: number;
      state: string;
      originLanguage: string;
      number: number | null;
      containerState: string;
      containerOrigin: string;
    }>();
  if (!row) throw new Error(`no video ${videoId}`);
  const placed = await shardOf(row.containerId);
  await runBatch(
    placed.db,
    ensureFactsStatements(row, { id: row.containerId, state: row.containerState, originLanguage: row.containerOrigin }),
  );
  return { ...placed, video: row };
}

/** A user's name (rows on a shard carry their author's). */
export async function usernameOf(userId: number | undefined | null) {
  if (userId === undefined || userId === null) return null;
  const row = await env.DB.prepare("SELECT username FROM users WHERE id = ?").bind(userId).first<{ username: string }>();
  if (!row) throw new Error(`no user ${userId}`);
  return row.username;
}

/** Inserts rows with ids from the shard's range, `per` rows a statement (D1 binds at most 100 values). */
export async function insertWithIds<T>(
  placed: Awaited<ReturnType<typeof videoShard>>,
  table: ShardTable,
  rows: object[],
  per: number,
): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < rows.length; i += per) {
    const chunk = rows.slice(i, i + per);
    const first = firstAllocatedId(placed.shard, chunk.length);
    const [, inserted] = await placed.db.batch([
      allocateShardIdsStatement(placed.db, placed.shard, chunk.length),
      placed.db
        .insert(table)
        .values(chunk.map((r, k) => ({ ...r, id: sql`${first} + ${k}` })) as never)
        .returning(),
    ]);
    out.push(...(inserted as T[]));
  }
  return out;
}

export type ShardTable = typeof segments | typeof subtitles | typeof subtitleHistories;

/**
 * Segments of a video, one per second (start i*1000, end i*1000+900), with subtitles in the given
 * languages: `texts[language]` is either a count (the first N segments get "<language> <i>") or explicit
 * texts by segment index (null leaves the segment without one). Written to the video's shard, as a writer does.
 */
export async function createSubtitles(
  videoId: number,
  count: number,
  texts: Record<string, number | Array<string | null>>,
  opts: { authorId?: number } = {},
) {
  const placed = await videoShard(videoId);
  const containerId = placed.video.containerId;
  const authorUsername = await usernameOf(opts.authorId);
  const timings = Array.from({ length: count }, (_, i) => ({ containerId, videoId, startMs: i * 1000, endMs: i * 1000 + 900 }));
  // 7 bound values a segment (3 for its id), 13 a subtitle (its defaults are bound too): under D1's 100 a statement.
  const segs = await insertWithIds<typeof segments.$inferSelect>(placed, segments, timings, 14);
  const rows = Object.entries(texts).flatMap(([language, spec]) =>
    segs.flatMap((seg, i) => {
      const text = typeof spec === "number" ? (i < spec ? `${language} ${i}` : null) : spec[i];
      return text === null || text === undefined
        ? []
        : [
            {
              containerId,
              segmentId: seg.id,
              videoId,
              language,
              text,
              searchText: indexForm(text),
              authorId: opts.authorId,
              authorUsername,
            },
          ];
    }),
  );
  const inserted = await insertWithIds<typeof subtitles.$inferSelect>(placed, subtitles, rows, 7);
  /** The subtitle of segment `i` in `language`. */
  const at = (language: string, i: number) => {
    const s = inserted.find((r) => r.language === language && r.segmentId === segs[i].id);
    if (!s) throw new Error(`no ${language} subtitle at segment ${i}`);
    return { ...s, wireId: `${s.id}s` };
  };
  return { segments: segs, subtitles: inserted, at };
}

/** History rows written directly (the importer writes them in production), on each video's shard. */
export async function createHistories(
  rows: Array<{ userId: number; videoId: number; containerId: number; language?: string; text?: string; kind?: "segment" | "subtitle" }>,
) {
  const out: (typeof subtitleHistories.$inferSelect)[] = [];
  for (const r of rows) {
    const placed = await videoShard(r.videoId);
    const username = (await usernameOf(r.userId))!;
    const value = { kind: r.kind ?? ("subtitle" as const), language: r.language ?? "en", text: r.text ?? "x", username, ...r };
    out.push(...(await insertWithIds<typeof subtitleHistories.$inferSelect>(placed, subtitleHistories, [value], 1)));
  }
  return out;
}
