/**
 * The facet vocabulary of `container_facets`: names, the fan-channel prefix, the order a listing picks its
 * driving facet in, and the completion thresholds. The SQL triggers (migrations 0003, 0012, 0014) write the
 * rows; everything in TypeScript that names a facet or a threshold takes it from here, and
 * test/db/facets.test.ts checks that `facetsOf` and the triggers agree, so the two cannot drift.
 *
 * Pure and import-free (types aside) so that queries, services, routes and views can all use it without
 * an edge from `db/queries` into `services`.
 */
import type { CONTAINER_STATES, ContainerType } from "./catalogue-types";

/**
 * `subtitle_completion=<lang>` on listings and lists keeps items at least this complete; the triggers write
 * `sub:<lang>` at the same percent (`sc.percent >= 50` in migrations 0003, 0012, 0014).
 */
export const SUBTITLE_COMPLETION_THRESHOLD = 50;
/** v3 genre listings: `subtitle_language` keeps genres with resources at least this complete in that language (v3 interface). */
export const V3_SUBTITLE_THRESHOLD = 90;

/**
 * A fan channel's (not hosted, or not licensed) facets carry this prefix, so the plain names, which public
 * listings walk, only ever hold public containers (migration 0012).
 */
export const FAN_CHANNEL_PREFIX = "x:";

/** The kinds of facet that carry a value (`genre:6`), by the prefix their names start with. */
export const FACET_KINDS = { type: "type:", genre: "genre:", country: "country:", sub: "sub:" } as const;

/** Facet names. Filter facets are plain on public containers and prefixed on fan channels (`inNamespace`). */
export const facet = {
  /** Every listable container (plain or prefixed like the filters); listings drive by `public` instead. */
  all: "all",
  /** Hosted and licensed: the unfiltered public listing. Never prefixed. */
  public: "public",
  /** Never prefixed: the fan-channel listing drivers. */
  unhosted: "unhosted",
  unlicensed: "unlicensed",
  /** Not adult (`family_friendly=1`). */
  family: "family",
  type: (type: ContainerType) => FACET_KINDS.type + type,
  genre: (genreId: number) => FACET_KINDS.genre + genreId,
  country: (code: string) => FACET_KINDS.country + code,
  /** Container completion in `language` at or above `SUBTITLE_COMPLETION_THRESHOLD`. */
  sub: (language: string) => FACET_KINDS.sub + language,
} as const;

/** A filter facet's name for public containers (plain) or fan channels (`x:`-prefixed). */
export const inNamespace = (name: string, publicNamespace: boolean) => (publicNamespace ? name : FAN_CHANNEL_PREFIX + name);

/**
 * Facets by expected selectivity, most selective first (a kind's prefix stands for every name of the kind):
 * the first one a listing asks for drives the walk (one index range scan in sort order), each other one is a
 * primary-key probe per candidate row. The fan-channel prefix does not change a facet's rank.
 */
const SELECTIVITY: readonly string[] = [
  facet.unhosted,
  facet.unlicensed,
  FACET_KINDS.sub,
  FACET_KINDS.genre,
  FACET_KINDS.country,
  FACET_KINDS.type,
  facet.family,
  facet.public,
  facet.all,
];
const KIND_PREFIXES: readonly string[] = Object.values(FACET_KINDS);

/** A facet's place in `SELECTIVITY` (lower drives first); unknown names go last. */
export function selectivityRank(name: string): number {
  const plain = name.startsWith(FAN_CHANNEL_PREFIX) ? name.slice(FAN_CHANNEL_PREFIX.length) : name;
  const i = SELECTIVITY.findIndex((p) => (KIND_PREFIXES.includes(p) ? plain.startsWith(p) : plain === p));
  return i === -1 ? SELECTIVITY.length : i;
}

/** The distinct facets in driving order: the first drives the walk, the others are probed. */
export const inDrivingOrder = (names: readonly string[]) => [...new Set(names)].sort((a, b) => selectivityRank(a) - selectivityRank(b));

/** What the facet triggers read of a container. */
export interface FacetSource {
  type: ContainerType;
  originCountry: string;
  hosted: boolean;
  licensed: boolean;
  adult: boolean;
  state: (typeof CONTAINER_STATES)[number];
  genreIds: readonly number[];
  /** Container completion percent by language (`subtitle_completions` rows of kind `c`). */
  completions: Readonly<Record<string, number>>;
}

/**
 * The facet rows the triggers keep for a container, sorted. Only normal-state containers are listable. This
 * is the definition the SQL must match (test/db/facets.test.ts); no code path computes facets in TypeScript.
 */
export function facetsOf(c: FacetSource): string[] {
  if (c.state !== "normal") return [];
  const isPublic = c.hosted && c.licensed;
  const filters = [facet.all, facet.type(c.type), ...c.genreIds.map(facet.genre)];
  if (!c.adult) filters.push(facet.family);
  if (c.originCountry !== "") filters.push(facet.country(c.originCountry));
  for (const [language, percent] of Object.entries(c.completions)) {
    if (percent >= SUBTITLE_COMPLETION_THRESHOLD) filters.push(facet.sub(language));
  }
  const names = filters.map((f) => inNamespace(f, isPublic));
  if (isPublic) names.push(facet.public);
  if (!c.hosted) names.push(facet.unhosted);
  if (!c.licensed) names.push(facet.unlicensed);
  return [...new Set(names)].sort();
}
