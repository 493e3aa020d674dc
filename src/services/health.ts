import { log } from "../lib/log";
import { pingDatabase, pingShard } from "../db/queries/health";
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

/**
 * The queue is only checked for presence: sending a probe would run a consumer and bill a message, and a producer
 * binding has no read operation.
 */
type Probe = (deps: Deps, shards: Record<string, CheckState>, timeoutMs: number) => Promise<unknown>;

const PROBES: Record<HealthCheck, Probe> = {
  d1: (deps) => pingDatabase(deps.db),
  kv: (deps) => need(deps.env.CACHE, "get").get(PROBE_KEY),
  r2: (deps) => need(deps.env.SUBTITLES, "head").head(PROBE_KEY),
  queue: async (deps) => need(deps.env.JOBS, "send"),
  // The shards the catalogue knows, each pinged through its own binding (a shard without one is `missing`).
  shards: async (deps, shards, timeoutMs) => {
    const known = await listShards(deps.db);
    await Promise.all(
      known.map(async ({ id }) => {
        shards[id] = await run(`shard ${id}`, () => pingShard(shardBinding(deps.env, id)), timeoutMs);
      }),
    );
    const worst = Object.values(shards).find((state) => state !== "ok");
    if (worst) throw worst === "missing" ? new Missing() : worst === "timeout" ? new Timeout() : new Error("a shard failed");
  },
};

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
  const shards: Record<string, CheckState> = {};
  const states = await Promise.all(HEALTH_CHECKS.map((check) => run(check, () => PROBES[check](deps, shards, timeoutMs), timeoutMs)));
  const checks = Object.fromEntries(HEALTH_CHECKS.map((check, i) => [check, states[i]])) as Health["checks"];
  return { status: states.every((s) => s === "ok") ? "ok" : "unavailable", checks, shards };
}
