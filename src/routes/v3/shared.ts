import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { PLATFORMS } from "../../db/schema";
import { lastServedPage, pageField, pageUrl, perPageField } from "../../lib/paging";
import { requestFormat } from "../../lib/paths";
import { toXml } from "../../lib/xml";
import type { GenreNames } from "../../services/v3";
import type { AppEnv } from "../../types";
import type { V3Context } from "../../views/v3";

const code = (what: string) =>
  z
    .string()
    .regex(/^[A-Za-z]{2}$/, "a two-letter code")
    .transform((s) => s.toLowerCase())
    .optional()
    .openapi({ description: what, type: "string" });

/** Filters shared by the v3 listings; `platform` only with `watchable_in` (checked by `licenceFilter`). */
export const licenceQuery = {
  watchable_in: code("country code; keeps items licensed for that region"),
  platform: z.enum(PLATFORMS).optional().openapi({ description: "licensed platform; only with watchable_in" }),
};

export const v3PagingQuery = { page: pageField, per_page: perPageField };

export const countryQuery = code;

export const v3Envelope = (schema: z.ZodType) =>
  z.object({
    count: z.number().int().openapi({ description: "number of items in this response" }),
    pagination: z.object({ previous: z.string(), next: z.string() }),
    response: z.array(schema),
  });

/** The v3 list envelope: absolute `previous`/`next` URLs (same path and extension) or empty strings; no `next` past the paging ceiling. */
export function v3Page<T>(url: string, page: number, perPage: number, rows: T[]) {
  const more = rows.length > perPage;
  const items = more ? rows.slice(0, perPage) : rows;
  const next = more && page < lastServedPage(perPage) ? pageUrl(url, page + 1) : "";
  return { items, pagination: { previous: page > 1 ? pageUrl(url, page - 1) : "", next } };
}

/** JSON or XML (`.xml` paths), the same data. */
export function v3Respond(c: Context<AppEnv>, data: unknown) {
  if (requestFormat(c.req.url) === "xml") {
    return c.body(toXml(data), 200, { "content-type": "application/xml; charset=utf-8" });
  }
  return c.json(data as object, 200);
}

/** What the v3 views need; `genreNames` come with the read's data (one round trip). */
export function v3Context(c: Context<AppEnv>, genreNames: GenreNames, language?: string): V3Context {
  return { origin: new URL(c.req.url).origin, webOrigin: c.env.WEB_ORIGIN, genreNames, language };
}
