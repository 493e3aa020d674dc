import { z } from "@hono/zod-openapi";
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from "../../../lib/paging";

/** Shapes shared by histories, translations, captions and timed comments. */

/** A wire id in a query or body (`9s`, `1v`): malformed is a 400 naming the field (checked by the caller). */
export const WireId = (example: string) => z.string().max(32).openapi({ example });

export const UserRefSchema = z
  .object({ id: z.string().openapi({ example: "12u" }), username: z.string() })
  .openapi("UserRef");

export const SegmentTimingSchema = z
  .object({ start_ms: z.number().int(), end_ms: z.number().int() })
  .openapi("SegmentTiming");

export const LanguageCountSchema = z
  .object({ language: z.string().openapi({ example: "es" }), count: z.number().int() })
  .openapi("LanguageCount");

/** Paging carried in a JSON body (subtitle histories): numbers or numeric strings; per_page clamped, never refused. */
export const bodyPaging = {
  page: z.coerce.number().int().min(1).max(100_000).optional().openapi({ description: "1-based page number", type: "integer" }),
  per_page: z
    .union([z.number(), z.string()])
    .optional()
    .transform((v) => {
      const n = typeof v === "number" ? Math.trunc(v) : Number.parseInt(v ?? "", 10);
      if (!Number.isFinite(n) || n < 1) return undefined;
      return Math.min(n, MAX_PER_PAGE);
    })
    .openapi({ description: `items per page, default ${DEFAULT_PER_PAGE}, clamped to at most ${MAX_PER_PAGE}`, type: "integer" }),
};
