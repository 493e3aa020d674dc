// The data of npm run bench:shards, written straight into the local databases (scripts/bench-shards/checkout.mjs,
// `openDatabases`): the demo's users and applications, the shards 3..N in the catalogue, one container per shard
// with `perShard` translations and as many history rows of one user, and one container of `moveRows` rows to move.
// The shard rows are written as test/robustness/keyset-paging.test.ts writes them (ids from each shard's range,
// the video's facts first), with the app's own statements.
import { bundleAndImport } from "../demo/load-app-code.mjs";
import { largeCatalogueStatements, CONTAINER_BASE } from "../large-catalogue-sql.mjs";

const ENTRY = `
export { sql } from "drizzle-orm";
export { createShardDb } from "./src/db/shards";
export { runBatch } from "./src/db/raw-batch";
export { ensureFactsStatements } from "./src/db/queries/shard-facts";
export { allocateShardIdsStatement, firstAllocatedId } from "./src/db/queries/shard-rows";
`;

/** The demo user whose history the bench lists (scripts/demo/users.mjs). */
export const AUTHOR = { id: 3, username: "alice", password: "alice-password" };

async function runFile(db, sql) {
  const { unstable_splitSqlQuery: split } = await import("wrangler");
  await db.batch(split(sql).map((q) => db.prepare(q)));
}

/**
 * Seeds the databases; `shardAdd(n)` makes shard n known to the catalogue (the bench passes the admin CLI's
 * `shards add` for one of them). Returns `{ listed: [{shard, container, video}], moving: {container, video, shard} }`.
 */
export async function seedShards({ root, dbs, shards, perShard, moveRows, log }) {
  const app = await bundleAndImport({ stdin: { contents: ENTRY, resolveDir: root, sourcefile: "bench-shards-seed.mjs", loader: "js" } });
  const catalogue = dbs.db("DB");
  const { demoSeed } = await import("../demo-data.mjs");
  await runFile(catalogue, (await demoSeed()).sql);
  // Known to the catalogue before any container is made, as `shards add` would leave them; the placement trigger
  // then spreads the containers, and the bench places its own below.
  for (let n = 3; n <= shards; n++)
    await catalogue.prepare("INSERT INTO shards (id) VALUES (?) ON CONFLICT (id) DO UPDATE SET accepting = 1").bind(n).run();
  // A few more containers than needed: the large catalogue leaves some pending or blocked, which no list shows.
  for (const s of largeCatalogueStatements({ from: 1, to: shards + 8 })) await catalogue.prepare(s.sql).run();
  const { results: normal } = await catalogue
    .prepare("SELECT id FROM containers WHERE id > ? AND state = 'normal' ORDER BY id LIMIT ?")
    .bind(CONTAINER_BASE, shards + 1)
    .all();
  if (normal.length < shards + 1) throw new Error(`large catalogue: ${normal.length} normal containers, ${shards + 1} needed`);
  const containers = normal.map((c) => c.id);
  // Container k on shard k; the one to move on shard 1 (the directory's count triggers follow the update).
  for (const [i, id] of containers.entries())
    await catalogue
      .prepare("UPDATE shard_directory SET shard = ? WHERE container_id = ?")
      .bind(i < shards ? i + 1 : 1, id)
      .run();
  // A directory switch leaves the shard left a cleanup and re-sends the facts (migrations/0037): these containers had
  // no rows anywhere yet, so there is nothing to clean or sync. Left in, each shard with a pending cleanup would test
  // every entry of a list against it (`leftOut`), about one row read more per entry, until the sweeper drained it.
  const ids = containers.join(", ");
  await catalogue.prepare(`DELETE FROM shard_cleanups WHERE container_id IN (${ids})`).run();
  await catalogue.prepare(`DELETE FROM shard_fact_changes WHERE container_id IN (${ids})`).run();
  const placed = [];
  for (const [i, containerId] of containers.entries()) {
    const facts = await catalogue
      .prepare(
        `SELECT v.id AS id, v.container_id AS containerId, v.state AS state, v.origin_language AS originLanguage, v.number AS number,
           c.state AS containerState, c.origin_language AS containerOrigin
         FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.container_id = ? AND v.state = 'normal' ORDER BY v.id LIMIT 1`,
      )
      .bind(containerId)
      .first();
    if (!facts) throw new Error(`container ${containerId}: no normal video in the large catalogue`);
    const shard = i < shards ? i + 1 : 1;
    const rows = i < shards ? perShard : moveRows;
    const t0 = performance.now();
    await seedVideo(app, dbs.db(`SHARD_${shard}`), shard, facts, rows);
    log?.(`shard ${shard}: container ${containerId}c, video ${facts.id}v, ${rows} segments, translations and history rows (${ms(t0)})`);
    placed.push({ shard, container: containerId, video: facts.id });
  }
  return { listed: placed.slice(0, shards), moving: placed[shards] };
}

const ms = (t0) => `${Math.round(performance.now() - t0)} ms`;

/**
 * `rows` segments with a translation each (English, or Korean where the video's origin is English), and `rows` history
 * rows of AUTHOR, on the video's shard.
 */
async function seedVideo(app, binding, shard, f, rows) {
  const { sql } = app;
  const db = app.createShardDb(binding);
  const facts = app.ensureFactsStatements(f, { id: f.containerId, state: f.containerState, originLanguage: f.containerOrigin });
  const language = (f.originLanguage || f.containerOrigin) === "en" ? "ko" : "en";
  const first = app.firstAllocatedId(shard, 2 * rows);
  await app.runBatch(db, [
    ...facts.map((s) => s.getSQL()),
    app.allocateShardIdsStatement(db, shard, 2 * rows).getSQL(),
    sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${rows})
     INSERT INTO segments (id, container_id, video_id, start_ms, end_ms)
     SELECT ${first} + i, ${f.containerId}, ${f.id}, i * 1000, i * 1000 + 900 FROM n`,
    sql`INSERT INTO subtitles (id, container_id, segment_id, video_id, language, text, created_at)
     SELECT id + ${rows}, container_id, id, video_id, ${language}, '번역 ' || id, 1700000000 + (id - ${first}) FROM segments WHERE video_id = ${f.id}`,
  ]);
  const history = app.firstAllocatedId(shard, rows);
  await app.runBatch(db, [
    app.allocateShardIdsStatement(db, shard, rows).getSQL(),
    sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${rows})
     INSERT INTO subtitle_histories (id, kind, user_id, username, video_id, container_id, language, text, created_at)
     SELECT ${history} + i, 'subtitle', ${AUTHOR.id}, ${AUTHOR.username}, ${f.id}, ${f.containerId}, 'ko', '수정 ' || i, 1700000000 + i FROM n`,
  ]);
}
