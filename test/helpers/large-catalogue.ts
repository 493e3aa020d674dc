// The large synthetic catalogue (10,000 containers, ~126,000 videos) inside the test D1, built with the same
// INSERT ... SELECT statements as `npm run seed:large` (scripts/large-catalogue-sql.mjs), so the rows-read
// budgets are checked on the catalogue the benchmark measures.
import { env } from "cloudflare:workers";
import { CONTAINER_BASE, largeCatalogueCountsSql, largeCatalogueStatements } from "../../scripts/large-catalogue-sql.mjs";
import { fillTitleIndexForms } from "../../scripts/title-index-forms.mjs";
import { shardBinding } from "../../src/db/shards";
import { indexForm } from "../../src/domain/search-text";
import { allocateIdsStatement } from "./shards";

export { CONTAINER_BASE, containerId, videoId } from "../../scripts/large-catalogue-sql.mjs";

export interface LargeCatalogueCounts {
  containers: number;
  videos: number;
  titles: number;
  container_genres: number;
  licenses: number;
  subtitle_completions: number;
  container_facets: number;
}

/**
 * Seeds `containers` containers with their videos, titles, descriptions, genres, licences and completions;
 * the triggers of migration 0003 derive the documents and facets. A small first chunk gives `ANALYZE` some
 * completions to measure (without statistics the triggers' completion lookups scan, see
 * docs/performance.md); the statistics are dropped afterwards so the API runs with a fresh D1's planner.
 * Returns the row counts and the time per statement.
 */
export async function seedLargeCatalogue(containers = 10_000) {
  const started = performance.now();
  const timings: Array<{ step: string; ms: number }> = [];
  const first = Math.min(500, containers);
  const chunks = [{ from: 1, to: first }, ...(containers > first ? [{ from: first + 1, to: containers }] : [])];
  for (const chunk of chunks) {
    for (const s of largeCatalogueStatements(chunk)) {
      const t0 = performance.now();
      await env.DB.prepare(s.sql).run();
      timings.push({ step: `${chunk.from}-${chunk.to} ${s.table}`, ms: Math.round(performance.now() - t0) });
    }
  }
  // The seed's SQL cannot compute the titles' index form for v4 search; the operator's command fills it the same way.
  const t0 = performance.now();
  await fillTitleIndexForms(async (sql) => (await env.DB.prepare(sql).all()).results, indexForm);
  timings.push({ step: "title index forms", ms: Math.round(performance.now() - t0) });
  const stats = await env.DB.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'sqlite_stat%'").all<{ name: string }>();
  for (const { name } of stats.results) await env.DB.prepare(`DROP TABLE ${name}`).run();
  const counts = (await env.DB.prepare(largeCatalogueCountsSql(containers)).first<LargeCatalogueCounts>())!;
  return { counts, seconds: (performance.now() - started) / 1000, timings };
}

/** Normal-state containers of the large catalogue, `n` of them spread over the id range. */
export async function someListedContainers(n: number, where = "1 = 1") {
  const rows = await env.DB.prepare(
    `SELECT id FROM containers WHERE id > ${CONTAINER_BASE} AND state = 'normal' AND ${where} ORDER BY (id * 7919) % 10007 LIMIT ${n}`,
  ).all<{ id: number }>();
  return rows.results.map((r) => r.id);
}

/** Videos of the large catalogue one history statement writes on a shard (their ids travel as one JSON parameter). */
const HISTORY_VIDEOS_PER_STATEMENT = 1_000;

/**
 * Subtitle history volume over the large catalogue: `perVideo` rows on every video (alternately segment and
 * subtitle kinds, spread over `authors` new users), so a delete that scans `subtitle_histories` instead of
 * walking an index reads hundreds of thousands of rows and shows. The rows are written where the API writes them
 * (docs/decisions.md, "Subtitles on the shards"): on each container's shard, with the author's name and ids from the
 * shard's range (its counter advanced in the same batch); the shard's contributions triggers fire as on any write.
 * Returns the number of rows and the seconds it took.
 */
export async function seedLargeHistories(perVideo = 2, authors = 50, containers = 10_000) {
  const started = performance.now();
  const tag = `hist${Date.now().toString(36)}`;
  await env.DB.prepare(
    `WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < ?1)
     INSERT INTO users (username, email, name, password_hash)
     SELECT ?2 || '-' || n, ?2 || '-' || n || '@example.com', '', 'x' FROM k`,
  )
    .bind(authors, tag)
    .run();
  const first = (await env.DB.prepare("SELECT min(id) AS id FROM users WHERE username LIKE ?1 || '-%'").bind(tag).first<{ id: number }>())!
    .id;
  const step = 2_000;
  for (let from = 1; from <= containers; from += step) {
    const to = Math.min(containers, from + step - 1);
    const { results: placed } = await env.DB.prepare(
      `SELECT v.id AS video, v.container_id AS container, d.shard AS shard FROM videos v
       JOIN shard_directory d ON d.container_id = v.container_id WHERE v.container_id BETWEEN ?1 AND ?2 ORDER BY v.id`,
    )
      .bind(CONTAINER_BASE + from, CONTAINER_BASE + to)
      .all<{ video: number; container: number; shard: number }>();
    for (const shard of new Set(placed.map((p) => p.shard))) {
      const videos = placed.filter((p) => p.shard === shard).map((p) => [p.video, p.container]);
      const binding = shardBinding(env, shard);
      for (let i = 0; i < videos.length; i += HISTORY_VIDEOS_PER_STATEMENT) {
        const chunk = videos.slice(i, i + HISTORY_VIDEOS_PER_STATEMENT);
        const n = chunk.length * perVideo;
        // The user is the one the catalogue version of this helper picked: first + (video + k) % authors, named tag-<i>.
        await binding.batch([
          allocateIdsStatement(binding, shard, n),
          binding
            .prepare(
              `WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < ?1),
                 v AS (SELECT key AS j, json_extract(value, '$[0]') AS id, json_extract(value, '$[1]') AS container_id FROM json_each(?2))
               INSERT INTO subtitle_histories (id, kind, user_id, username, video_id, container_id, language, text, version)
               SELECT (SELECT next_id FROM shard_ids WHERE shard = ?3) - ?4 + 1 + v.j * ?1 + k.n - 1,
                 CASE WHEN k.n % 2 THEN 'segment' ELSE 'subtitle' END, ?5 + (v.id + k.n) % ?6,
                 ?7 || '-' || CAST((v.id + k.n) % ?6 + 1 AS INTEGER), v.id, v.container_id, 'en', 'line ' || k.n, 1
               FROM v, k`,
            )
            .bind(perVideo, JSON.stringify(chunk), shard, n, first, authors, tag),
        ]);
      }
    }
  }
  // Counted, not taken from `changes`, which also counts the contributions rows the triggers wrote.
  const counts = await Promise.all(
    [1, 2].map((shard) => shardBinding(env, shard).prepare("SELECT count(*) AS rows FROM subtitle_histories").first<{ rows: number }>()),
  );
  return { rows: counts.reduce((sum, c) => sum + (c?.rows ?? 0), 0), seconds: (performance.now() - started) / 1000 };
}
