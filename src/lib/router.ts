import { OpenAPIHono } from "@hono/zod-openapi";
import type { ZodError } from "zod";
import type { AppEnv } from "../types";
import { ApiError, type FieldProblem } from "./errors";

export function zodProblems(error: ZodError, where?: string): FieldProblem[] {
  return error.issues.map((issue) => ({
    field: issue.path.length ? issue.path.join(".") : (where ?? "body"),
    message: issue.message,
  }));
}

/**
 * A sub-app whose contract failures become the one WIRE.md 400 body (vcode 5002, `details` per field).
 * Every resource router is made here so no route can answer validation errors differently.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw ApiError.invalid(zodProblems(result.error as ZodError, result.target));
    },
  });
}
