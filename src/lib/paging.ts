import { z } from "@hono/zod-openapi";
import { type Cursor, encodeCursor } from "./cursor";
import { ApiError } from "./errors";

const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

/**
 * The paging ceiling (docs/decisions.md, "Paging ceiling and repeated parameters"): no listing serves an item past
 * this position, since an OFFSET is read row by row. `page × per_page` above it is a 400 naming `page`, and a
 * `with_paging=true` count reads at most `COUNT_LIMIT` rows and answers at most this.
 */
export const PAGING_CEILING = 10_000;

/** Rows a `with_paging=true` count reads at most (`LIMIT` in its query): one more than the ceiling tells "more than that". */
export const COUNT_LIMIT = PAGING_CEILING + 1;

const truthy = z
  .enum(["true", "false", "1", "0"])
  .optional()
  .transform((v) => v === "true" || v === "1");

/** A whole number from a query string or a JSON body (`"2"` or `2`), or undefined when it cannot be read. */
const readInt = (v: number | string | undefined) => {
  const n = typeof v === "number" ? Math.trunc(v) : Number.parseInt(v ?? "", 10);
  return Number.isFinite(n) ? n : undefined;
};

/**
 * `page` and `per_page`, read the same way on every list (v4 query, JSON bodies, v3): an unreadable or out-of-range
 * value falls back to the default or the nearest bound (clients send `per_page=500`); only a page past the paging
 * ceiling is refused, by `paging`, which knows `per_page` too.
 */
// Any page above the ceiling is refused whatever per_page is, so the value is kept small (no 1e20 in arithmetic).
const readPage = (v: number | string | undefined) => Math.min(Math.max(readInt(v) ?? 1, 1), PAGING_CEILING + 1);
const pageDoc = {
  description: `1-based page number; unreadable or below 1 is 1; page × per_page above ${PAGING_CEILING} is a 400`,
  type: "integer" as const,
};

export const pageField = z.union([z.number(), z.string()]).optional().transform(readPage).openapi(pageDoc);

/**
 * `page` in a JSON body: read as `pageField`, but left undefined when absent, so a handler can tell a body's page from
 * none (the query's wins, and a body's page beside `cursor=` is refused).
 */
export const bodyPageField = z
  .union([z.number(), z.string()])
  .optional()
  .transform((v) => (v === undefined ? undefined : readPage(v)))
  .openapi(pageDoc);

export const perPageField = z
  .union([z.number(), z.string()])
  .optional()
  .transform((v) => {
    const n = readInt(v);
    return n === undefined || n < 1 ? DEFAULT_PER_PAGE : Math.min(n, MAX_PER_PAGE);
  })
  .openapi({
    description: `items per page, default ${DEFAULT_PER_PAGE} (also for unreadable values), clamped to at most ${MAX_PER_PAGE}`,
    type: "integer",
  });

/** Query parameters shared by every paged v4 list. */
export const pagingQuery = {
  page: pageField,
  per_page: perPageField,
  with_paging: truthy.openapi({ description: "add `count` and `pagination` links", type: "boolean" }),
  only_ids: truthy.openapi({ description: "answer with an array of ids only", type: "boolean" }),
};

export interface Paging {
  page: number;
  perPage: number;
  offset: number;
  /** Rows to fetch: one more than a page tells whether another page exists without a count. */
  limit: number;
  withPaging: boolean;
  onlyIds: boolean;
  /** A keyset page (docs/decisions.md, "Keyset paging across shards"): the rows after this position; `offset` is then 0. */
  cursor?: Cursor;
}

/** The deepest page a listing serves at `perPage` items a page. */
export const lastServedPage = (perPage: number) => Math.floor(PAGING_CEILING / perPage);

/**
 * Offset and limit of a page; a page past the paging ceiling is a 400 naming `page` (every paged list comes here).
 * With a `cursor` (the lists read across shards) the page is the rows after it: no offset, so no ceiling, and `page`
 * sent beside it (`pageSent`: the parsed `page` is 1 when absent) is a 400 naming `cursor`.
 */
export function paging(
  q: { page?: number; per_page?: number; with_paging?: boolean; only_ids?: boolean; cursor?: Cursor },
  pageSent = false,
): Paging {
  const page = q.page ?? 1;
  const perPage = q.per_page ?? DEFAULT_PER_PAGE;
  const flags = { perPage, limit: perPage + 1, withPaging: q.with_paging ?? false, onlyIds: q.only_ids ?? false };
  if (q.cursor) {
    if (pageSent) throw ApiError.field("cursor", "give page or cursor, not both: a cursor names its own position");
    return { ...flags, page: 1, offset: 0, cursor: q.cursor };
  }
  if (page > lastServedPage(perPage)) {
    throw ApiError.field(
      "page",
      `lists are served up to item ${PAGING_CEILING}: page × per_page may be at most ${PAGING_CEILING} (the last page at per_page=${perPage} is ${lastServedPage(perPage)}); page deeper with cursor= (the lists that answer one) or narrow the list with its filters`,
    );
  }
  return { ...flags, page, offset: (page - 1) * perPage };
}

/**
 * Credentials never travel in links: clients add their own (the v3 gem appends `access_token=` to `next`, and a
 * second copy used to make the next page a 400), and a link pasted into a bug report must not carry a session.
 */
export const CREDENTIAL_PARAMS = ["access_token", "token", "sig", "t", "signature", "timestamp"];

/** The request's own URL at another page: same path, paging and filter parameters, no credentials. */
export function pageUrl(requestUrl: string, page: number) {
  const url = new URL(requestUrl);
  for (const name of CREDENTIAL_PARAMS) url.searchParams.delete(name);
  url.searchParams.set("page", String(page));
  return url.toString();
}

/** The request's own URL after a cursor: as `pageUrl`, with `cursor=` in place of any `page`. */
function cursorUrl(requestUrl: string, cursor: string) {
  const url = new URL(requestUrl);
  for (const name of [...CREDENTIAL_PARAMS, "page"]) url.searchParams.delete(name);
  url.searchParams.set("cursor", cursor);
  return url.toString();
}

const Pagination = z.object({ previous: z.string().nullable(), next: z.string().nullable() });

/** What `listEnvelope` answers: the items of one page, or their ids with `only_ids=true`. */
interface ListEnvelope<W> {
  more: boolean;
  response: W[] | string[];
  cursor?: string;
  count?: number;
  count_capped?: true;
  pagination?: z.infer<typeof Pagination>;
}

/**
 * The contract of a v4 list envelope (docs/spec/wire.md, "v4 list envelope") around `item`, registered as the component `name`.
 * `extra` adds fields a list answers beside the envelope (a list's `details`). Every list declares its envelope
 * here so the document and `listEnvelope` cannot disagree about its shape.
 */
export const listEnvelopeSchema = <T extends z.ZodType, E extends z.ZodRawShape = Record<never, never>>(item: T, name: string, extra?: E) =>
  z
    .object({
      more: z.boolean().openapi({ description: "another page exists" }),
      response: z.union([z.array(item), z.array(z.string())]).openapi({ description: "items, or ids with `only_ids=true`" }),
      count: z
        .number()
        .int()
        .optional()
        .openapi({ description: `total, with \`with_paging=true\`; at most ${PAGING_CEILING} (see \`count_capped\`)` }),
      count_capped: z
        .literal(true)
        .optional()
        .openapi({ description: `present when the list holds more than ${PAGING_CEILING} items: \`count\` is then ${PAGING_CEILING}` }),
      pagination: Pagination.optional().openapi({ description: "absolute page links, with `with_paging=true`" }),
      ...(extra ?? ({} as E)),
    })
    .openapi(name);

/**
 * The v4 list envelope. `rows` holds up to `perPage + 1` items (the extra one only signals `more`);
 * `count` is the total, needed only with `with_paging=true`. A row `toWire` (and `idOf`) maps to null (deleted between
 * two reads, or a position with nothing to show) is left out of the page rather than answered as null; `more` still
 * counts it. `next` is the position of the page's last row on a list that pages by cursor too: answered as `cursor`
 * beside a boolean `more` (docs/decisions.md, "Keyset paging across shards"), only when `more` is true.
 */
export async function listEnvelope<T, W>(
  requestUrl: string,
  p: Paging,
  rows: T[],
  toWire: (row: T) => W | null,
  idOf: (row: T) => string | null,
  count?: () => Promise<number>,
  next?: Cursor,
): Promise<ListEnvelope<W>> {
  const more = rows.length > p.perPage;
  const pageRows = more ? rows.slice(0, p.perPage) : rows;
  const response = p.onlyIds
    ? pageRows.map(idOf).filter((id): id is string => id !== null)
    : pageRows.map(toWire).filter((item): item is W => item !== null);
  const cursor = more && next ? encodeCursor(next) : undefined;
  const body: ListEnvelope<W> = cursor ? { more, response, cursor } : { more, response };
  if (!p.withPaging) return body;
  // Without a counter the total is only known on the last page; lists that page pass one. Counters read at most
  // COUNT_LIMIT rows, so a total above the ceiling is answered as the ceiling, and said so.
  const total = count ? await count() : p.offset + pageRows.length;
  // A keyset page has no number: no previous link, and the next one is the cursor's.
  const pagination = p.cursor
    ? { previous: null, next: cursor ? cursorUrl(requestUrl, cursor) : null }
    : {
        previous: p.page > 1 ? pageUrl(requestUrl, p.page - 1) : null,
        // Never a link to a page that would be refused.
        next: more && p.page < lastServedPage(p.perPage) ? pageUrl(requestUrl, p.page + 1) : null,
      };
  return {
    ...body,
    count: Math.min(total, PAGING_CEILING),
    ...(total > PAGING_CEILING ? { count_capped: true as const } : {}),
    pagination,
  };
}
