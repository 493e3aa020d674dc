// The alternatives `npm run bench:search` builds (scratch FTS5 tables on one shard) and the tables it prints
// (scripts/bench-search.mjs).
import { SUBTITLE_SEARCH_ROW_BUDGET as BUDGET } from "../../src/services/subtitle-search.ts";

/** Ids per statement of a scratch build (ids of a shard are dense from n·2^32 + 1). */
const CHUNK = 200_000;

/** Whether the character at `at` of `t` is Hiragana, Katakana, Han (the URO) or a Hangul syllable: SQL. */
const unspacedAt = (at) => {
  const cp = `unicode(substr(t, ${at}, 1))`;
  return `coalesce(${cp} BETWEEN 12352 AND 12543 OR ${cp} BETWEEN 19968 AND 40959 OR ${cp} BETWEEN 44032 AND 55203, 0)`;
};

/**
 * The bigram form of the lines that have an index form, in SQL: each pair of adjacent unspaced characters a token,
 * an unspaced character with no unspaced neighbour a token of its own, the rest (spaces, marks) dropped. Lines
 * without one (Latin) are indexed as written, as the real index does.
 */
const BIGRAM = `WITH RECURSIVE c(id, t, i, out) AS (
    SELECT id, text, 1, '' FROM subtitles WHERE search_text IS NOT NULL AND id BETWEEN ?1 AND ?2
    UNION ALL
    SELECT id, t, i + 1, out || CASE
      WHEN NOT ${unspacedAt("i")} THEN ''
      WHEN ${unspacedAt("i + 1")} THEN ' ' || substr(t, i, 2)
      WHEN i = 1 OR NOT ${unspacedAt("i - 1")} THEN ' ' || substr(t, i, 1)
      ELSE '' END
    FROM c WHERE i <= length(t))
  SELECT id, out FROM c WHERE i > length(t)`;

const SCRATCH = [
  {
    name: "bench_body",
    label: "the same tokenizer over the index form, body only (the index less its scope column)",
    tokenize: "unicode61 remove_diacritics 2",
    fill: ["SELECT id, coalesce(search_text, text) FROM subtitles WHERE id BETWEEN ?1 AND ?2"],
  },
  {
    name: "bench_trigram",
    label: "`trigram` tokenizer over `text` (cannot match a query of 1 or 2 characters)",
    tokenize: "trigram",
    fill: ["SELECT id, text FROM subtitles WHERE id BETWEEN ?1 AND ?2"],
  },
  {
    name: "bench_bigram",
    label: "bigram form of unspaced runs (unicode61; Latin lines as written)",
    tokenize: "unicode61 remove_diacritics 2",
    fill: ["SELECT id, text FROM subtitles WHERE search_text IS NULL AND id BETWEEN ?1 AND ?2", BIGRAM],
  },
];

/**
 * What D1's rows_read counts of the index walk for one word on `d1`: the service's shape (newest 60), every match
 * (count), and every match in FTS5's own bm25 order (what the service avoids); each with its time.
 */
export async function indexWalks(d1, word) {
  const match = `'"${word}"'`;
  const statements = [
    [
      "newest 60 matches (the service's subquery)",
      `SELECT rowid, bm25(subtitle_search, 1.0, 0.0) FROM subtitle_search WHERE subtitle_search MATCH ${match} ORDER BY rowid DESC LIMIT 60`,
    ],
    ["every match (count)", `SELECT count(*) AS n FROM subtitle_search WHERE subtitle_search MATCH ${match}`],
    [
      "best 60 by bm25 over every match (ORDER BY rank)",
      `SELECT rowid FROM subtitle_search WHERE subtitle_search MATCH ${match} ORDER BY rank LIMIT 60`,
    ],
  ];
  const rows = [];
  let matches = 0;
  for (const [label, sql] of statements) {
    await d1.prepare(sql).all();
    const t0 = performance.now();
    const res = await d1.prepare(sql).all();
    rows.push({ label, rowsRead: res.meta.rows_read, ms: performance.now() - t0 });
    if (res.results[0]?.n !== undefined) matches = res.results[0].n;
  }
  return { q: word, matches, rows };
}

/** Builds each scratch index on `d1` from its subtitles; the seconds each took. */
export async function alternatives(d1, log) {
  const { lo, hi } = await d1.prepare("SELECT min(id) AS lo, max(id) AS hi FROM subtitles").first();
  const built = [];
  for (const s of SCRATCH) {
    const t0 = performance.now();
    await d1
      .prepare(`CREATE VIRTUAL TABLE ${s.name} USING fts5(body, tokenize = '${s.tokenize}', content = '', contentless_delete = 1)`)
      .run();
    for (let from = lo; from <= hi; from += CHUNK) {
      for (const select of s.fill)
        await d1
          .prepare(`INSERT INTO ${s.name} (rowid, body) ${select}`)
          .bind(from, from + CHUNK - 1)
          .run();
    }
    const seconds = (performance.now() - t0) / 1000;
    log(`${s.name} built in ${seconds.toFixed(1)} s`);
    built.push({ ...s, seconds });
  }
  return built;
}

const fmt = (n) => Math.round(n).toLocaleString("en-US");
const mb = (bytes) => (bytes / 1e6).toFixed(1);
const times = (a, b) => `${(a / b).toFixed(2)}×`;
const row = (cells) => `| ${cells.join(" | ")} |`;
const head = (cells, align) => [row(cells), `|${align.map((a) => (a === "r" ? "--:" : "---")).join("|")}|`];

/** Bytes of the objects of `files[shard]` whose table name starts with `prefix` (an FTS5 table's shadow tables). */
const bytesOf = (files, shard, prefix) => files[shard].objects.filter((o) => o.tbl.startsWith(prefix)).reduce((s, o) => s + o.bytes, 0);

export function searchReport({ shards, loads, text, files, forms, queries, plan, walks, built, container, withIndex, run, args }) {
  const sum = (f) => shards.reduce((s, x) => s + f(x), 0);
  const cols = [...shards, "shards together"];
  const per = (f, total = sum(f)) => [...shards.map(f), total];
  const rows = (s) => loads[s].check.counts.subtitles;
  const textBytes = (s) => text[s].reduce((a, l) => a + l.text_bytes, 0);
  const formBytes = (s) => text[s].reduce((a, l) => a + l.form_bytes, 0);
  // The scratch tables of the alternatives (on the first shard) are not part of the shard as built.
  const size = (s) => files[s].pageBytes - bytesOf(files, s, "bench_");
  const index = (s) => bytesOf(files, s, "subtitle_search_");
  const rate = (s) => rows(s) / loads[s].loadSeconds;
  const command = `npm run bench:search -- --subtitles ${args.subtitles} --containers ${args.containers}${withIndex ? "" : " --no-index"}${args.check ? " --check" : ""}`;
  const out = [`\`${command}\`, ${new Date().toISOString().slice(0, 10)}; ${run}.`, ""];

  out.push(...head(["", ...cols], ["l", ...cols.map(() => "r")]));
  const lines = [
    ["subtitle rows", per(rows).map(fmt)],
    ["subtitle text, bytes (sum of length(text) in UTF-8)", per(textBytes).map(fmt)],
    ["database size, MB (page_count × page_size, scratch tables left out)", per(size).map(mb)],
  ];
  if (withIndex) {
    lines.push(
      ["index (subtitle_search shadow tables), bytes", per(index).map(fmt)],
      ["index / text", per(index, sum(index)).map((v, i) => times(v, i < shards.length ? textBytes(shards[i]) : sum(textBytes)))],
      ["search_text, bytes", per(formBytes).map(fmt)],
      ["database size without index and search_text, MB", per((s) => size(s) - index(s) - formBytes(s)).map(mb)],
      [
        "added bytes per subtitle row (index + search_text)",
        per((s) => (index(s) + formBytes(s)) / rows(s), (sum(index) + sum(formBytes)) / sum(rows)).map((v) => v.toFixed(1)),
      ],
    );
  } else {
    lines.push(["search_text, bytes", per(formBytes).map(fmt)]);
  }
  lines.push(
    [`load, s (${withIndex ? "index triggers on" : "index triggers dropped"})`, per((s) => loads[s].loadSeconds).map((v) => v.toFixed(1))],
    ["subtitle rows written per second", per(rate, sum(rows) / sum((s) => loads[s].loadSeconds)).map(fmt)],
    [
      "derived counts match the rows",
      per((s) => (loads[s].check.ok ? "yes" : "**no**"), shards.every((s) => loads[s].check.ok) ? "yes" : "**no**"),
    ],
  );
  out.push(...lines.map(([label, cells]) => row([label, ...cells])));
  out.push(
    "",
    `Index forms: ${fmt(forms.checked)} sampled lines (every id divisible by 499) equal indexForm(text); ${forms.mismatches.length} differ.`,
  );

  out.push(
    "",
    ...head(["language", "rows", "characters a line", "text bytes a line", "search_text bytes a line"], ["l", "r", "r", "r", "r"]),
  );
  const byLang = new Map();
  for (const s of shards)
    for (const l of text[s]) {
      const t = byLang.get(l.language) ?? { rows: 0, chars: 0, text: 0, form: 0 };
      byLang.set(l.language, { rows: t.rows + l.rows, chars: t.chars + l.chars, text: t.text + l.text_bytes, form: t.form + l.form_bytes });
    }
  for (const [lang, t] of byLang)
    out.push(row([lang, fmt(t.rows), (t.chars / t.rows).toFixed(1), (t.text / t.rows).toFixed(1), (t.form / t.rows).toFixed(1)]));
  if (!withIndex) return out.join("\n");

  out.push(
    "",
    ...head(
      ["query", "q", "narrowed by", ...shards.map((s) => `rows read ${s}`), "candidates returned", "within 400", "ms (slowest shard)"],
      ["l", "l", "l", ...shards.map(() => "r"), "r", "l", "r"],
    ),
  );
  for (const m of queries) {
    const read = shards.map((s) => (m.per[s] ? fmt(m.per[s].rowsRead) : "not asked"));
    const returned = shards
      .filter((s) => m.per[s])
      .map((s) => m.per[s].returned)
      .join(" / ");
    const ok = shards.every((s) => !m.per[s] || m.per[s].rowsRead <= BUDGET);
    const ms = Math.max(...shards.filter((s) => m.per[s]).map((s) => m.per[s].ms));
    out.push(row([m.kind, `\`${m.q}\``, m.variant || "—", ...read, returned, ok ? "yes" : "**no**", ms.toFixed(0)]));
  }
  out.push("", `\`container_id\` is container ${container.id} (${container.videos} videos, on ${container.shard}).`);

  const first = shards[0];
  // `--check` measures the bound only: no alternatives.
  if (!built) return [...out, ...planLines(plan)].join("\n");
  const bodyOnly = built.find((b) => b.name === "bench_body");
  out.push("", `Index designs over ${first}'s lines (${fmt(rows(first))} rows, ${fmt(textBytes(first))} bytes of text):`, "");
  out.push(...head(["index", "bytes", "× the text", "bytes a row", "built in, s"], ["l", "r", "r", "r", "r"]));
  const design = (label, bytes, seconds) =>
    row([label, fmt(bytes), times(bytes, textBytes(first)), (bytes / rows(first)).toFixed(1), seconds]);
  out.push(
    design(
      "as built: unicode61 over the index form, body and scope",
      index(first),
      `${loads[first].loadSeconds.toFixed(1)} (with the load)`,
    ),
  );
  for (const b of built) out.push(design(b.label, bytesOf(files, first, `${b.name}_`), b.seconds.toFixed(1)));
  out.push(
    "",
    `The scope column (c/v/l tokens) takes ${fmt(index(first) - bytesOf(files, first, `${bodyOnly.name}_`))} bytes of the index on ${first}.`,
  );

  out.push(
    "",
    `What D1 counts of the index walk alone (\`"${walks.q}"\` on ${first}, which matches ${fmt(walks.matches)} of its lines):`,
    "",
  );
  out.push(...head(["statement", "rows read", "ms"], ["l", "r", "r"]));
  for (const w of walks.rows) out.push(row([w.label, fmt(w.rowsRead), w.ms.toFixed(0)]));
  return [...out, ...planLines(plan)].join("\n");
}

const planLines = (plan) => [
  "",
  "Query plan of the shard query (`the`, language=en):",
  "```",
  plan.sql.replace(/\s+/g, " "),
  JSON.stringify(plan.params),
  ...plan.plan,
  "```",
];
