import { z } from "zod";
import type { D1Stats } from "../db/client";
import { STATEMENTS_PER_DELIVERY } from "./define";

/**
 * What a job that continues across deliveries (docs/decisions.md, "Jobs that continue") carries in its params besides
 * its own cursor: its share of statements per delivery, the rows it has copied per table and its cost so far, so its
 * result is the whole job's.
 */
export const ContinuationParams = {
  /** Statements one delivery makes before it checkpoints. */
  statementsPerDelivery: z.number().int().min(10).max(900).default(STATEMENTS_PER_DELIVERY),
  copied: z.record(z.string(), z.number().int()).optional(),
  cost: z.object({ statements: z.number(), rowsRead: z.number(), rowsWritten: z.number(), ms: z.number() }).optional(),
};

type JobCost = NonNullable<z.infer<(typeof ContinuationParams)["cost"]>>;

/** The cost so far: the earlier deliveries' plus this one's (D1's counts since it started). */
export function costSoFar(before: JobCost | undefined, d1: D1Stats, started: number) {
  const prior = before ?? { statements: 0, rowsRead: 0, rowsWritten: 0, ms: 0 };
  return (): JobCost => ({
    statements: prior.statements + d1.queries,
    rowsRead: prior.rowsRead + d1.rowsRead,
    rowsWritten: prior.rowsWritten + d1.rowsWritten,
    ms: prior.ms + Date.now() - started,
  });
}
