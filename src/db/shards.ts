import { drizzle } from "drizzle-orm/d1";
import { type D1Stats, instrument } from "./client";

/** A shard database's drizzle client (its own schema: src/db/shard-schema). */
export type ShardDB = ReturnType<typeof createShardDb>;
export const createShardDb = (d1: D1Database) => drizzle(d1);

/** The binding of shard `n` (docs/decisions.md, "Shards"): SHARD_<n>. A shard the directory names but the Worker lacks is a deploy fault. */
export function shardBinding(env: Env, shard: number): D1Database {
  const binding = (env as unknown as Record<string, unknown>)[`SHARD_${shard}`] as D1Database | undefined;
  if (!binding || typeof binding.prepare !== "function") throw new Error(`no D1 binding SHARD_${shard} for shard ${shard}`);
  return binding;
}

/**
 * The shards one request or job talks to: each opened once, on first use, with the request's session rule (replicas
 * for reads, the primary for writes, the client's bookmark for that shard honoured) and counted in the same D1 stats.
 */
export interface Shards {
  db(shard: number): ShardDB;
  /** `<shard>:<bookmark>` of every shard this request used or the client's bookmark named, for the x-d1-bookmark header. */
  bookmarks(): string[];
}

export function openShards(
  env: Env,
  options: { constraint?: D1SessionConstraint; bookmarks?: Map<number, string>; stats?: D1Stats } = {},
): Shards {
  const open = new Map<number, { db: ShardDB; session?: D1DatabaseSession }>();
  return {
    db(shard) {
      let entry = open.get(shard);
      if (!entry) {
        const binding = shardBinding(env, shard);
        const session = options.constraint ? binding.withSession(options.bookmarks?.get(shard) ?? options.constraint) : undefined;
        const runner = session ?? binding;
        entry = { db: createShardDb(options.stats ? instrument(runner, options.stats) : (runner as D1Database)), session };
        open.set(shard, entry);
      }
      return entry.db;
    },
    bookmarks() {
      const used = [...open].flatMap(([shard, { session }]) => {
        const bookmark = session?.getBookmark();
        return bookmark ? [[shard, bookmark] as const] : [];
      });
      // A shard the client's bookmark named but this request did not use keeps its bookmark: the client's next read
      // there still sees its own writes.
      const carried = [...(options.bookmarks ?? [])].filter(([shard]) => !open.has(shard));
      return [...used, ...carried].sort(([a], [b]) => a - b).map(([shard, bookmark]) => `${shard}:${bookmark}`);
    },
  };
}
