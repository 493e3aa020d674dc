import { ApiError } from "./errors";

/** Wire id suffixes: `<integer><suffix>`. v3 shows the bare integers. */
export type Suffixes = {
  user: "u";
  video: "v";
  container: "c";
  list: "l";
  notification: "n";
  thread: "t";
  message: "m";
  application: "a";
  genre: "g";
  timedComment: "tc";
  subtitle: "s";
  subtitleReport: "r";
  job: "j";
  webhook: "w";
  webhookEvent: "e";
  webhookDelivery: "d";
  playbackStream: "ps";
  glossaryTerm: "k";
};
type Suffix = Suffixes[keyof Suffixes];

// At most 15 digits keeps every id inside Number.MAX_SAFE_INTEGER; a leading zero is not an id.
const DIGITS = "([1-9][0-9]{0,14})";
const patterns = new Map<string, RegExp>();
const patternFor = (suffix: string) => {
  let re = patterns.get(suffix);
  if (!re) patterns.set(suffix, (re = new RegExp(`^${DIGITS}${suffix}$`)));
  return re;
};

export const formatId = (id: number, suffix: Suffix) => `${id}${suffix}`;

/** The pattern a wire id of this kind matches, for the contracts that check one before a handler parses it. */
export const wireIdPattern = (suffix: Suffix): RegExp => patternFor(suffix);

/** The integer of a wire id, or null when it is not exactly `<digits><suffix>`. */
export function tryParseId(raw: string | undefined | null, suffix: Suffix): number | null {
  if (!raw) return null;
  const m = patternFor(suffix).exec(raw);
  return m ? Number(m[1]) : null;
}

/** Strict parse for path ids: anything malformed is simply a resource that does not exist. */
export function parseId(raw: string | undefined, suffix: Suffix): number {
  const id = tryParseId(raw, suffix);
  if (id === null) throw ApiError.notFound();
  return id;
}

/** `12c` or `40v`, the pattern the contracts check. */
export const RESOURCE_ID_PATTERN = new RegExp(`^${DIGITS}(c|v)$`);

/** `12c` / `40v`: the containers and videos users subscribe to, mark and put in lists. */
export function tryParseResourceId(raw: string | undefined | null): { kind: "c" | "v"; id: number } | null {
  if (!raw) return null;
  const m = RESOURCE_ID_PATTERN.exec(raw);
  return m ? { kind: m[2] as "c" | "v", id: Number(m[1]) } : null;
}
