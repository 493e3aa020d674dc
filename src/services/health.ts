import { log } from "../lib/log";
import { lastCatalogueMigration, lastShardMigration } from "../db/queries/health";
import { listShards } from "../db/queries/shards";
import { shardBinding } from "../db/shards";
import type { Deps } from "./deps";

/** `shards`: every shard database the catalogue's `shards` table names (docs/decisions.md, "Shards"). */
export const HEALTH_CHECKS = ["d1", "kv", "r2", "queue", "shards"] as const;
type HealthCheck = (typeof HEALTH_CHECKS)[number];
/** `missing`: the binding is absent or not what it should be (a configuration error, not an outage). */
type CheckState = "ok" | "error" | "timeout" | "missing";
interface Health {
  status: "ok" | "unavailable";
  checks: Record<HealthCheck, CheckState>;
  /** Each shard's own state, by shard number (`shards` in `checks` is the worst of them). */
  shards: Record<string, CheckState>;
  migrations: Migrations;
}
/**
 * Each database's last applied migration (null: it did not answer, or has no `d1_migrations`), and the shards whose
 * last migration is not the newest any shard has (docs/operations.md, "Migrations across the shards"). A shard behind
 * is not an outage (the release before runs on it while migrations apply), so it leaves `status` alone.
 */
export interface Migrations {
  catalogue: string | null;
  shards: Record<string, string | null>;
  behind: string[];
}

/** Each check's limit: a load balancer polling /health must get an answer well before its own timeout. */
const CHECK_TIMEOUT_MS = 2_000;

/** Keys nothing writes: a read that finds nothing proves the store answers, without data or cost to speak of. */
const PROBE_KEY = "health/probe";

class Timeout extends Error {}
class Missing extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

const need = <T>(binding: T | undefined, method: string): T => {
  if (!binding || typeof (binding as Record<string, unknown>)[method] !== "function") throw new Missing();
  return binding;
};

/** What the probes learn besides their state: each shard's state and each database's last migration. */
interface Seen {
  shards: Record<string, CheckState>;
  migrations: { catalogue: string | null; shards: Record<string, string | null> };
}

/**
 * The queue is only checked for presence: sending a probe would run a consumer and bill a message, and a producer
 * binding has no read operation. Each database's probe is the read of its last migration: one row, so the check that
 * it answers and its schema version cost one statement.
 */
type Probe = (deps: Deps, seen: Seen, timeoutMs: number) => Promise<unknown>;

const PROBES: Record<HealthCheck, Probe> = {
  d1: async (deps, seen) => {
    seen.migrations.catalogue = await lastCatalogueMigration(deps.db);
  },
  kv: (deps) => need(deps.env.CACHE, "get").get(PROBE_KEY),
  r2: (deps) => need(deps.env.SUBTITLES, "head").head(PROBE_KEY),
  queue: async (deps) => need(deps.env.JOBS, "send"),
  // The shards the catalogue knows, each read through its own binding (a shard without one is `missing`).
  shards: async (deps, seen, timeoutMs) => {
    const known = await listShards(deps.db);
    await Promise.all(
      known.map(async ({ id }) => {
        seen.migrations.shards[id] = null;
        seen.shards[id] = await run(
          `shard ${id}`,
          async () => (seen.migrations.shards[id] = await lastShardMigration(shardBinding(deps.env, id))),
          timeoutMs,
        );
      }),
    );
    const worst = Object.values(seen.shards).find((state) => state !== "ok");
    if (worst) throw worst === "missing" ? new Missing() : worst === "timeout" ? new Timeout() : new Error("a shard failed");
  },
};

/** Migration names start with their number (`0002_...`), so the newest is the greatest name. */
function behind(shards: Record<string, string | null>): string[] {
  const names = Object.values(shards).filter((name): name is string => name !== null);
  const newest = names.reduce<string | null>((a, b) => (a === null || b > a ? b : a), null);
  return Object.entries(shards)
    .filter(([, name]) => name !== null && name !== newest)
    .map(([id]) => id)
    .sort((a, b) => Number(a) - Number(b));
}

async function run(check: string, probe: () => Promise<unknown>, timeoutMs: number): Promise<CheckState> {
  try {
    await withTimeout(Promise.resolve().then(probe), timeoutMs);
    return "ok";
  } catch (err) {
    const state: CheckState =
      err instanceof Timeout ? "timeout" : err instanceof Missing || /no D1 binding/.test(String(err)) ? "missing" : "error";
    // The reason goes to the log only: the answer is public and names states, never messages.
    log("error", { event: "health", check, state, error: String(err) });
    return state;
  }
}

/** Every check at once, so the answer takes at most one timeout (the shards: the catalogue's list, then all at once). */
export async function checkHealth(deps: Deps, timeoutMs = CHECK_TIMEOUT_MS): Promise<Health> {
  const seen: Seen = { shards: {}, migrations: { catalogue: null, shards: {} } };
  const states = await Promise.all(HEALTH_CHECKS.map((check) => run(check, () => PROBES[check](deps, seen, timeoutMs), timeoutMs)));
  const checks = Object.fromEntries(HEALTH_CHECKS.map((check, i) => [check, states[i]])) as Health["checks"];
  // A probe that timed out may still write its answer later: the answer is copied now, as the states were taken.
  const migrations = { catalogue: seen.migrations.catalogue, shards: { ...seen.migrations.shards } };
  return {
    status: states.every((s) => s === "ok") ? "ok" : "unavailable",
    checks,
    shards: seen.shards,
    migrations: { ...migrations, behind: behind(migrations.shards) },
  };
}
