import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { handlers, queue } from "../../queues";
import { findJob, insertJob } from "../../src/db/queries/jobs";
import { BATCH_STATEMENTS, BatchBudget, DELIVERY_RESERVE, MIN_SHARE } from "../../src/jobs/batch-budget";
import { consumerOf, ContinueJob, defineJob, STATEMENTS_PER_DELIVERY } from "../../src/jobs/define";
import { db } from "../helpers";

/**
 * One statement budget for a whole queue batch (docs/decisions.md, "Jobs of one batch side by side"): the jobs of a
 * batch run side by side and each continuing job may make STATEMENTS_PER_DELIVERY statements, so four of them could
 * make 1,600 in one invocation, past D1's 1,000. They draw their shares from the batch's BATCH_STATEMENTS instead.
 */

describe("BatchBudget", () => {
  it("gives each delivery its reserve and each continuing job what the batch has left, never past the limit", () => {
    const budget = new BatchBudget();
    const [a, b] = [budget.start()!, budget.start()!];
    expect(a.share(STATEMENTS_PER_DELIVERY)).toBe(STATEMENTS_PER_DELIVERY);
    // 900 - (100 + 400) - 100: what is left after the first's reserve and share and this one's reserve.
    expect(b.share(STATEMENTS_PER_DELIVERY)).toBe(BATCH_STATEMENTS - 2 * DELIVERY_RESERVE - STATEMENTS_PER_DELIVERY);
    expect(budget.committed()).toBe(BATCH_STATEMENTS);
    // No room for a third delivery's reserve: its message waits for the next batch.
    expect(budget.start()).toBeNull();
    // The first ends having made 130 statements: the rest of its reserve and share go back to the batch.
    a.stats.queries = 130;
    budget.end(a);
    const c = budget.start()!;
    expect(c.share(STATEMENTS_PER_DELIVERY)).toBe(BATCH_STATEMENTS - 130 - (DELIVERY_RESERVE + 300) - DELIVERY_RESERVE);
    expect(budget.committed()).toBe(BATCH_STATEMENTS);
  });

  it("grants a small wish whole, and nothing under MIN_SHARE: the job continues in its next delivery instead", () => {
    const budget = new BatchBudget(2 * DELIVERY_RESERVE + MIN_SHARE - 1);
    const [a, b] = [budget.start()!, budget.start()!];
    expect(a.share(20)).toBe(20);
    // MIN_SHARE - 21 left: under MIN_SHARE and under the wish.
    expect(b.share(STATEMENTS_PER_DELIVERY)).toBeNull();
    expect(b.share(MIN_SHARE - 21)).toBe(MIN_SHARE - 21);
  });
});

/** Every statement made through `d1` (its sessions too) counted in `counter`: what D1 counts against an invocation. */
const REAL = new WeakMap<object, D1PreparedStatement>();
function countStatement(stmt: D1PreparedStatement, counter: { n: number }): D1PreparedStatement {
  const counted = {
    bind: (...values: unknown[]) => countStatement(stmt.bind(...values), counter),
    first: (column?: string) => (counter.n++, column === undefined ? stmt.first() : stmt.first(column)),
    all: () => (counter.n++, stmt.all()),
    run: () => (counter.n++, stmt.run()),
    raw: (options?: { columnNames?: false }) => (counter.n++, stmt.raw(options)),
  };
  REAL.set(counted, stmt);
  return counted as unknown as D1PreparedStatement;
}
function counting<T extends D1Database | D1DatabaseSession>(d1: T, counter: { n: number }): T {
  return {
    prepare: (query: string) => countStatement(d1.prepare(query), counter),
    batch: (statements: D1PreparedStatement[]) => {
      counter.n += statements.length;
      return d1.batch(statements.map((s) => REAL.get(s) ?? s));
    },
    withSession: (constraint?: string) => counting((d1 as D1Database).withSession(constraint), counter),
    getBookmark: () => (d1 as D1DatabaseSession).getBookmark(),
    exec: (query: string) => (d1 as D1Database).exec(query),
  } as unknown as T;
}

/** A continuing job that makes `total` statements on a shard, at most its share of them per delivery. */
const TOTAL = 800;
const grinder = defineJob({
  type: "completion",
  params: z.object({ statementsPerDelivery: z.number().int().default(STATEMENTS_PER_DELIVERY), done: z.number().int().default(0) }),
  payload: null,
  async handler({ env: jobEnv, params }) {
    let done = params.done;
    for (let here = 0; done < TOTAL; here++, done++) {
      if (here >= params.statementsPerDelivery) throw new ContinueJob({ done });
      await jobEnv.SHARD_1.prepare("SELECT ? AS n").bind(done).first();
    }
    return { done };
  },
});

const realCompletion = handlers["completion"];
afterEach(() => {
  handlers["completion"] = realCompletion;
});

describe("the jobs consumer with one budget per batch", () => {
  it("keeps every invocation of a batch of continuing jobs within BATCH_STATEMENTS, and every job finishes", async () => {
    handlers["completion"] = consumerOf(grinder);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await insertJob(db(), { type: "completion" }));
    // Sent messages are kept here and delivered below, each batch one invocation of the counted consumer.
    const sent: unknown[] = [];
    const send = vi.spyOn(env.JOBS, "send").mockImplementation(async (body) => {
      sent.push(body);
      return {} as QueueSendResponse;
    });
    const counter = { n: 0 };
    const counted = {
      ...env,
      DB: counting(env.DB, counter),
      SHARD_1: counting(env.SHARD_1, counter),
      SHARD_2: counting(env.SHARD_2, counter),
    };
    const invocations: number[] = [];
    try {
      let waiting: unknown[] = made.map((job) => ({ type: "completion", jobId: job.id }));
      while (waiting.length && invocations.length < 50) {
        const batch = createMessageBatch(
          "media-catalogue-jobs",
          waiting.slice(0, 10).map((body, i) => ({ id: `m${invocations.length}-${i}`, timestamp: new Date(), attempts: 1, body })),
        );
        waiting = waiting.slice(10);
        counter.n = 0;
        const ctx = createExecutionContext();
        await queue(batch, counted as Env);
        const result = await getQueueResult(batch, ctx);
        expect(result.retryMessages).toEqual([]);
        invocations.push(counter.n);
        waiting.push(...sent.splice(0));
        if (invocations.length === 1) {
          // Side by side still: the first batch worked on more than one job (400, and the 100 left beside it).
          const done = await Promise.all(
            made.map(async (job) => ((await findJob(db(), job.id))?.params as { done?: number } | null)?.done ?? 0),
          );
          expect(done.filter((n) => n > 0).length).toBeGreaterThan(1);
          expect(done.reduce((a, b) => a + b, 0)).toBe(BATCH_STATEMENTS - 4 * DELIVERY_RESERVE);
        }
      }
    } finally {
      send.mockRestore();
    }
    for (const job of made) expect(await findJob(db(), job.id)).toMatchObject({ status: "succeeded", result: { done: TOTAL } });
    expect(Math.max(...invocations)).toBeLessThanOrEqual(BATCH_STATEMENTS);
    // 5 × 800 statements, at most 900 an invocation: no fewer than 5 invocations, and not many more.
    expect(invocations.length).toBeGreaterThanOrEqual(5);
    expect(invocations.length).toBeLessThan(15);
  });
});
