/// <reference types="vite/client" />
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

/**
 * The database gets its triggers from migrations/, replayed in order; a reader gets them from src/db/triggers, where
 * each has its current definition once. This file keeps the two in step: the migrated test database (test/setup.ts
 * applies the real migrations before each file) must hold exactly the triggers of src/db/triggers, with the same SQL
 * up to whitespace and comments. What the triggers do is tested elsewhere (test/db/derived.test.ts,
 * test/db/facets.test.ts, and the counts, search and webhook tests); this file only checks where they are written.
 */

// Vite reads the files when it builds the test, so a new file in the folder is checked with no edit here.
const FILES = import.meta.glob<string>("../../src/db/triggers/*.sql", { query: "?raw", import: "default", eager: true });
const SHARD_FILES = import.meta.glob<string>("../../src/db/shard-triggers/*.sql", { query: "?raw", import: "default", eager: true });

/** Each kind of database with its folder (docs/decisions.md, "Shards"): the catalogue, and a shard (SHARD_1 stands for all). */
const KINDS = [
  { folder: "src/db/triggers", files: FILES, database: () => env.DB },
  { folder: "src/db/shard-triggers", files: SHARD_FILES, database: () => env.SHARD_1 },
];

type Token = { kind: "word" | "quoted" | "punct" | "space" | "comment"; text: string; at: number };

/** Enough of SQLite's lexer to skip comments and never look inside a string or a quoted name; the first match wins. */
const LEXEMES: [Token["kind"], RegExp][] = [
  ["space", /\s+/y],
  ["comment", /--[^\n]*/y],
  ["comment", /\/\*[\s\S]*?(\*\/|$)/y],
  ["quoted", /'(?:[^']|'')*'/y],
  ["quoted", /"(?:[^"]|"")*"/y],
  ["quoted", /`(?:[^`]|``)*`/y],
  ["quoted", /\[[^\]]*\]/y],
  ["word", /[\w$]+/y],
];

function lexeme(sql: string, at: number): [Token["kind"], string] {
  for (const [kind, re] of LEXEMES) {
    re.lastIndex = at;
    const match = re.exec(sql);
    if (match) return [kind, match[0]];
  }
  return ["punct", sql[at]];
}

function tokens(sql: string): Token[] {
  const out: Token[] = [];
  for (let at = 0; at < sql.length;) {
    const [kind, text] = lexeme(sql, at);
    out.push({ kind, text, at });
    at += text.length;
  }
  return out;
}

/** Whitespace and comments dropped; a space kept only where two words or names would otherwise run together. */
function normalise(sql: string) {
  const kept = tokens(sql).filter((t) => t.kind !== "space" && t.kind !== "comment");
  return kept.map((t, i) => (i > 0 && t.kind !== "punct" && kept[i - 1].kind !== "punct" ? " " : "") + t.text).join("");
}

type Definition = { name: string; sql: string; file: string; why: boolean };

/**
 * The CREATE TRIGGER statements of one file, from CREATE to its END. A CASE … END (in the WHEN clause or the body)
 * is told apart from the trigger's own END by counting CASEs. Anything else in the file is reported as a stray.
 */
function definitions(file: string, sql: string): { found: Definition[]; strays: string[] } {
  const list = tokens(sql);
  const found: Definition[] = [];
  const strays: string[] = [];
  const word = (i: number, w: string) => list[i]?.kind === "word" && list[i].text.toUpperCase() === w;
  const next = (i: number) => {
    let j = i + 1;
    while (list[j] && (list[j].kind === "space" || list[j].kind === "comment")) j++;
    return j;
  };
  for (let i = 0; i < list.length; i++) {
    const t = list[i];
    if (t.kind === "space" || t.kind === "comment" || (t.kind === "punct" && t.text === ";")) continue;
    if (!(word(i, "CREATE") && word(next(i), "TRIGGER"))) {
      strays.push(`${file}: "${sql.slice(t.at).split("\n")[0].slice(0, 40)}…" is not a CREATE TRIGGER`);
      while (i < list.length && list[i].text !== ";") i++;
      continue;
    }
    const nameToken = list[next(next(i))];
    let cases = 0;
    let body = false;
    let j = i;
    for (; j < list.length; j++) {
      if (word(j, "CASE")) cases++;
      else if (word(j, "BEGIN")) body = true;
      else if (word(j, "END") && cases > 0) cases--;
      else if (word(j, "END") && body) break;
    }
    if (j >= list.length) {
      strays.push(`${file}: ${nameToken?.text} has no END`);
      break;
    }
    // The comment lines right above the CREATE, nearest first.
    const above = sql.slice(0, t.at).trimEnd().split("\n").reverse();
    const commentEnds = above.findIndex((line) => !line.startsWith("--"));
    const why = above.slice(0, commentEnds < 0 ? above.length : commentEnds).some((line) => line.includes("Why a trigger:"));
    found.push({ name: nameToken.text.replace(/^[`"[]|[`"\]]$/g, ""), sql: sql.slice(t.at, list[j].at + 3), file, why });
    i = j;
  }
  return { found, strays };
}

/** Where two normalised definitions part, with a little context on each side. */
function firstDifference(a: string, b: string) {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const around = (s: string) => `…${s.slice(Math.max(0, i - 40), i + 60)}…`;
  return { source: around(a), database: around(b) };
}

describe.each(KINDS)("triggers: $folder and the migrated database hold the same set", ({ folder, files, database: db }) => {
  const parsed = Object.entries(files).map(([path, sql]) => definitions(path.replace(/^.*\/src\//, "src/"), sql));
  const source = parsed.flatMap((p) => p.found);

  it(`every file in ${folder} is trigger definitions, each once and each with its reason`, () => {
    expect(Object.keys(files).length).toBeGreaterThan(0);
    const names = source.map((d) => d.name);
    expect([
      ...parsed.flatMap((p) => p.strays),
      ...names.filter((n, i) => names.indexOf(n) !== i).map((n) => `${n} is defined twice`),
      ...source.filter((d) => !d.why).map((d) => `${d.file}: ${d.name} has no "Why a trigger:" comment line above it`),
    ]).toEqual([]);
  });

  it("names and SQL agree, whitespace and comments aside", async () => {
    const { results } = await db().prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name").all<{
      name: string;
      sql: string;
    }>();
    const database = new Map(results.map((r) => [r.name, normalise(r.sql)]));
    const written = new Map(source.map((d) => [d.name, d]));
    const diff = {
      missing: [...written.values()]
        .filter((d) => !database.has(d.name))
        .map((d) => `${d.name} (${d.file}): no migration creates it, or a later one drops it`),
      extra: [...database.keys()]
        .filter((name) => !written.has(name))
        .map((name) => `${name}: the migrations create it; add its current definition to ${folder}`),
      different: [...written.values()]
        .filter((d) => database.has(d.name) && normalise(d.sql) !== database.get(d.name))
        .map((d) => ({ trigger: d.name, file: d.file, ...firstDifference(normalise(d.sql), database.get(d.name)!) })),
    };
    expect(diff).toEqual({ missing: [], extra: [], different: [] });
    // A vacuous pass (an empty database, a glob that matched nothing) would prove nothing.
    expect(database.size).toBe(written.size);
    expect(database.size).toBeGreaterThan(0);
  });
});

describe("triggers: the comparison", () => {
  it("the normal form ignores layout and comments only: a changed word or string still differs", () => {
    const a = "CREATE TRIGGER t AFTER INSERT ON x BEGIN\n  UPDATE y SET n = n + 1 WHERE k = 'a b'; -- note\nEND";
    expect(normalise(a)).toBe(normalise("CREATE TRIGGER t AFTER INSERT ON x BEGIN UPDATE y SET n=n+1 WHERE k='a b';END"));
    expect(normalise(a)).not.toBe(normalise(a.replace("'a b'", "'a  b'")));
    expect(normalise(a)).not.toBe(normalise(a.replace("n + 1", "n + 2")));
    expect(normalise(a)).not.toBe(normalise(a.replace("AFTER INSERT", "AFTER DELETE")));
  });
});
