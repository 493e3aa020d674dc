import { OpenAPIHono } from "@hono/zod-openapi";
import type { ZodError } from "zod";
import type { AppEnv } from "../types";
import { ApiError, type FieldProblem } from "./errors";
import { tolerantMiddlewareFor } from "./tolerant-input";

export function zodProblems(error: ZodError, where?: string): FieldProblem[] {
  const whole = !where || where === "json" || where === "form" ? "body" : where;
  const name = (path: PropertyKey[]) => (path.length ? path.map(String).join(".") : whole);
  return error.issues.map((issue) => ({ field: name(issue.path), message: issue.message }));
}

/**
 * A sub-app whose contract failures become the one WIRE.md 400 body (vcode 5002, `details` per field), and whose
 * JSON bodies are read tolerantly (src/lib/tolerant-input.ts) after the route's own middleware (auth first, so a
 * caller without the right to write never learns how its body would have been read). Every resource router is made
 * here so no route can read input or answer validation errors differently.
 */
export function createRouter() {
  const router = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw ApiError.invalid(zodProblems(result.error as ZodError, result.target));
    },
  });
  const openapi = router.openapi;
  router.openapi = ((route, handler, hook) => {
    const tolerant = tolerantMiddlewareFor(route.request as Parameters<typeof tolerantMiddlewareFor>[0]);
    if (!tolerant.length) return openapi(route, handler, hook);
    const own = route.middleware ? (Array.isArray(route.middleware) ? route.middleware : [route.middleware]) : [];
    return openapi({ ...route, middleware: [...own, ...tolerant] }, handler, hook);
  }) as typeof router.openapi;
  return router;
}
