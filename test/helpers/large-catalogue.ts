// The large synthetic catalogue (10,000 containers, ~126,000 videos) inside the test D1, built with the same
// INSERT ... SELECT statements as `npm run seed:large` (scripts/large-catalogue-sql.mjs), so the rows-read
// budgets are checked on the catalogue the benchmark measures.
import { env } from "cloudflare:workers";
import { CONTAINER_BASE, largeCatalogueCountsSql, largeCatalogueStatements } from "../../scripts/large-catalogue-sql.mjs";

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

/**
 * Subtitle history volume over the large catalogue: `perVideo` rows on every video (alternately segment and
 * subtitle kinds, spread over `authors` new users), so a delete that scans `subtitle_histories` instead of
 * walking an index reads hundreds of thousands of rows and shows. The contributions triggers fire as on any
 * write. Returns the number of rows and the seconds it took.
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
    await env.DB.prepare(
      `WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < ?1)
       INSERT INTO subtitle_histories (kind, user_id, video_id, container_id, language, text, version)
       SELECT CASE WHEN k.n % 2 THEN 'segment' ELSE 'subtitle' END, ?2 + (v.id + k.n) % ?3, v.id, v.container_id,
              'en', 'line ' || k.n, 1
       FROM videos v, k WHERE v.container_id BETWEEN ?4 AND ?5`,
    )
      .bind(perVideo, first, authors, CONTAINER_BASE + from, CONTAINER_BASE + to)
      .run();
  }
  // Counted, not taken from `changes`, which also counts the contributions rows the triggers wrote.
  const { rows } = (await env.DB.prepare("SELECT count(*) AS rows FROM subtitle_histories").first<{ rows: number }>())!;
  return { rows, seconds: (performance.now() - started) / 1000 };
}
