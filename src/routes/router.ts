import type { MiddlewareHandler } from "hono";
import type { Guard, Security } from "../lib/route-properties";
import { type RouteDefaults, composeRouter } from "../lib/router";
import { requireApp, requireOfficialApp, requireSignedApp, requireUserOrOfficialApp } from "../middleware/application";
import { requireStaff, requireUser } from "../middleware/session";
import { ownerOnly } from "../middleware/user-scope";
import { v3Auth } from "../middleware/v3";
import type { AppEnv } from "../types";

/** The middleware that enforces each guard a route's security names (src/lib/route-properties.ts). */
const GUARDS: Record<Guard, MiddlewareHandler<AppEnv>> = {
  user: requireUser,
  staff: requireStaff,
  owner: ownerOnly,
  app: requireApp,
  officialApp: requireOfficialApp,
  signedApp: requireSignedApp,
  userOrOfficialApp: requireUserOrOfficialApp,
  v3Token: v3Auth,
};

/**
 * The one router of a resource prefix (docs/decisions.md, "Route layout"), made of the route groups of its files:
 * `tag` and `security` are what its routes get unless they or their group say otherwise.
 */
export function resourceRouter(defaults: RouteDefaults & { tag: string; security: Security }, ...groups: object[]) {
  return composeRouter(defaults, groups, (guards) => guards.map((g) => GUARDS[g]));
}
