import type { GlossaryTermValues } from "../db/queries/glossary";
import type { GlossaryTermRow } from "../db/schema";
import { GLOSSARY_STATUSES, type GlossaryStatus } from "../domain/glossary-match";
import { CsvError, formatCsv, parseCsv } from "../lib/csv";
import { ApiError } from "../lib/errors";

/** The limits of a series' glossary (docs/api.md, "Glossary"). */
export const GLOSSARY_MAX_TERMS = 2000;
export const TERM_MAX_CHARS = 200;
export const NOTE_MAX_CHARS = 1000;
export const TRANSLATION_MAX_CHARS = 200;
export const TRANSLATIONS_MAX_LANGUAGES = 50;
/** The largest CSV import, in bytes. */
export const GLOSSARY_CSV_LIMIT = 2 * 1024 * 1024;

/** The fixed columns of the CSV, in order; one column per translation language follows. */
export const CSV_COLUMNS = ["term", "language", "status", "note", "case_sensitive"] as const;

const LANGUAGE_RE = /^[a-z]{2}(-[a-z]{2})?$/;
export const isLanguageCode = (code: string) => LANGUAGE_RE.test(code);
const chars = (s: string) => [...s].length;

/**
 * A cell a spreadsheet would run as a formula (OWASP, "CSV Injection"): one that starts with `=`, `+`, `-`, `@`, a tab or
 * a carriage return. The export writes it after a `'`, which spreadsheets show as text; the import reads `'` followed
 * by one of these as that escape and drops it, so an export imported again gives the same terms.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const protect = (cell: string) => (FORMULA_START.test(cell) ? `'${cell}` : cell);
const unprotect = (cell: string) => (cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell);

/** The glossary as CSV: the fixed columns, then every language any term has a translation into, alphabetically. */
export function glossaryCsv(terms: readonly GlossaryTermRow[]): string {
  const languages = [...new Set(terms.flatMap((t) => Object.keys(t.translations)))].sort();
  const records = terms.map((t) =>
    [t.term, t.language, t.status, t.note, t.caseSensitive ? "true" : "false", ...languages.map((l) => t.translations[l] ?? "")].map(
      protect,
    ),
  );
  return formatCsv([[...CSV_COLUMNS, ...languages], ...records]);
}

const invalidAt = (line: number, column: number, name: string, reason: string) =>
  ApiError.field("csv", `line ${line}, column ${column} (${name}): ${reason}`);

/** C0 controls other than tab, line feed and carriage return. */
const isControl = (ch: string) => {
  const code = ch.charCodeAt(0);
  return code < 0x20 && ch !== "\t" && ch !== "\n" && ch !== "\r";
};
/** Whether a term, note or translation is free of control characters (the JSON contracts and the CSV import alike). */
export const withoutControls = (value: string) => ![...value].some(isControl);
export const CONTROLS_REFUSED = "control characters are not allowed";

/** A text field's problem, or undefined: `max` characters at most, no control characters but line breaks and tabs. */
function textProblem(value: string, max: number, required: boolean) {
  if (required && !value) return "required";
  if (chars(value) > max) return `at most ${max} characters`;
  if (!withoutControls(value)) return CONTROLS_REFUSED;
  return undefined;
}

const BOOLEAN: Record<string, boolean> = { "": false, true: true, false: false, "1": true, "0": false, yes: true, no: false };

/**
 * The terms of a CSV import, each row checked: a 400 names the first malformed one by line and column. Cells are kept as
 * text (nothing is evaluated; a `'` the export put before a formula-looking cell is dropped). A term may appear once per
 * language in a file.
 */
export function readGlossaryCsv(text: string): GlossaryTermValues[] {
  let records;
  try {
    records = parseCsv(text, GLOSSARY_MAX_TERMS + 1);
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    if (err.reason.startsWith("more than")) {
      throw ApiError.field(
        "csv",
        `a series holds at most ${GLOSSARY_MAX_TERMS} glossary terms: the file has more than ${GLOSSARY_MAX_TERMS} rows`,
      );
    }
    throw ApiError.field("csv", err.message);
  }
  const [header, ...rows] = records;
  if (!header) throw ApiError.field("csv", `the file is empty: its first line names the columns (${CSV_COLUMNS.join(",")},<language>...)`);
  const names = header.fields.map((f) => f.trim().toLowerCase());
  CSV_COLUMNS.forEach((name, i) => {
    if (names[i] !== name)
      throw invalidAt(header.line, i + 1, names[i] ?? "", `the columns are ${CSV_COLUMNS.join(",")}, then one per language`);
  });
  const languages = names.slice(CSV_COLUMNS.length);
  languages.forEach((l, i) => {
    const column = CSV_COLUMNS.length + i + 1;
    if (!isLanguageCode(l)) throw invalidAt(header.line, column, l, "a translation column is a language code (en, pt-br)");
    if (languages.indexOf(l) !== i) throw invalidAt(header.line, column, l, "this language's column is already there");
  });
  if (languages.length > TRANSLATIONS_MAX_LANGUAGES) {
    throw invalidAt(
      header.line,
      CSV_COLUMNS.length + TRANSLATIONS_MAX_LANGUAGES + 1,
      languages[TRANSLATIONS_MAX_LANGUAGES],
      `at most ${TRANSLATIONS_MAX_LANGUAGES} translation languages`,
    );
  }
  const seen = new Map<string, number>();
  return rows.map(({ line, fields }) => {
    if (fields.length !== names.length) {
      throw invalidAt(
        line,
        Math.min(fields.length, names.length) + 1,
        names[fields.length] ?? "",
        `expected ${names.length} fields, found ${fields.length}`,
      );
    }
    const cell = (i: number) => unprotect(fields[i]);
    const check = (i: number, problem: string | undefined) => {
      if (problem) throw invalidAt(line, i + 1, names[i], problem);
    };
    const term = cell(0).trim();
    check(0, textProblem(term, TERM_MAX_CHARS, true));
    const language = cell(1).trim().toLowerCase();
    check(1, isLanguageCode(language) ? undefined : "a language code (ko, en, pt-br)");
    const status = (cell(2).trim().toLowerCase() || "preferred") as GlossaryStatus;
    check(2, GLOSSARY_STATUSES.includes(status) ? undefined : `one of ${GLOSSARY_STATUSES.join(", ")} (empty is preferred)`);
    const note = cell(3);
    check(3, textProblem(note, NOTE_MAX_CHARS, false));
    const flag = BOOLEAN[cell(4).trim().toLowerCase()];
    check(4, flag === undefined ? "true or false (empty is false)" : undefined);
    const translations: Record<string, string> = {};
    languages.forEach((l, j) => {
      const i = CSV_COLUMNS.length + j;
      const value = cell(i).trim();
      check(i, textProblem(value, TRANSLATION_MAX_CHARS, false));
      if (value) translations[l] = value;
    });
    const key = `${language}\u0000${term}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) throw invalidAt(line, 1, "term", `the same term and language as line ${earlier}`);
    seen.set(key, line);
    return { term, language, status, note, caseSensitive: flag, translations };
  });
}
