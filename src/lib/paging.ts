import { z } from "@hono/zod-openapi";

export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

const truthy = z
  .enum(["true", "false", "1", "0"])
  .optional()
  .transform((v) => v === "true" || v === "1");

/** Query parameters shared by every paged v4 list. `per_page` is clamped, never refused. */
export const pagingQuery = {
  page: z.coerce.number().int().min(1).max(100_000).optional().openapi({ description: "1-based page number" }),
  per_page: z
    .string()
    .optional()
    .transform((v) => {
      const n = Number.parseInt(v ?? "", 10);
      if (!Number.isFinite(n) || n < 1) return DEFAULT_PER_PAGE;
      return Math.min(n, MAX_PER_PAGE);
    })
    .openapi({ description: `items per page, default ${DEFAULT_PER_PAGE}, clamped to at most ${MAX_PER_PAGE}`, type: "integer" }),
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
}

export function paging(q: { page?: number; per_page?: number; with_paging?: boolean; only_ids?: boolean }): Paging {
  const page = q.page ?? 1;
  const perPage = q.per_page ?? DEFAULT_PER_PAGE;
  return {
    page,
    perPage,
    offset: (page - 1) * perPage,
    limit: perPage + 1,
    withPaging: q.with_paging ?? false,
    onlyIds: q.only_ids ?? false,
  };
}

function pageUrl(requestUrl: string, page: number) {
  const url = new URL(requestUrl);
  url.searchParams.set("page", String(page));
  return url.toString();
}

/**
 * The v4 list envelope. `rows` holds up to `perPage + 1` items (the extra one only signals `more`);
 * `count` is the total, needed only with `with_paging=true`.
 */
export async function listEnvelope<T>(
  requestUrl: string,
  p: Paging,
  rows: T[],
  toWire: (row: T) => unknown,
  idOf: (row: T) => string,
  count?: () => Promise<number>,
) {
  const more = rows.length > p.perPage;
  const pageRows = more ? rows.slice(0, p.perPage) : rows;
  const response = p.onlyIds ? pageRows.map(idOf) : pageRows.map(toWire);
  const body: Record<string, unknown> = { more, response };
  if (!p.withPaging) return body;
  // Without a counter the total is only known on the last page; lists that page pass one.
  const total = count ? await count() : p.offset + pageRows.length;
  return {
    ...body,
    count: total,
    pagination: {
      previous: p.page > 1 ? pageUrl(requestUrl, p.page - 1) : null,
      next: more ? pageUrl(requestUrl, p.page + 1) : null,
    },
  };
}
