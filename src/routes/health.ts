import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../lib/router";
import { withProperties } from "../lib/route-properties";
import { jsonResponse } from "../lib/schemas";
import { depsOf } from "../services/deps";
import { checkHealth, HEALTH_CHECKS } from "../services/health";

const CheckState = z.enum(["ok", "error", "timeout", "missing"]).openapi({
  description: "`missing`: the binding is not configured; `error` or `timeout`: it did not answer (details in the log).",
});

const HealthBody = z
  .object({
    status: z.enum(["ok", "unavailable"]),
    checks: z.object(
      Object.fromEntries(HEALTH_CHECKS.map((name) => [name, CheckState])) as Record<(typeof HEALTH_CHECKS)[number], typeof CheckState>,
    ),
    shards: z.record(z.string(), CheckState).openapi({ description: "each shard database by number (`checks.shards` is the worst)" }),
  })
  .openapi("Health", {
    example: { status: "ok", checks: { d1: "ok", kv: "ok", r2: "ok", queue: "ok", shards: "ok" }, shards: { "1": "ok", "2": "ok" } },
  });

const health = withProperties(
  createRoute({
    method: "get",
    path: "/health",
    summary: "Health of the Worker's bindings",
    description:
      "Checks D1 (a trivial SELECT), KV (a read of a fixed key), R2 (a HEAD of a fixed key), the queue binding " +
      "(present; nothing is sent) and every shard database the catalogue lists (a trivial SELECT each), each within 2 s. No application, token or signature; never cached.",
    responses: {
      200: jsonResponse(HealthBody, "every check passed"),
      503: jsonResponse(HealthBody, "at least one check failed; `checks` names it"),
    },
  }),
  { cache: "none" },
);

export const healthRouter = createRouter();
healthRouter.openapi(health, async (c) => {
  const result = await checkHealth(depsOf(c));
  c.header("cache-control", "no-store");
  return c.json(result, result.status === "ok" ? 200 : 503);
});
