import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, count, countDistinct, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { queue } from "../../queues";
import { createDb, emptyStats, instrument } from "../../src/db/client";
import { findJob, insertJob } from "../../src/db/queries/jobs";
import { jobs, notifications, subscriptions } from "../../src/db/schema";
import { fanOutNotification } from "../../src/services/notifications";
import { api, db, signedInUser } from "../helpers";
import { waitForJob } from "../helpers/jobs";
import { createContainer } from "../helpers/catalogue";

const QUEUE = "media-catalogue-jobs";
const SUBSCRIBERS = 1_234;

async function deliver(body: unknown, attempts = 1) {
  const batch = createMessageBatch(QUEUE, [{ id: crypto.randomUUID(), timestamp: new Date(), attempts, body }]);
  const ctx = createExecutionContext();
  await queue(batch, env);
  return getQueueResult(batch, ctx);
}

/** `n` users subscribed to the container (one INSERT ... SELECT each); returns their ids, ascending. */
async function subscribers(containerId: number, n: number, tag: string) {
  const made = await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
     INSERT INTO users (username, email, password_hash) SELECT ?2 || i, ?2 || i || '@example.com', 'x' FROM n RETURNING id`,
  )
    .bind(n, tag)
    .all<{ id: number }>();
  const ids = made.results.map((r) => r.id).sort((a, b) => a - b);
  await env.DB.prepare(
    `INSERT INTO subscriptions (user_id, resource_kind, resource_id) SELECT id, 'c', ?1 FROM users WHERE username LIKE ?2 || '%'`,
  )
    .bind(containerId, tag)
    .run();
  return ids;
}

/** Copies of a job's notification: rows, distinct users, and users holding more than one. */
async function copies(jobId: number) {
  const [row] = await db()
    .select({ rows: count(), users: countDistinct(notifications.userId) })
    .from(notifications)
    .where(eq(notifications.jobId, jobId));
  return row;
}

let manager: Awaited<ReturnType<typeof signedInUser>>;
let channel: Awaited<ReturnType<typeof createContainer>>;
let fans: number[];
let outsider: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  manager = await signedInUser();
  outsider = await signedInUser();
  channel = await createContainer({ title: "Fan-out Channel", managers: [manager.user.id] });
  fans = await subscribers(channel.id, SUBSCRIBERS, `fan${channel.id}x`);
  // Not subscribers of the channel: a subscriber of another container, and of a video with the same number.
  const elsewhere = await createContainer({ title: "Elsewhere" });
  await db()
    .insert(subscriptions)
    .values([
      { userId: outsider.user.id, resourceKind: "c", resourceId: elsewhere.id },
      { userId: outsider.user.id, resourceKind: "v", resourceId: channel.id },
    ]);
});

const params = (content: string, containerId = channel.id) => ({ containerId, senderId: manager.user.id, content });

describe("notification-fanout consumer", () => {
  it("gives each of 1,234 subscribers exactly one copy, in chunks, and nobody else", async () => {
    const job = await insertJob(db(), { type: "notification-fanout", params: params("to every fan"), createdBy: manager.user.id });
    const result = await deliver({ type: "notification-fanout", jobId: job.id });
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toHaveLength(0);
    const done = await findJob(db(), job.id);
    expect(done).toMatchObject({ status: "succeeded", progress: 100, attempts: 1, error: null });
    expect(done?.result).toEqual({ container_id: channel.wireId, recipients: SUBSCRIBERS });
    expect(await copies(job.id)).toEqual({ rows: SUBSCRIBERS, users: SUBSCRIBERS });
    const sample = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.jobId, job.id), eq(notifications.userId, fans[777])))
      .get();
    expect(sample).toMatchObject({ containerId: channel.id, senderId: manager.user.id, content: "to every fan", unread: true });
    expect(sample?.createdAt.getTime()).toBe(job.createdAt.getTime());
    const outsiders = await db().select({ n: count() }).from(notifications).where(eq(notifications.userId, outsider.user.id));
    expect(outsiders[0].n).toBe(0);
  });

  it("walks in keyset chunks, reporting progress, within D1's limits", async () => {
    const job = await insertJob(db(), { type: "notification-fanout", params: params("chunked") });
    const stats = emptyStats();
    const measured = createDb(instrument(env.DB, stats));
    const reported: number[] = [];
    const result = await fanOutNotification(measured, job, params("chunked"), async (p) => void reported.push(p), 100);
    expect(result).toEqual({ container_id: channel.wireId, recipients: SUBSCRIBERS });
    expect(await copies(job.id)).toEqual({ rows: SUBSCRIBERS, users: SUBSCRIBERS });
    // One count, then 13 chunks of at most 100 (the 13th holds 34), each two statements in one batch.
    expect(stats.queries).toBe(1 + 13 * 2);
    expect(reported[0]).toBe(5);
    expect(reported).toEqual([...reported].sort((a, b) => a - b));
    expect(reported.at(-1)).toBe(99);
    console.log(`fan-out of ${SUBSCRIBERS} in chunks of 100: ${stats.rowsRead} rows read, ${stats.rowsWritten} rows written`);
  });

  it("a replay creates no duplicates: a finished job is acked untouched, a crashed one only fills the gaps", async () => {
    const job = await insertJob(db(), { type: "notification-fanout", params: params("replayed") });
    await deliver({ type: "notification-fanout", jobId: job.id });
    const replay = await deliver({ type: "notification-fanout", jobId: job.id });
    expect(replay.explicitAcks).toHaveLength(1);
    expect(await copies(job.id)).toEqual({ rows: SUBSCRIBERS, users: SUBSCRIBERS });

    // A delivery that died after its first chunks: the job is still running and some copies exist.
    const crashed = await insertJob(db(), { type: "notification-fanout", params: params("crashed") });
    await db().update(jobs).set({ status: "running", attempts: 1, progress: 40 }).where(eq(jobs.id, crashed.id));
    await env.DB.prepare(
      `INSERT INTO notifications (user_id, container_id, sender_id, job_id, content)
       SELECT user_id, ?1, ?2, ?3, 'crashed' FROM subscriptions WHERE resource_kind = 'c' AND resource_id = ?1 ORDER BY user_id LIMIT 600`,
    )
      .bind(channel.id, manager.user.id, crashed.id)
      .run();
    const again = await deliver({ type: "notification-fanout", jobId: crashed.id }, 2);
    expect(again.explicitAcks).toHaveLength(1);
    expect(await findJob(db(), crashed.id)).toMatchObject({ status: "succeeded", attempts: 2, result: { recipients: SUBSCRIBERS } });
    expect(await copies(crashed.id)).toEqual({ rows: SUBSCRIBERS, users: SUBSCRIBERS });

    // Running the handler itself twice (no runner bookkeeping) still leaves one copy each.
    await fanOutNotification(db(), crashed, params("crashed"), async () => {});
    expect(await copies(crashed.id)).toEqual({ rows: SUBSCRIBERS, users: SUBSCRIBERS });
  });

  it("a container without subscribers succeeds with no recipients", async () => {
    const quiet = await createContainer({ title: "Quiet", managers: [manager.user.id] });
    const job = await insertJob(db(), { type: "notification-fanout", params: params("anyone?", quiet.id) });
    await deliver({ type: "notification-fanout", jobId: job.id });
    expect(await findJob(db(), job.id)).toMatchObject({ status: "succeeded", result: { container_id: quiet.wireId, recipients: 0 } });
  });

  it("fails at once, without retries, on malformed params or a deleted container", async () => {
    const malformed = await insertJob(db(), { type: "notification-fanout", params: { containerId: channel.id } });
    const a = await deliver({ type: "notification-fanout", jobId: malformed.id });
    expect(a.retryMessages).toHaveLength(0);
    expect(await findJob(db(), malformed.id)).toMatchObject({ status: "failed", error: "malformed notification-fanout parameters" });

    const gone = await insertJob(db(), { type: "notification-fanout", params: params("too late", 999_999_999) });
    await deliver({ type: "notification-fanout", jobId: gone.id });
    expect(await findJob(db(), gone.id)).toMatchObject({ status: "failed", error: "container 999999999c does not exist" });
  });
});

type JobView = { id: string; status: string; progress: number; result: Record<string, unknown> | null };

describe("end to end through the real queue", () => {
  it("POST → 202 → the job succeeds → a subscriber's inbox shows it", async () => {
    const reader = await signedInUser();
    await db().insert(subscriptions).values({ userId: reader.user.id, resourceKind: "c", resourceId: channel.id });
    const res = await api(`/v4/users/${manager.id}/notifications.json?container_id=${channel.wireId}&token=${manager.token}`, {
      method: "POST",
      json: { content: "Season finale tonight" },
    });
    expect(res.status).toBe(202);
    const { job } = (await res.json()) as { job: JobView };
    const done = await waitForJob(job.id, manager.token);
    expect(done).toMatchObject({
      status: "succeeded",
      progress: 100,
      result: { container_id: channel.wireId, recipients: SUBSCRIBERS + 1 },
    });
    // Someone else's job is not found.
    expect((await api(`/v4/jobs/${job.id}.json?token=${reader.token}`)).status).toBe(404);

    const inbox = (await (await api(`/v4/users/${reader.id}/notifications.json?unread=true&token=${reader.token}`)).json()) as {
      response: Array<{ content: string; unread: boolean; container: { id: string }; sender: { id: string } }>;
    };
    expect(inbox.response).toHaveLength(1);
    expect(inbox.response[0]).toMatchObject({
      content: "Season finale tonight",
      unread: true,
      container: { id: channel.wireId },
      sender: { id: manager.id },
    });
    const count = await api(`/v4/users/${reader.id}/notifications.json?unread=true&only_count=true&token=${reader.token}`);
    expect(await count.json()).toEqual({ count: 1 });
  });
});
