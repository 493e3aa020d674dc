import { emptyStats, instrument, type D1Stats } from "../db/client";

/**
 * One statement budget for a whole queue batch (docs/decisions.md, "Jobs of one batch side by side"). A batch is one
 * Worker invocation, and D1 allows an invocation 1,000 queries whatever runs in it; the batch's messages run
 * side by side, so the budget is the batch's, not each job's. Every delivery reserves DELIVERY_RESERVE when it starts
 * (the runner's own statements, and the whole of a job that does not continue), and a job that continues takes its
 * share of statements from what the batch has left (`share`), never more than its own `statementsPerDelivery`.
 */

/** Statements one batch may make: under D1's 1,000 per invocation, with room for what is not counted here. */
export const BATCH_STATEMENTS = 900;
/**
 * Statements a delivery may make besides its share: its claim, progress and lease renewals, its outcome, a continuing
 * job's catalogue statements outside its own count, or all of a job that does not continue (an import: about a dozen
 * catalogue writes and a batch per 500 cues).
 */
export const DELIVERY_RESERVE = 100;
/** Below this, a share would be mostly overhead: the job continues in its next delivery instead. */
export const MIN_SHARE = 50;

export class BatchBudget {
  private finished = 0;
  private readonly running = new Set<DeliveryBudget>();

  constructor(readonly limit = BATCH_STATEMENTS) {}

  /** Statements made by the batch's deliveries, and those the running ones may still make (their reserve and share). */
  committed() {
    let sum = this.finished;
    for (const d of this.running) sum += Math.max(d.stats.queries, d.reserved);
    return sum;
  }

  /** Statements the batch has made so far. */
  spent() {
    let sum = this.finished;
    for (const d of this.running) sum += d.stats.queries;
    return sum;
  }

  /** A delivery starting with its reserve; null when the batch cannot cover even that (the message waits for the next batch). */
  start(): DeliveryBudget | null {
    if (this.committed() + DELIVERY_RESERVE > this.limit) return null;
    const delivery = new DeliveryBudget(this);
    this.running.add(delivery);
    return delivery;
  }

  end(delivery: DeliveryBudget) {
    if (!this.running.delete(delivery)) return;
    this.finished += delivery.stats.queries;
  }
}

export class DeliveryBudget {
  /** Every statement of this delivery: its catalogue session and the bindings its job uses (`countedEnv`). */
  readonly stats: D1Stats = emptyStats();
  reserved = DELIVERY_RESERVE;

  constructor(private readonly batch: BatchBudget) {}

  /**
   * A continuing job's share of statements for this delivery: `wanted` (its own statementsPerDelivery) if the batch has
   * it left, else what is left, or null when that is under MIN_SHARE (and under `wanted`): the job then continues in
   * its next delivery without working in this one.
   */
  share(wanted: number): number | null {
    const room = this.batch.limit - this.batch.committed();
    const granted = Math.min(wanted, room);
    if (granted < Math.min(wanted, MIN_SHARE)) return null;
    this.reserved += granted;
    return granted;
  }
}

/**
 * The bindings a job reaches D1 through, counted in `stats`: the catalogue (`DB`) and every shard (`SHARD_<n>`), so a
 * job that opens a shard itself (a move, a copy, a drain) is counted like the runner's own session.
 */
export function countedEnv(env: Env, stats: D1Stats): Env {
  const counted: Record<string, unknown> = { ...env };
  for (const [name, binding] of Object.entries(env as unknown as Record<string, unknown>)) {
    if ((name === "DB" || /^SHARD_\d+$/.test(name)) && typeof (binding as D1Database)?.prepare === "function") {
      counted[name] = instrument(binding as D1Database, stats);
    }
  }
  return counted as unknown as Env;
}
