import { OpenAPIHono } from "@hono/zod-openapi";
import type { ZodError } from "zod";
import type { AppEnv } from "../types";
import { ApiError, type FieldProblem } from "./errors";

export function zodProblems(error: ZodError, where?: string): FieldProblem[] {
  const name = (path: PropertyKey[]) => (path.length ? path.map(String).join(".") : (where ?? "body"));
  return error.issues.flatMap((issue) =>
    // A strict object's unknown keys: one problem per key, named by its own path.
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ field: name([...issue.path, key]), message: "unknown field" }))
      : [{ field: name(issue.path), message: issue.message }],
  );
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
