import { z } from "zod";
import { createShardDb, shardBinding } from "../db/shards";
import { ContinueJob, PermanentJobError, STATEMENTS_PER_DELIVERY } from "./define";

/**
 * What every job that walks one shard's rows takes (docs/decisions.md, "Jobs that continue"): the shard, optionally one
 * container's rows only, and the statements one delivery makes before it checkpoints. A job adds its own `progress`.
 */
export const shardWalkParams = {
  shard: z.number().int().positive(),
  /** One container's rows only; every row of the shard when absent. */
  containerId: z.number().int().positive().optional(),
  /** Statements one delivery makes before it checkpoints. */
  statementsPerDelivery: z.number().int().min(2).max(900).default(STATEMENTS_PER_DELIVERY),
};

/** A job's shard database; a shard with no binding is a permanent failure (retrying cannot bind it). */
export function jobShard(env: Env, shard: number, wrap: (binding: D1Database) => D1Database = (b) => b) {
  try {
    return createShardDb(wrap(shardBinding(env, shard)));
  } catch (err) {
    throw new PermanentJobError(err instanceof Error ? err.message : String(err));
  }
}

/**
 * The checkpoint a walk calls before each step of `statements` statements: once the delivery's share is spent it
 * stops the delivery with the progress so far, which the next delivery resumes from (the runner has already cut
 * `statementsPerDelivery` to this delivery's share of its batch).
 */
export function deliveryShare<P>(statementsPerDelivery: number, statements: number) {
  let spent = 0;
  return (sofar: P) => {
    if (spent + statements > statementsPerDelivery) throw new ContinueJob({ progress: sofar });
    spent += statements;
  };
}
