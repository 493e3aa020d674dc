import { z } from "@hono/zod-openapi";

/** Shared OpenAPI components: the error body of WIRE.md. */
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
