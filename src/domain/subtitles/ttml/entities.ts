/**
 * The lowest layer of the TTML reader: character references and the five XML entities expanded (no DTD is read), and
 * the notes every layer above (the XML scanner, styles, text) adds what it tolerated to. Kept apart from text.ts so
 * that the scanner (xml.ts) does not import the styled text, which imports the styles, which import the scanner's
 * types (docs/decisions.md, "Subtitle formats").
 */

/** What a reader tolerated, counted per kind with the line of the first occurrence. */
export class Notes {
  private readonly seen = new Map<string, { count: number; line: number }>();
  /** Set by the parser: the line of a position, asked only for a kind's first occurrence. */
  locate: (pos: number) => number = () => 1;
  add(what: string, line: number): void {
    const s = this.seen.get(what);
    if (s) s.count++;
    else this.seen.set(what, { count: 1, line });
  }
  at(what: string, pos: number): void {
    const s = this.seen.get(what);
    if (s) s.count++;
    else this.add(what, this.locate(pos));
  }
  list(): string[] {
    return [...this.seen].map(([what, s]) => `${what} (${s.count === 1 ? "once" : `${s.count} times`}, first on line ${s.line})`);
  }
}

const ENTITIES = new Map([
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
]);
const isNameChar = (c: number) =>
  (c >= 97 && c <= 122) ||
  (c >= 65 && c <= 90) ||
  (c >= 48 && c <= 57) ||
  c === 95 ||
  c === 58 ||
  c === 45 ||
  c === 46 ||
  c === 0xb7 ||
  c >= 0xc0;

/**
 * Text with the five XML entities and character references expanded (anything else kept as written: no DTD is read)
 * and the control characters XML 1.0 forbids dropped; `from` is its position in the file, for notes. Linear: a
 * reference is looked for at most 33 characters on.
 */
export function expand(s: string, from: number, notes: Notes, raw = false): string {
  let out = "";
  let plain = 0;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c < 32 && c !== 9 && c !== 10 && c !== 13) {
      out += s.slice(plain, k);
      plain = k + 1;
      notes.at("control characters XML does not allow dropped", from + k);
    } else if (c === 38 && !raw) {
      let semi = -1;
      for (let q = k + 1; q < s.length && q <= k + 33; q++) {
        const d = s.charCodeAt(q);
        if (d === 59) semi = q;
        if (d === 59 || !(isNameChar(d) || d === 35)) break;
      }
      const name = semi < 0 ? "" : s.slice(k + 1, semi);
      let value = ENTITIES.get(name);
      if (value === undefined && name.startsWith("#")) {
        const code = /^#(?:x[0-9a-f]{1,6}|[0-9]{1,7})$/i.test(name)
          ? Number(name[1] === "x" || name[1] === "X" ? `0${name.slice(1)}` : name.slice(1))
          : -1;
        const allowed = code === 9 || code === 10 || code === 13 || (code >= 32 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff));
        if (allowed) value = String.fromCodePoint(code);
        else if (code >= 0 && code < 32) {
          value = "";
          notes.at("control characters XML does not allow dropped", from + k);
        }
      }
      if (value === undefined) {
        notes.at(semi < 0 ? `an "&" that starts no reference kept as text` : "unknown entity references kept as written", from + k);
        continue;
      }
      out += s.slice(plain, k) + value;
      plain = semi + 1;
      k = semi;
    }
  }
  return plain === 0 ? s : out + s.slice(plain);
}
