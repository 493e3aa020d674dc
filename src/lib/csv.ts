/**
 * CSV as RFC 4180 writes it (docs/api.md, "Glossary"): fields separated by commas, records by CRLF (LF and a lone CR
 * are read too), a field quoted with `"` when it holds a comma, a quote or a line break, a quote inside doubled. A
 * byte order mark before the first field is dropped. Used by the glossary's import and export.
 */

/** Where a CSV could not be read: its 1-based line and column (the field's number in its record), and why. */
export class CsvError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`line ${line}, column ${column}: ${reason}`);
  }
}

/** A record and the line it starts on (a quoted field may hold line breaks, so records and lines differ). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/**
 * Every record of `text`; a record that is one empty field (a blank line) is left out. `maxRecords` stops reading at
 * that many and throws, so a huge file is refused before it is all held.
 */
export function parseCsv(text: string, maxRecords = Number.POSITIVE_INFINITY): CsvRecord[] {
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let line = 1;
  let i = 0;
  while (i < s.length) {
    const start = line;
    const fields: string[] = [];
    for (;;) {
      let field = "";
      if (s[i] === '"') {
        const openLine = line;
        i++;
        for (;;) {
          if (i >= s.length) throw new CsvError(openLine, fields.length + 1, "a quoted field is never closed");
          const ch = s[i];
          if (ch === '"') {
            if (s[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (ch === "\n" || (ch === "\r" && s[i + 1] !== "\n")) line++;
          field += ch;
          i++;
        }
        if (i < s.length && s[i] !== "," && s[i] !== "\n" && s[i] !== "\r") {
          throw new CsvError(line, fields.length + 1, "text after a closing quote (a quote inside a quoted field is written twice)");
        }
      } else {
        while (i < s.length && s[i] !== "," && s[i] !== "\n" && s[i] !== "\r") {
          if (s[i] === '"')
            throw new CsvError(line, fields.length + 1, "a quote inside an unquoted field (quote the field and write the quote twice)");
          field += s[i++];
        }
      }
      fields.push(field);
      if (s[i] === ",") {
        i++;
        continue;
      }
      break;
    }
    // The record's end: CRLF, LF, a lone CR, or the end of the text.
    if (s[i] === "\r") i++;
    if (s[i] === "\n") i++;
    line++;
    if (fields.length === 1 && fields[0] === "") continue;
    if (records.length >= maxRecords) throw new CsvError(start, 1, `more than ${maxRecords} records`);
    records.push({ line: start, fields });
  }
  return records;
}

const NEEDS_QUOTES = /[",\r\n]/;

/** One field as RFC 4180 writes it. */
export const csvField = (value: string) =>
  NEEDS_QUOTES.test(value) || value.startsWith(" ") || value.endsWith(" ") ? `"${value.replace(/"/g, '""')}"` : value;

/** Records joined with CRLF, the last one ended too. */
export const formatCsv = (records: readonly (readonly string[])[]) => records.map((r) => `${r.map(csvField).join(",")}\r\n`).join("");
