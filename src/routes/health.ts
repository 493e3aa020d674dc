import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, routeGroup } from "../lib/router";
import { withProperties } from "../lib/route-properties";
import { resourceRouter } from "./router";
import { jsonResponse } from "../lib/schemas";
import { depsOf } from "../services/deps";
import { checkHealth, HEALTH_CHECKS } from "../services/health";

const CheckState = z.enum(["ok", "error", "timeout", "missing"]).openapi({
  description: "`missing`: the binding is not configured; `error` or `timeout`: it did not answer (details in the log).",
});

const Migration = z.string().nullable().openapi({
  description: "the last migration applied (`d1_migrations`); null when the database did not answer or has none",
});

const HealthBody = z
  .object({
    status: z.enum(["ok", "unavailable"]),
    checks: z.object(
      Object.fromEntries(HEALTH_CHECKS.map((name) => [name, CheckState])) as Record<(typeof HEALTH_CHECKS)[number], typeof CheckState>,
    ),
    shards: z.record(z.string(), CheckState).openapi({ description: "each shard database by number (`checks.shards` is the worst)" }),
    migrations: z
      .object({
        catalogue: Migration,
        shards: z.record(z.string(), Migration).openapi({ description: "each shard database by number" }),
        behind: z.array(z.string()).openapi({
          description:
            "the shards whose last migration is not the newest any shard has (a migration run that failed there, or " +
            "one under way); does not change `status`",
        }),
      })
      .openapi({ description: "each database's schema version: the name of the last migration applied to it" }),
  })
  .openapi("Health", {
    example: {
      status: "ok",
      checks: { d1: "ok", kv: "ok", r2: "ok", queue: "ok", shards: "ok" },
      shards: { "1": "ok", "2": "ok" },
      migrations: {
        catalogue: "0038_shard_outbox_errors.sql",
        shards: { "1": "0002_newest_by_time.sql", "2": "0002_newest_by_time.sql" },
        behind: [],
      },
    },
  });

const health = withProperties(
  createRoute({
    method: "get",
    path: "/",
    summary: "Health of the Worker's bindings",
    description:
      "Checks D1 (a read of its last applied migration), KV (a read of a fixed key), R2 (a HEAD of a fixed key), the " +
      "queue binding (present; nothing is sent) and every shard database the catalogue lists (a read of its last " +
      "applied migration each), each within 2 s, and names each database's last migration. No application, token or " +
      "signature; never cached.",
    responses: {
      200: jsonResponse(HealthBody, "every check passed"),
      503: jsonResponse(HealthBody, "at least one check failed; `checks` names it"),
    },
  }),
  { ownExtension: true, cache: "none" },
);

const healthRoutes = routeGroup();
healthRoutes.openapi(health, async (c) => {
  const result = await checkHealth(depsOf(c));
  c.header("cache-control", "no-store");
  return c.json(result, result.status === "ok" ? 200 : 503);
});

/** Mounted once, under its own prefix, as every router is (docs/decisions.md, "Route layout"). */
export const healthRouter = createRouter().route("/health", resourceRouter({ tag: "health", security: "public" }, healthRoutes));
