// npm run bench:search [-- --subtitles N] [--containers N] [--keep] [--no-index] [--check]
//
// The subtitle search index at scale (docs/decisions.md, "Subtitle search"), for docs/scaling.md and
// docs/performance.md. The load of `npm run bench:shard-sizes` (scripts/shard-sizes/run.mjs) in a fresh temporary
// state, with multilingual lines (scripts/bench-search/text.mjs: English, Korean, Chinese or Japanese per video) whose
// `search_text` is made in SQL and checked on a sample against `indexForm` (src/domain/search-text.ts). Then:
//  - sizes: the text's bytes, each shard's size, the index's bytes (its FTS5 shadow tables, dbstat) and search_text's;
//  - rows read (D1's meta.rows_read) per shard of the service's own shard query (subtitleMatchesQuery with the
//    service's scopedMatch and SUBTITLE_SEARCH_CANDIDATES) for each kind of query, plain, with `language` and with
//    `container_id`, the query plan, and what rows_read counts of the index walk alone (newest 60, every match, bm25
//    over every match) beside its time;
//  - the alternatives on SHARD_1's text, each in a scratch FTS5 table: the same tokenizer over the body alone (the
//    index without its scope column), the trigram tokenizer over `text`, and a bigram form (each pair of adjacent
//    unspaced characters a token, a lone one a token of its own).
// --no-index drops the index triggers before the load: the load rate of the same lines without the index.
// --check is the row-budget test at scale that CI runs: the queries and index walks only (no alternatives), each held
// to SUBTITLE_SEARCH_ROW_BUDGET rows per shard and SUBTITLE_SEARCH_ROW_BUDGET_IN_ALL over the shards, on at least the
// lines asked for; a query over, a load short of them or an index form that differs fails it (exit code 1).
// Runs through tsx (it imports the service's TypeScript).
import { cpus } from "node:os";
import { parseArgs } from "node:util";
import { createShardDb } from "../src/db/shards.ts";
import { emptyStats, instrument } from "../src/db/client.ts";
import { subtitleMatchesQuery } from "../src/db/queries/subtitle-search.ts";
import { indexForm, parseQuery } from "../src/domain/search-text.ts";
import {
  SUBTITLE_SEARCH_CANDIDATES,
  SUBTITLE_SEARCH_ROW_BUDGET,
  SUBTITLE_SEARCH_ROW_BUDGET_IN_ALL,
  scopedMatch,
} from "../src/services/subtitle-search.ts";
import { vocabularyEnds, multilingualText } from "./bench-search/text.mjs";
import { alternatives, indexWalks, searchReport } from "./bench-search/report.mjs";
import { benchRun, loadSubtitles, shardNames } from "./shard-sizes/run.mjs";

const { values } = parseArgs({
  options: {
    subtitles: { type: "string", default: "2000000" },
    containers: { type: "string", default: "2000" },
    keep: { type: "boolean" },
    "no-index": { type: "boolean" },
    check: { type: "boolean" },
  },
});
const target = Number(values.subtitles);
const containers = Number(values.containers);
if (!Number.isInteger(target) || target < 1 || !Number.isInteger(containers) || containers < 1) {
  console.error("usage: bench-search.mjs [--subtitles N] [--containers N] [--keep] [--no-index] [--check]");
  process.exit(2);
}
const withIndex = !values["no-index"];
const check = Boolean(values.check);
if (check && !withIndex) {
  console.error("--check measures the index: it cannot go with --no-index");
  process.exit(2);
}
const INDEX_TRIGGERS = ["subtitle_search_insert", "subtitle_search_update", "subtitle_search_delete"];
const SAMPLE_EVERY = 499;

const { en, ko, zh } = vocabularyEnds;
/** The query kinds, each with the language its lines are in (for the `language=` variant). */
const QUERIES = [
  { kind: "commonest English word", q: en.commonest, language: "en" },
  { kind: "commonest English word, quoted (no prefix)", q: `"${en.commonest}"`, language: "en" },
  { kind: "rare English word", q: en.rare, language: "en" },
  { kind: "two English words", q: "you know", language: "en" },
  { kind: "English prefix", q: "mo", language: "en" },
  { kind: "1 Han character, very common", q: zh.commonest, language: "zh" },
  { kind: "1 Hangul syllable, very common", q: ko.commonest, language: "ko" },
  { kind: "2-syllable Korean word", q: "사람", language: "ko" },
  { kind: "3-character Chinese run", q: "不知道", language: "zh" },
  { kind: "no match", q: "zyzzyva", language: "en" },
];

/** A binding that remembers the last statement's SQL and parameters (for its query plan). */
function remembering(d1, last) {
  return {
    prepare(sql) {
      const stmt = d1.prepare(sql);
      last.sql = sql;
      last.params = [];
      return Object.assign(Object.create(stmt), {
        bind: (...params) => ((last.params = params), stmt.bind(...params)),
        all: () => stmt.all(),
      });
    },
    batch: (statements) => d1.batch(statements),
  };
}

/** Index form of a sample of each shard's lines against indexForm; the mismatches. */
async function checkForms(env, shards) {
  const mismatches = [];
  let checked = 0;
  for (const shard of shards) {
    const { results } = await env[shard].prepare(`SELECT id, text, search_text FROM subtitles WHERE id % ${SAMPLE_EVERY} = 0`).all();
    for (const row of results) {
      checked++;
      const expected = indexForm(row.text);
      if (expected !== row.search_text) mismatches.push({ shard, id: row.id, text: row.text, search_text: row.search_text, expected });
    }
  }
  return { checked, mismatches };
}

/** Bytes of text and of search_text per language on each shard. */
async function textStats(env, shards) {
  const out = {};
  for (const shard of shards) {
    out[shard] = (
      await env[shard]
        .prepare(
          `SELECT language, count(*) AS rows, sum(length(CAST(text AS BLOB))) AS text_bytes, sum(length(text)) AS chars,
             count(search_text) AS forms, coalesce(sum(length(CAST(search_text AS BLOB))), 0) AS form_bytes
           FROM subtitles GROUP BY language ORDER BY language`,
        )
        .all()
    ).results;
  }
  return out;
}

/** The service's shard query for `req` on `shard`: rows read, candidates returned, milliseconds, and its SQL. */
async function shardQuery(env, shard, req) {
  const parsed = parseQuery(req.q);
  if ("error" in parsed) throw new Error(`${req.q}: ${parsed.error}`);
  const stats = emptyStats();
  const last = {};
  const db = createShardDb(instrument(remembering(env[shard], last), stats));
  const rows = await subtitleMatchesQuery(db, {
    match: scopedMatch(parsed, req),
    candidates: SUBTITLE_SEARCH_CANDIDATES,
    viewerLanguage: req.viewerLanguage,
    leftOut: [],
  });
  return { rowsRead: stats.rowsRead, returned: rows.length, ms: stats.durationMs, sql: last.sql, params: last.params };
}

async function measureQueries(env, shards, container) {
  const measured = [];
  const variants = (query) => [
    { label: "", req: { q: query.q }, shards },
    { label: `language=${query.language}`, req: { q: query.q, language: query.language }, shards },
    { label: `container_id=${container.id}`, req: { q: query.q, containerId: container.id }, shards: [container.shard] },
  ];
  for (const query of QUERIES) {
    for (const v of variants(query)) {
      const per = {};
      for (const shard of v.shards) per[shard] = await shardQuery(env, shard, v.req);
      measured.push({ ...query, variant: v.label, per });
    }
  }
  const viewer = { q: en.commonest, viewerLanguage: "ko" };
  const per = {};
  for (const shard of shards) per[shard] = await shardQuery(env, shard, viewer);
  measured.push({ ...QUERIES[0], variant: "viewer_language=ko", per });
  return measured;
}

/** EXPLAIN QUERY PLAN of the shard query (as D1 runs it) for one request. */
async function queryPlan(env, shard, req) {
  const { sql, params } = await shardQuery(env, shard, req);
  const { results } = await env[shard]
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all();
  return { sql, params, plan: results.map((r) => `${"  ".repeat(r.parent ? 1 : 0)}${r.detail}`) };
}

const fmt = (n) => n.toLocaleString("en-US");
const { measured, files, seeded, seconds } = await benchRun({ prefix: "bench-search-", containers, keep: values.keep }, async (db, env) => {
  const shards = shardNames(env);
  if (!withIndex) for (const s of shards) for (const t of INDEX_TRIGGERS) await env[s].prepare(`DROP TRIGGER ${t}`).run();
  const load = await loadSubtitles(db, env, { target, model: multilingualText });
  const forms = await checkForms(env, shards);
  console.log(`index forms: ${fmt(forms.checked)} sampled lines checked against indexForm, ${forms.mismatches.length} differ`);
  for (const m of forms.mismatches.slice(0, 20)) console.error(JSON.stringify(m));
  const text = await textStats(env, shards);
  if (!withIndex) return { ...load, forms, text };

  // The container of the `container_id` variant: the picked one with the most videos on SHARD_1.
  const counts = new Map();
  for (const v of load.picked)
    counts.set(v.container_id, { id: v.container_id, shard: `SHARD_${v.shard}`, videos: (counts.get(v.container_id)?.videos ?? 0) + 1 });
  const container = [...counts.values()].filter((c) => c.shard === shards[0]).sort((a, b) => b.videos - a.videos)[0];
  const queries = await measureQueries(env, shards, container);
  const plan = await queryPlan(env, shards[0], { q: en.commonest, language: "en" });
  const walks = await indexWalks(env[shards[0]], en.commonest);
  if (check) return { ...load, forms, text, queries, plan, walks, container };
  const built = await alternatives(env[shards[0]], (line) => console.log(`${shards[0]}: ${line}`));
  return { ...load, forms, text, queries, plan, walks, built, container };
});
const run = `${cpus().length} × ${cpus()[0]?.model?.trim() ?? "cpu"}, Node ${process.version}; whole run ${seconds.toFixed(0)} s`;
console.log(`\n${searchReport({ ...measured, files, seeded, withIndex, run, args: values })}\n`);
if (measured.forms.mismatches.length) process.exitCode = 1;
if (check && !budgetsHold(measured)) process.exitCode = 1;

/** The row budgets of `--check`, one line each, as the other CI checks print them; whether all hold. */
function budgetsHold({ shards, loads, queries, walks }) {
  const results = [];
  const say = (ok, what) => (results.push(ok), console.log(`${ok ? "ok" : "not ok"} - ${what}`));
  const lines = shards.reduce((s, x) => s + loads[x].check.counts.subtitles, 0);
  say(lines >= target, `${fmt(lines)} subtitle lines over ${shards.length} shards (at least ${fmt(target)} asked)`);
  for (const m of queries) {
    const asked = shards.filter((s) => m.per[s]);
    const reads = asked.map((s) => m.per[s].rowsRead);
    const total = reads.reduce((a, b) => a + b, 0);
    const within = reads.every((r) => r <= SUBTITLE_SEARCH_ROW_BUDGET) && total <= SUBTITLE_SEARCH_ROW_BUDGET_IN_ALL;
    say(
      within,
      `${m.kind} (\`${m.q}\`${m.variant ? `, ${m.variant}` : ""}): ${asked.map((s, i) => `${s} ${reads[i]}`).join(", ")} rows read ` +
        `(at most ${SUBTITLE_SEARCH_ROW_BUDGET} a shard, ${SUBTITLE_SEARCH_ROW_BUDGET_IN_ALL} in all)`,
    );
  }
  // The control: the same rows_read counts a walk that does not stop, so a lost LIMIT would fail the lines above.
  const every = walks.rows.find((w) => w.label.startsWith("every match"));
  say(
    every.rowsRead > SUBTITLE_SEARCH_ROW_BUDGET,
    `control: a walk over every match of \`${walks.q}\` on ${shards[0]} reads ${fmt(every.rowsRead)} rows, over the budget`,
  );
  const failed = results.filter((ok) => !ok).length;
  console.log(`subtitle search budgets at scale: ${results.length - failed} passed, ${failed} failed`);
  return failed === 0;
}
