import { z } from "@hono/zod-openapi";
import { type Suffixes, wireIdPattern } from "./ids";

/** Shared OpenAPI components: the error body of docs/spec/wire.md, "Errors". */
export const ErrorBody = z
  .object({
    error: z.string(),
    vcode: z.number().int(),
    details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    request_id: z.string().openapi({ description: "the request's id (also in `x-request-id`): quote it when reporting a problem" }),
  })
  .openapi("Error");

export const errorResponses = (...codes: number[]) =>
  Object.fromEntries(
    codes.map((code) => [code, { description: ERROR_TEXT[code] ?? "error", content: { "application/json": { schema: ErrorBody } } }]),
  );

const ERROR_TEXT: Record<number, string> = {
  400: "invalid input (vcode 5002, `details` names each field)",
  401: "missing or invalid credentials",
  403: "forbidden",
  404: "not found",
  409: "conflicts with an existing account link (vcode 5409)",
  413: "body too large (vcode 5413)",
  429: "rate limited (vcode 5429, `Retry-After` header)",
  503: "this login path is misconfigured on the server (vcode 5503)",
};

export const jsonBody = <T extends z.ZodType>(schema: T, description?: string) => ({
  required: true,
  description,
  content: { "application/json": { schema } },
});

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/**
 * The response headers clients may rely on, as OpenAPI header objects (`components.headers`; src/openapi.ts says which
 * responses carry which). Names as sent: HTTP header names are case-insensitive.
 */
export const RESPONSE_HEADERS = {
  "X-Request-Id": {
    description:
      "The request's id (also `request_id` in error bodies and the log line): the client's own `x-request-id` when it " +
      "matches `^[A-Za-z0-9._:-]{1,128}$`, otherwise generated. Quote it when reporting a problem.",
    schema: { type: "string" },
  },
  "Server-Timing": {
    description: "What the request cost: `total` and `d1` durations (ms), D1 queries, round trips, rows read and rows written.",
    schema: { type: "string", examples: ['total;dur=4.2, d1;dur=1.9;desc="D1", d1-queries;desc="2"'] },
  },
  "X-D1-Bookmark": {
    description:
      "The D1 session bookmark after this request, when it used D1. Send it back as `x-d1-bookmark` to read at least " +
      "what this request wrote (read replicas).",
    schema: { type: "string" },
  },
  ETag: {
    description:
      "A strong validator of the body, on public reads (GET and HEAD) to an anonymous caller: send it as " +
      "`If-None-Match` for a 304 (compared weakly, so `W/` as a compressing proxy sends it matches; `*` matches too).",
    schema: { type: "string", examples: ['"3f2a9c0d1b7e4f5a6c8d9e0f1a2b3c4d"'] },
  },
  "Retry-After": { description: "Seconds to wait before trying again.", schema: { type: "integer", minimum: 0 } },
  Deprecation: {
    description: "RFC 9745: v3 is deprecated since this date (`@<unix seconds>`).",
    schema: { type: "string", examples: ["@1356998400"] },
  },
  Link: {
    description: 'The v4 successor of this v3 resource (`rel="successor-version"`) and this documentation (`rel="deprecation"`).',
    schema: { type: "string" },
  },
} as const;

export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

/** A wire id of one kind in a query or a body (`12c`), refused with "a <what> such as <example>" otherwise. */
export const wireIdString = (suffix: Suffixes[keyof Suffixes], what: string, example: string) =>
  z.string().regex(wireIdPattern(suffix), `a ${what} such as ${example}`);
