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
const FAN_CHANNEL_PREFIX = "x:";

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

/**
 * The container listing's facet filters (`/v4/containers.json?genre=6g`): the query parameter, how its value is read
 * and the facet it asks for. The listing's contract, its service and its description are built from this table, so a
 * new facet filter is an entry here and the trigger that writes its facet (docs/development.md, "Recipe: a new
 * listing filter (facet)"). `type`, `hosted` and `licensed` are not here: they choose the namespace and the pseudo-type
 * paths, which is the listing service's rule.
 */
export const LISTING_FILTERS = {
  genre: textFilter({
    description: "genre id (`6g` or `6`)",
    example: "6g",
    pattern: /^[1-9][0-9]{0,8}g?$/,
    message: "a genre id such as 6g or 6",
    read: (raw) => Number.parseInt(raw, 10),
    facet: (genreId) => facet.genre(genreId),
  }),
  origin_country: textFilter({
    description: "two-letter origin country code",
    example: "kr",
    pattern: /^[a-zA-Z]{2}$/,
    message: "a two-letter country code",
    read: (raw) => raw.toLowerCase(),
    facet: (code) => facet.country(code),
  }),
  subtitle_completion: textFilter({
    description: `language code: keeps containers whose subtitles in that language are at least ${SUBTITLE_COMPLETION_THRESHOLD}% complete`,
    example: "en",
    pattern: /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$/,
    message: "a language code",
    read: (raw) => raw.toLowerCase(),
    facet: (language) => facet.sub(language),
  }),
  family_friendly: flagFilter({
    description: "`1` removes adult containers",
    facet: (on) => (on ? facet.family : undefined),
  }),
};

/** A filter whose value is text matching `pattern` (else a 400 with `message`), read into the facet's value. */
function textFilter<T>(filter: {
  description: string;
  example: string;
  pattern: RegExp;
  message: string;
  read: (raw: string) => T;
  facet: (value: T) => string;
}) {
  return { kind: "text" as const, ...filter };
}

/** A `0`/`1` (or `false`/`true`) filter. */
function flagFilter(filter: { description: string; facet: (on: boolean) => string | undefined }) {
  return { kind: "flag" as const, example: "1", ...filter };
}

export type ListingFilterName = keyof typeof LISTING_FILTERS;
/** The value each filter reads from its parameter. */
export type ListingFilterValues = {
  [K in ListingFilterName]?: Parameters<(typeof LISTING_FILTERS)[K]["facet"]>[0];
};

/** The plain facets the given filter values ask for (`inNamespace` places them in a namespace). */
export function filterFacets(values: ListingFilterValues): string[] {
  const names: string[] = [];
  for (const name of Object.keys(LISTING_FILTERS) as ListingFilterName[]) {
    const value = values[name];
    if (value === undefined) continue;
    const asked = (LISTING_FILTERS[name].facet as (v: typeof value) => string | undefined)(value);
    if (asked) names.push(asked);
  }
  return names;
}

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
function selectivityRank(name: string): number {
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
