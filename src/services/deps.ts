import type { Context } from "hono";
import type { DB } from "../db/client";
import type { Rider } from "../db/rider";
import { createShardDb, shardBinding, type ShardDB, type Shards } from "../db/shards";
import { RATELIMIT_HEADER, type QuotaState, stateItem } from "../lib/rate-limit-headers";
import type { AppEnv, User } from "../types";

/**
 * What a service may use, passed as one object (docs/decisions.md, "Dependencies"): the request's D1 session and the
 * Worker's bindings. A service that needs the calling user takes it as an argument of its own: it is input, not a
 * dependency.
 */
export interface Deps {
  db: DB;
  env: Env;
  /** The shard databases (docs/decisions.md, "Shards"); absent in jobs and scripts, which open them plainly (`shardDb`). */
  shards?: Shards;
  /**
   * On a token-bearing read that carries its session check (docs/decisions.md, "One round trip per read"), the check
   * not yet run: a service's first batch takes it along (`batchWith(db, deps.session, [...])`), and `viewer` then
   * knows the user.
   */
  session?: Rider & { user(): Promise<User | undefined> };
  /** The request's id (its log line and error bodies name it): the jobs it queues carry it. */
  requestId?: string;
  /** Hears each rate-limit policy a service counted the request against (src/services/rate-limits.ts). */
  report?: (state: QuotaState) => void;
}

/** The caller: the user given, else the one of a session check that rode along (run alone if it has not). */
export const viewer = async (deps: Deps, user: User | undefined) => user ?? (await deps.session?.user());

/** The dependencies of one request: its D1 session (with the client's bookmark) and the bindings. */
export const depsOf = (c: Context<AppEnv>): Deps => ({
  db: c.get("db"),
  env: c.env,
  shards: c.get("shards"),
  session: c.get("pendingSession"),
  requestId: c.get("requestId"),
  // Every counted policy's state goes on the answer (errors rendered for the request included).
  report: (state) => c.header(RATELIMIT_HEADER, stateItem(state), { append: true }),
});

/** Shard `n`'s database for these dependencies: the request's session when there is one, else the binding itself. */
export const shardDb = (deps: Pick<Deps, "env" | "shards">, shard: number): ShardDB =>
  deps.shards?.db(shard) ?? createShardDb(shardBinding(deps.env, shard));
