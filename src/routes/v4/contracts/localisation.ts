import { z } from "@hono/zod-openapi";
import { bodyPageField, perPageField } from "../../../lib/paging";

/** Shapes shared by histories, translations, captions and timed comments. */

/**
 * A wire id in a query or body (`9s`, `1v`): malformed is a 400 naming the field (checked by the caller). A filter
 * goes without an example: "Try it out" in /docs would send it unasked.
 */
export const WireId = (example?: string) => (example ? z.string().max(32).openapi({ example }) : z.string().max(32));

export const UserRefSchema = z.object({ id: z.string().openapi({ example: "12u" }), username: z.string() }).openapi("UserRef");

export const SegmentTimingSchema = z.object({ start_ms: z.number().int(), end_ms: z.number().int() }).openapi("SegmentTiming");

export const LanguageCountSchema = z
  .object({ language: z.string().openapi({ example: "es" }), count: z.number().int() })
  .openapi("LanguageCount");

/** Paging carried in a JSON body (subtitle histories), read like every other list's. */
export const bodyPaging = { page: bodyPageField, per_page: perPageField };
