import type { Context } from "hono";
import type { DB } from "../db/client";
import type { AppEnv } from "../types";

/**
 * What a service may use, passed as one object (issue 11): the request's D1 session and the Worker's bindings. A
 * service that needs the calling user takes it as an argument of its own: it is input, not a dependency.
 */
export interface Deps {
  db: DB;
  env: Env;
}

/** The dependencies of one request: its D1 session (with the client's bookmark) and the bindings. */
export const depsOf = (c: Context<AppEnv>): Deps => ({ db: c.get("db"), env: c.env });
