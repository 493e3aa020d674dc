// A series' glossary as CSV (src/routes/v4/glossary.ts, src/services/glossary-csv.ts; docs/api.md, "Glossary"): RFC 4180
// in and out, formula-looking cells, malformed rows named by line and column with nothing written, the 2,000 limit.
import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { glossaryTerms } from "../../src/db/schema";
import { ORIGIN, api, db, errorBody, signedInUser, staffManagerOther, type User } from "../helpers";
import { createContainer } from "../helpers/catalogue";

let staff: User;
let manager: User;
let other: User;
let otherManager: User;

beforeAll(async () => {
  ({ staff, manager, other } = await staffManagerOther());
  otherManager = await signedInUser();
  await createContainer({ title: "Another CSV series", managers: [otherManager.user.id] });
});

const series = () => createContainer({ title: "CSV series", managers: [manager.user.id] });
const csvPath = (c: string) => `/v4/containers/${c}/glossary.csv`;
/** `token` null: sent without one. */
const upload = (c: string, body: string, mode = "merge", token: string | null = manager.token) =>
  api(csvPath(c), { method: "POST", token: token ?? undefined, query: { mode }, body, headers: { "content-type": "text/csv" } });
const exported = async (c: string) => {
  const res = await SELF.fetch(`${ORIGIN}${csvPath(c)}`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  return res.text();
};
const stored = (containerId: number) =>
  db()
    .select({
      term: glossaryTerms.term,
      language: glossaryTerms.language,
      status: glossaryTerms.status,
      note: glossaryTerms.note,
      caseSensitive: glossaryTerms.caseSensitive,
      translations: glossaryTerms.translations,
    })
    .from(glossaryTerms)
    .where(eq(glossaryTerms.containerId, containerId))
    .orderBy(glossaryTerms.id)
    .all();

const HEADER = "term,language,status,note,case_sensitive";

describe("CSV round trip", () => {
  it("reads quotes, commas, line breaks, a BOM, CRLF and LF; writes RFC 4180 with formula cells protected; export → replace → the same export", async () => {
    const c = await series();
    const file =
      "\uFEFF" +
      `${HEADER},en,es\r\n` +
      `윤세리,ko,preferred,"The heiress, CEO of ""Seri's Choice""",false,Yoon Se-ri,Yoon Se-ri\r\n` +
      `리정혁,ko,,"Captain\nof the North",TRUE,Ri Jeong-hyeok,\n` +
      `\n` +
      `=SUM(A1:A2),en,forbidden,+1 555,0,@cmd,-x\n` +
      `iPhone,ko,do_not_translate,,1,,`;
    const res = await upload(c.wireId, file);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ mode: "merge", rows: 4, created: 4, updated: 0, terms: 4 });
    expect(await stored(c.id)).toEqual([
      {
        term: "윤세리",
        language: "ko",
        status: "preferred",
        note: `The heiress, CEO of "Seri's Choice"`,
        caseSensitive: false,
        translations: { en: "Yoon Se-ri", es: "Yoon Se-ri" },
      },
      {
        term: "리정혁",
        language: "ko",
        status: "preferred",
        note: "Captain\nof the North",
        caseSensitive: true,
        translations: { en: "Ri Jeong-hyeok" },
      },
      {
        term: "=SUM(A1:A2)",
        language: "en",
        status: "forbidden",
        note: "+1 555",
        caseSensitive: false,
        translations: { en: "@cmd", es: "-x" },
      },
      { term: "iPhone", language: "ko", status: "do_not_translate", note: "", caseSensitive: true, translations: {} },
    ]);
    const first = await exported(c.wireId);
    expect(first).toBe(
      `${HEADER},en,es\r\n` +
        `윤세리,ko,preferred,"The heiress, CEO of ""Seri's Choice""",false,Yoon Se-ri,Yoon Se-ri\r\n` +
        `리정혁,ko,preferred,"Captain\nof the North",true,Ri Jeong-hyeok,\r\n` +
        `'=SUM(A1:A2),en,forbidden,'+1 555,false,'@cmd,'-x\r\n` +
        `iPhone,ko,do_not_translate,,true,,\r\n`,
    );
    const before = await stored(c.id);
    const again = await upload(c.wireId, first, "replace");
    expect(await again.json()).toEqual({ mode: "replace", rows: 4, created: 4, updated: 0, terms: 4 });
    expect(await stored(c.id)).toEqual(before);
    expect(await exported(c.wireId)).toBe(first);
  });

  it("merge rewrites a term already there and adds the others; replace drops the rest", async () => {
    const c = await series();
    await upload(c.wireId, `${HEADER},en\na,en,,,,A\nb,en,,,,B\n`);
    const merged = await upload(c.wireId, `${HEADER},fr\nb,en,,note,,Bé\nc,en,,,,C\n`);
    expect(await merged.json()).toEqual({ mode: "merge", rows: 2, created: 1, updated: 1, terms: 3 });
    expect((await stored(c.id)).map((t) => [t.term, t.note, t.translations])).toEqual([
      ["a", "", { en: "A" }],
      ["b", "note", { fr: "Bé" }],
      ["c", "", { fr: "C" }],
    ]);
    expect(await (await upload(c.wireId, `${HEADER}\nz,en,,,\n`, "replace")).json()).toMatchObject({ terms: 1 });
    expect((await stored(c.id)).map((t) => t.term)).toEqual(["z"]);
    expect(await (await upload(c.wireId, `${HEADER}\r\n`, "replace")).json()).toMatchObject({ rows: 0, terms: 0 });
    expect(await stored(c.id)).toEqual([]);
    expect(await exported(c.wireId)).toBe(`${HEADER}\r\n`);
  });

  it("the export follows a write at once (edge cache)", async () => {
    const c = await series();
    expect(await exported(c.wireId)).toBe(`${HEADER}\r\n`);
    expect(await exported(c.wireId)).toBe(`${HEADER}\r\n`);
    await upload(c.wireId, `${HEADER}\nnew,en,,,\n`);
    expect(await exported(c.wireId)).toBe(`${HEADER}\r\nnew,en,preferred,,false\r\n`);
  });
});

describe("malformed files: a 400 naming line and column, nothing written", () => {
  const cases: [string, string, string][] = [
    ["a quoted field never closed", `${HEADER}\nok,en,,,\n"open,en,,,\n`, "line 3, column 1"],
    ["text after a closing quote", `${HEADER}\n"a"b,en,,,\n`, "line 2, column 1"],
    ["a quote inside an unquoted field", `${HEADER}\nok,en,,,\na"b,en,,,\n`, "line 3, column 1"],
    ["a bad status", `${HEADER}\nok,en,,,\nx,en,obsolete,,\n`, "line 3, column 3 (status)"],
    ["a bad language", `${HEADER}\nx,english,,,\n`, "line 2, column 2 (language)"],
    ["a bad flag", `${HEADER}\nx,en,,,maybe\n`, "line 2, column 5 (case_sensitive)"],
    ["too few fields", `${HEADER},en\nx,en,,,\n`, "line 2, column 6 (en)"],
    ["too many fields", `${HEADER}\nx,en,,,,extra\n`, "line 2, column 6"],
    ["an empty term", `${HEADER}\n  ,en,,,\n`, "line 2, column 1 (term)"],
    ["a term of 201 characters", `${HEADER}\n${"x".repeat(201)},en,,,\n`, "line 2, column 1 (term)"],
    ["a note of 1001 characters", `${HEADER}\nx,en,,${"n".repeat(1001)},\n`, "line 2, column 4 (note)"],
    ["a header without the fixed columns", `term,language\nx,en\n`, "line 1, column 3"],
    ["a translation column that is not a language", `${HEADER},english\nx,en,,,,y\n`, "line 1, column 6 (english)"],
    ["a translation column twice", `${HEADER},en,EN\nx,en,,,,y,z\n`, "line 1, column 7 (en)"],
    ["the same term twice", `${HEADER}\nx,en,,,\ny,en,,,\nx,en,,,\n`, "line 4, column 1 (term): the same term and language as line 2"],
    ["a line break inside a quoted field moves the line count", `${HEADER}\n"a\nb",en,,,\nx,en,bad,,\n`, "line 4, column 3 (status)"],
    ["a control character", `${HEADER}\nx\u0001,en,,,\n`, "line 2, column 1 (term)"],
  ];
  it.each(cases)("%s", async (_, body, where) => {
    const c = await series();
    await upload(c.wireId, `${HEADER}\nkept,en,,,\n`);
    for (const mode of ["merge", "replace"]) {
      const res = await upload(c.wireId, body, mode);
      expect(res.status).toBe(400);
      const err = await errorBody(res);
      expect(err.details?.[0].field).toBe("csv");
      expect(err.details?.[0].message).toContain(where);
      expect((await stored(c.id)).map((t) => t.term)).toEqual(["kept"]);
    }
  });

  it("an empty body and a missing or unknown mode are 400s naming them", async () => {
    const c = await series();
    const empty = await upload(c.wireId, "");
    expect([empty.status, (await errorBody(empty)).details?.[0].field]).toEqual([400, "csv"]);
    const noMode = await api(csvPath(c.wireId), { method: "POST", token: manager.token, body: `${HEADER}\n` });
    expect([noMode.status, (await errorBody(noMode)).details?.[0].field]).toEqual([400, "mode"]);
    const badMode = await upload(c.wireId, `${HEADER}\n`, "append");
    expect([badMode.status, (await errorBody(badMode)).details?.[0].field]).toEqual([400, "mode"]);
  });
});

describe("limits", () => {
  const rows = (n: number, prefix = "t") => Array.from({ length: n }, (_, i) => `${prefix}${i},en,,,`).join("\n");

  it("10,000 rows are refused with the limit named, and nothing is written", { timeout: 60_000 }, async () => {
    const c = await series();
    const res = await upload(c.wireId, `${HEADER}\n${rows(10_000)}\n`, "replace");
    expect(res.status).toBe(400);
    expect((await errorBody(res)).details?.[0].message).toContain("at most 2000 glossary terms");
    expect(await stored(c.id)).toEqual([]);
  });

  it("2,000 rows are one import; a merge past the limit is refused and writes nothing", { timeout: 60_000 }, async () => {
    const c = await series();
    const res = await upload(c.wireId, `${HEADER}\n${rows(2000)}\n`, "replace");
    expect(await res.json()).toEqual({ mode: "replace", rows: 2000, created: 2000, updated: 0, terms: 2000 });
    expect((await stored(c.id)).length).toBe(2000);
    const over = await upload(c.wireId, `${HEADER}\nt0,en,,changed,\nnew,en,,,\n`);
    expect(over.status).toBe(400);
    expect((await errorBody(over)).details?.[0].message).toContain("at most 2000 glossary terms: it has 2000 and the file adds 1 new ones");
    const [first] = await stored(c.id);
    expect(first.note).toBe("");
    // Rewriting terms already there adds none, so it passes at the limit.
    expect(await (await upload(c.wireId, `${HEADER}\nt0,en,,changed,\n`)).json()).toMatchObject({ created: 0, updated: 1, terms: 2000 });
    const exportedCsv = await exported(c.wireId);
    expect(exportedCsv.split("\r\n").length).toBe(2002);
  });
});

describe("who may import and export", () => {
  it("anonymous 401, another user 403, a manager of another series 403, staff 200; a hidden series' export is a 404 to others", async () => {
    const c = await series();
    const body = `${HEADER}\nx,en,,,\n`;
    expect((await upload(c.wireId, body, "merge", null)).status).toBe(401);
    expect((await upload(c.wireId, body, "merge", other.token)).status).toBe(403);
    expect((await upload(c.wireId, body, "merge", otherManager.token)).status).toBe(403);
    expect(await stored(c.id)).toEqual([]);
    expect((await upload(c.wireId, body, "merge", staff.token)).status).toBe(200);
    const hidden = await createContainer({ title: "Hidden CSV", state: "pending", managers: [manager.user.id] });
    expect((await SELF.fetch(`${ORIGIN}${csvPath(hidden.wireId)}`)).status).toBe(404);
    expect((await api(csvPath(hidden.wireId), { token: manager.token })).status).toBe(200);
    expect((await upload(hidden.wireId, body, "merge", other.token)).status).toBe(404);
  });
});
