// The rules of src/domain/search-text.ts against the real FTS5 tokenizer (docs/decisions.md, "Subtitle search"): a
// scratch table with the index's tokenizer on this file's D1, the index form of a golden set of lines in it, and
// every golden query answering exactly its rows. Raw SQL is fine here: it tests the tokenizer, not the app.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { highlights } from "../../src/domain/search-highlight";
import { foldText, indexForm, parseQuery, tokenize, type ParsedQuery } from "../../src/domain/search-text";

const db = (env as unknown as { DB: D1Database }).DB;

const LINES = [
  "Good morning, everyone.", // 1
  "The weather is lovely today.",
  "I love 東京 tower at night",
  "사랑해요",
  "왕의 비밀 정원", // 5
  "우리는 서로 사랑했다",
  "東京に行く",
  "猫が好きです。",
  "上海ラブストーリー",
  "ｶﾀｶﾅのﾃｽﾄ", // 10
  "用户登录",
  "上海爱情故事",
  "我爱你，中国",
  "Café con leche, por favor.",
  "EL ÁRBOL ESTÁ AQUÍ", // 15
  "¿Dónde está la biblioteca?",
  "Où est la bibliothèque ?",
  "Die Straße ist lang",
  "DIE STRASSE",
  "كَتَبَ الوَلَدُ الدَّرْسَ", // 20
  "مرحبا بالعالم",
  "שלום עולם",
  "ＴＯＫＹＯ ＴＯＷＥＲ",
  "ﬁnal ﬁx",
  "NEAR(a b) OR c", // 25
  "The weathered sign",
  "cafe\u0301 au lait",
  "İstanbul'da",
  "Σίσυφος",
  "😀 emoji before 사랑 after", // 30
  "ภาษาไทย ง่ายมาก",
  `${"사랑".normalize("NFD")} 노래`,
];

/** Each query and the rows (1-based, as LINES) it must answer, no more. */
const GOLDEN: Array<[string, number[]]> = [
  ["사랑", [4, 6, 30, 32]],
  ["노래", [32]],
  ["사랑해", [4]],
  ["왕", [5]],
  ["東京", [3, 7]],
  ["京に", [7]],
  ["猫", [8]],
  ["好き", [8]],
  ["ラブ", [9]],
  ["ﾗﾌﾞ", [9]],
  ["カタカナ", [10]],
  ["用户", [11]],
  ["上海", [9, 12]],
  ["爱情", [12]],
  ["爱", [12, 13]],
  ["中国", [13]],
  ["cafe", [14, 27]],
  ["CAFÉ", [14, 27]],
  ["árbol", [15]],
  ["arbol esta", [15]],
  ["donde", [16]],
  ["bibliot", [16, 17]],
  ["strasse", [18, 19]],
  ["straße", [18, 19]],
  ["الولد", [20]],
  ["كتب", [20]],
  ["الدَّرْس", [20]],
  ["بالعالم", [21]],
  ["עולם", [22]],
  ["tokyo", [23]],
  ["ＴＯＷＥＲ", [3, 23]],
  ["the weath", [2, 26]],
  ['"the weather"', [2]],
  ["final", [24]],
  ["fix", [24]],
  ["good morning", [1]],
  ['"good morning"', [1]],
  ['"morning good"', []],
  ["NEAR(a b)", [25]],
  ["a OR c", [25]],
  ["istanbul", [28]],
  ["σισυφος", [29]],
  ["I love 東京", [3]],
  ["東京tower", [3]],
  ["emoji 사랑", [30]],
  ["ง่าย", [31]],
  ["xyz", []],
];

function parsed(q: string): ParsedQuery {
  const out = parseQuery(q);
  if ("error" in out) throw new Error(`${JSON.stringify(q)} refused: ${out.error}`);
  return out;
}

/** The tokens the index holds for each row, in order, from the tokenizer itself. */
async function indexedTokens(): Promise<Map<number, string[]>> {
  const { results } = await db.prepare("SELECT doc, term FROM scratch_terms ORDER BY doc, offset").all<{ doc: number; term: string }>();
  const out = new Map<number, string[]>();
  for (const { doc, term } of results) out.set(doc, [...(out.get(doc) ?? []), term]);
  return out;
}

async function fill(texts: readonly string[], firstRowid = 1) {
  await db.prepare("DELETE FROM scratch").run();
  for (let i = 0; i < texts.length; i += 100) {
    const stmt = db.prepare("INSERT INTO scratch (rowid, body) VALUES (?, ?)");
    await db.batch(texts.slice(i, i + 100).map((t, k) => stmt.bind(firstRowid + i + k, indexForm(t) ?? t)));
  }
}

const jsTokens = (text: string) => tokenize(foldText(text).chars).map((t) => t.text);

beforeAll(async () => {
  await db
    .prepare(
      "CREATE VIRTUAL TABLE scratch USING fts5(body, tokenize = 'unicode61 remove_diacritics 2', content='', contentless_delete=1, prefix='1 2')",
    )
    .run();
  await db.prepare("CREATE VIRTUAL TABLE scratch_terms USING fts5vocab(scratch, 'instance')").run();
});

// The shared D1 gets its schema back (test/setup.ts compares it with its snapshot).
afterAll(async () => {
  await db.prepare("DROP TABLE scratch_terms").run();
  await db.prepare("DROP TABLE scratch").run();
});

describe("FTS5 with the index form", () => {
  it("answers every golden query with exactly its rows, through parseQuery's MATCH", async () => {
    await fill(LINES);
    const wrong: string[] = [];
    for (const [q, rows] of GOLDEN) {
      const { results } = await db
        .prepare("SELECT rowid FROM scratch WHERE scratch MATCH ? ORDER BY rowid")
        .bind(parsed(q).match)
        .all<{ rowid: number }>();
      const got = results.map((r) => r.rowid);
      if (JSON.stringify(got) !== JSON.stringify(rows)) wrong.push(`${q}: ${JSON.stringify(got)}, not ${JSON.stringify(rows)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("holds, for every golden line, the tokens the highlighter reads in the original", async () => {
    await fill(LINES);
    const held = await indexedTokens();
    LINES.forEach((line, i) => expect(held.get(i + 1) ?? [], line).toEqual(jsTokens(line)));
  });

  it("agrees with highlights: a row matches exactly when every term of the query is marked in it", () => {
    for (const [q, rows] of GOLDEN) {
      const query = parsed(q);
      LINES.forEach((line, i) => {
        const everyTerm = query.terms.every((term) => highlights(line, { match: "", terms: [term] }).length > 0);
        expect(everyTerm, `${q} in ${line}`).toBe(rows.includes(i + 1));
      });
    }
  });

  it("reads every letter, mark, symbol and unassigned code point of Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari, Thai, Hangul jamo, kana and the width forms as the highlighter does", async () => {
    const blocks = [
      [0xc0, 0x24f],
      [0x370, 0x52f],
      [0x1e00, 0x1fff],
      [0x2c60, 0x2c7f],
      [0xa720, 0xa7ff],
      [0x3040, 0x30ff],
      [0xff00, 0xffef],
      [0x0590, 0x06ff],
      [0x0900, 0x097f],
      [0x0e00, 0x0eff],
      [0x1100, 0x11ff],
      [0x3130, 0x318f],
      [0x2070, 0x209f],
      [0x2100, 0x214f],
      [0x2460, 0x24ff],
      [0xf900, 0xfaff],
    ];
    const letters: string[] = [];
    for (const [from, to] of blocks) {
      for (let cp = from; cp <= to; cp++) {
        const ch = String.fromCodePoint(cp);
        // A mark alone, and between two letters (where the tokenizer would split the word at most of them).
        if (/\p{M}/u.test(ch)) letters.push(ch, `a${ch}b`, `ب${ch}ت`);
        else if (/[\p{L}\p{N}\p{S}\p{Cn}]/u.test(ch)) letters.push(ch, `x${ch}y`);
      }
    }
    expect(letters.length).toBeGreaterThan(5000);
    await fill(letters);
    const held = await indexedTokens();
    const differ = letters.filter((ch, i) => JSON.stringify(held.get(i + 1) ?? []) !== JSON.stringify(jsTokens(ch)));
    expect(differ).toEqual([]);
  });
});
