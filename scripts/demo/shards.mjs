// The demo's rows that live on the shards (docs/decisions.md, "Shards" and "Subtitles on the shards"): the subtitle
// family (segments, subtitles, histories) and the timed comments, with the catalogue facts the shards' triggers read.
// They are drawn with the rest of the demo (scripts/demo-data.mjs) and written once the catalogue's directory has
// placed their containers.

import { insertRows } from "./core.mjs";

/** Ids of shard n start at n·2^32 (src/db/queries/shard-rows.ts, SHARD_ID_RANGE). */
const SHARD_ID_RANGE = 2 ** 32;

/**
 * What goes to the shards, keyed by container: the family rows with the names the shard rows carry (a shard has no
 * users table: `author_username`, `username`), and the facts of every container that has rows there and of all its
 * videos (state, origin language, number: what the triggers flag translations and count languages by).
 */
export function demoShardRows({ containers, videos, users, segments, subtitles, histories, timedComments }) {
  const usernames = new Map(users.map((u) => [u.id, u.username]));
  const containerOf = new Map(videos.map((v) => [v.id, v.container_id]));
  const placed = (row) => ({ ...row, container_id: containerOf.get(row.video_id) });
  const held = new Set([...segments, ...timedComments].map((row) => containerOf.get(row.video_id)));
  return {
    containerFacts: containers
      .filter((c) => held.has(c.id))
      .map((c) => ({ container_id: c.id, state: c.state, origin_language: c.origin_language })),
    videoFacts: videos
      .filter((v) => held.has(v.container_id))
      .map((v) => ({ video_id: v.id, container_id: v.container_id, state: v.state, origin_language: v.origin_language, number: v.number })),
    segments: segments.map(placed),
    subtitles: subtitles.map((s) => ({ ...placed(s), author_username: usernames.get(s.author_id) })),
    histories: histories.map((h) => ({ ...h, username: usernames.get(h.user_id) })),
    timedComments: timedComments.map((c) => ({ ...placed(c), username: usernames.get(c.user_id) })),
  };
}

const FACT_COLUMNS = {
  container_facts: ["container_id", "state", "origin_language", "change_id"],
  video_facts: ["video_id", "container_id", "state", "origin_language", "number", "change_id"],
};
const COLUMNS = {
  segments: ["id", "container_id", "video_id", "start_ms", "end_ms", "author_id", "created_at"],
  subtitles: [
    "id",
    "container_id",
    "segment_id",
    "video_id",
    "language",
    "text",
    "search_text",
    "checks",
    "author_id",
    "author_username",
    "version",
    "created_at",
    "updated_at",
  ],
  subtitle_histories: [
    "id",
    "kind",
    "user_id",
    "username",
    "video_id",
    "container_id",
    "segment_id",
    "subtitle_id",
    "language",
    "text",
    "version",
    "source_key",
    "created_at",
  ],
  timed_comments: ["id", "container_id", "video_id", "language", "user_id", "username", "time_ms", "comment", "created_at"],
};

/**
 * SQL per shard, given where the directory put each container (`Map<container, shard>`): the facts first (a writer's
 * own, change 0: a sync's newer ones stay), then the rows in the order they refer to each other, with ids from each
 * shard's range (the demo's own id k becomes shard·2^32 + k, per table as the catalogue numbered them, references
 * alike), and the shard's id counter moved past them. Safe to re-run: every row has its key and is written with
 * INSERT OR IGNORE, and the counter only moves forward.
 */
export function shardSeedSql(rows, placement) {
  const shardOf = (containerId) => {
    const shard = placement.get(containerId);
    if (!shard) throw new Error(`demo seed: container ${containerId} has no shard in the directory`);
    return shard;
  };
  const id = (shard, k) => (k === null || k === undefined ? null : shard * SHARD_ID_RANGE + k);
  const tables = {
    container_facts: rows.containerFacts.map((c) => ({ ...c, change_id: 0 })),
    video_facts: rows.videoFacts.map((v) => ({ ...v, change_id: 0 })),
    segments: rows.segments,
    subtitles: rows.subtitles,
    subtitle_histories: rows.histories,
    timed_comments: rows.timedComments,
  };
  const byShard = new Map();
  for (const [table, tableRows] of Object.entries(tables)) {
    for (const row of tableRows) {
      const shard = shardOf(row.container_id);
      if (!byShard.has(shard)) byShard.set(shard, Object.fromEntries(Object.keys(tables).map((t) => [t, []])));
      const ided = table in FACT_COLUMNS ? row : { ...row, id: id(shard, row.id) };
      if ("segment_id" in row) ided.segment_id = id(shard, row.segment_id);
      if ("subtitle_id" in row) ided.subtitle_id = id(shard, row.subtitle_id);
      byShard.get(shard)[table].push(ided);
    }
  }
  return new Map(
    [...byShard].map(([shard, shardTables]) => {
      const last = Object.entries(shardTables)
        .filter(([table]) => !(table in FACT_COLUMNS))
        .reduce((max, [, r]) => r.reduce((m, row) => Math.max(m, row.id), max), shard * SHARD_ID_RANGE);
      const statements = [
        ...Object.entries(shardTables).flatMap(([table, r]) => insertRows(table, FACT_COLUMNS[table] ?? COLUMNS[table], r)),
        `INSERT INTO shard_ids (shard, next_id) VALUES (${shard}, ${last}) ON CONFLICT (shard) DO UPDATE SET next_id = max(next_id, excluded.next_id)`,
      ];
      return [shard, `${statements.join(";\n")};\n`];
    }),
  );
}
