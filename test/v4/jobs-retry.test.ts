// POST /v4/jobs/<id>/retry.json (docs/api.md, "Jobs (v4)"): staff run a failed job again, the same row back in the
// queue as a new attempt, run by the real queue consumer.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { queue } from "../../queues";
import { findJob, insertJob } from "../../src/db/queries/jobs";
import { jobs, listItems, lists } from "../../src/db/schema";
import { enqueue, jobTypes } from "../../src/jobs";
import { completion } from "../../src/jobs/completion";
import { listEdit } from "../../src/jobs/list-edit";
import { retryJob } from "../../src/jobs/retry";
import { api, createApplication, db, errorBody, signedInUser } from "../helpers";
import { createContainer } from "../helpers/catalogue";
import { waitForJob, type JobWire } from "../helpers/jobs";
import { expectRefused } from "../helpers/write-authz";

type Signed = Awaited<ReturnType<typeof signedInUser>>;
type Job = JobWire & { created_at: string; started_at: string | null; finished_at: string | null };

const RETRY = { op: "POST /v4/jobs/{job_id}/retry.json" };
const retryPath = (id: string | number) => `/v4/jobs/${typeof id === "number" ? `${id}j` : id}/retry.json`;

let staff: Signed;
let member: Signed;
let other: Signed;
let container: string;

beforeAll(async () => {
  staff = await signedInUser({ staff: true });
  member = await signedInUser();
  other = await signedInUser();
  container = (await createContainer({ title: "Retry target" })).wireId;
});

async function retry(id: string | number, token = staff.token) {
  return api(retryPath(id), { method: "POST", token });
}

async function retried(id: number) {
  const res = await retry(id);
  expect(res.status, await res.clone().text()).toBe(202);
  return { res, job: ((await res.json()) as { job: Job }).job };
}

/** A job row in `status`, started by `member`. */
async function jobIn(status: "queued" | "running" | "succeeded" | "failed", values: Partial<typeof jobs.$inferInsert> = {}) {
  const job = await insertJob(db(), { type: "completion", params: { videoIds: [], containerIds: [] }, createdBy: member.user.id });
  await db()
    .update(jobs)
    .set({ status, ...(status === "failed" ? { error: "boom", attempts: 6 } : {}), ...values })
    .where(eq(jobs.id, job.id));
  return job.id;
}

async function deadLetter(jobId: number) {
  const batch = createMessageBatch(env.JOBS_DEAD_LETTER_QUEUE, [
    { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { type: "completion", jobId } },
  ]);
  await queue(batch, env);
  return getQueueResult(batch, createExecutionContext());
}

describe(`${RETRY.op}: a failed job runs again`, () => {
  it("as the same job, through the real consumer, and succeeds once its cause is gone", async () => {
    // A list-edit job whose list is gone: the consumer fails it at once.
    const [list] = await db().insert(lists).values({}).returning();
    await db().delete(lists).where(eq(lists.id, list.id));
    const queued = await enqueue({ db: db(), env }, listEdit, { listId: list.id, ids: [container] }, { createdBy: member.user.id });
    const failed = await waitForJob(`${queued.id}j`, member.token);
    expect(failed).toMatchObject({ status: "failed", error: `list ${list.id}l does not exist`, attempts: 1 });
    const before = (await findJob(db(), queued.id))!;

    await db().insert(lists).values({ id: list.id });
    const { res, job } = await retried(queued.id);
    expect(res.headers.get("ratelimit-policy")).toContain('"writes-catalogue"');
    expect(job).toMatchObject({
      id: `${queued.id}j`,
      type: "list-edit",
      status: "queued",
      attempts: 0,
      progress: 0,
      error: null,
      result: null,
      started_at: null,
      finished_at: null,
    });
    expect(job.created_at).toBe(new Date(before.createdAt).toISOString().replace(/\.000Z$/, "Z"));

    // Retrying twice quickly: the second finds it no longer failed.
    const again = await retry(queued.id);
    expect(again.status).toBe(409);
    expect((await errorBody(again)).error).toMatch(new RegExp(`^job ${queued.id}j is (queued|running|succeeded): only a failed job`));

    const done = await waitForJob(`${queued.id}j`, member.token);
    expect(done).toMatchObject({ status: "succeeded", attempts: 1, error: null, result: { list_id: `${list.id}l`, items: 1 } });
    const row = (await findJob(db(), queued.id))!;
    expect(row).toMatchObject({ params: before.params, createdBy: member.user.id, type: "list-edit" });
    const items = await db().select().from(listItems).where(eq(listItems.listId, list.id)).all();
    expect(items.map((i) => `${i.resourceId}${i.resourceKind}`)).toEqual([container]);

    await expectRefused(await retry(queued.id), "a succeeded job", 409, 5409);
  });

  it("and fails again, with the same reason, when its cause remains", async () => {
    const queued = await enqueue({ db: db(), env }, completion, { videoIds: "nope" } as never, { createdBy: member.user.id });
    expect(await waitForJob(`${queued.id}j`, member.token)).toMatchObject({ status: "failed", error: "malformed completion parameters" });
    await retried(queued.id);
    expect(await waitForJob(`${queued.id}j`, member.token)).toMatchObject({
      status: "failed",
      attempts: 1,
      error: "malformed completion parameters",
    });
  });

  it("after the dead-letter queue failed it: the mark is cleared and the job runs", async () => {
    const id = await jobIn("running", { error: "D1 is busy", attempts: 6 });
    expect((await deadLetter(id)).explicitAcks).toHaveLength(1);
    const dead = (await findJob(db(), id))!;
    expect(dead).toMatchObject({ status: "failed", error: "failed after 6 attempts: D1 is busy" });
    expect(dead.deadLetteredAt).toBeInstanceOf(Date);

    await retried(id);
    expect((await findJob(db(), id))!.deadLetteredAt).toBeNull();
    expect(await waitForJob(`${id}j`, member.token)).toMatchObject({ status: "succeeded", attempts: 1, error: null });
  });

  it("only while its upload is still there: a deleted one is 409, a kept one runs", async () => {
    const [list] = await db().insert(lists).values({}).returning();
    const job = await insertJob(db(), { type: "list-edit", params: { listId: list.id }, createdBy: member.user.id });
    const key = `jobs/${job.id}/payload.json`;
    await db()
      .update(jobs)
      .set({ status: "failed", error: "could not enqueue: queue unavailable", payloadKey: key })
      .where(eq(jobs.id, job.id));

    const gone = await retry(job.id);
    await expectRefused(gone, "an upload deleted", 409, 5409);
    expect((await errorBody(await retry(job.id))).error).toContain(`upload (${key}) was deleted`);
    expect((await findJob(db(), job.id))!.status).toBe("failed");

    await env.SUBTITLES.put(key, JSON.stringify({ ids: [container] }));
    await retried(job.id);
    expect(await waitForJob(`${job.id}j`, member.token)).toMatchObject({ status: "succeeded", result: { items: 1 } });
  });

  it("a send that fails fails the job again, saying so", async () => {
    const id = await jobIn("failed");
    const refusing = { ...env, JOBS: { send: async () => Promise.reject(new Error("queue unavailable")) } } as unknown as Env;
    await expect(retryJob({ db: db(), env: refusing }, staff.user, id, jobTypes)).rejects.toThrow("queue unavailable");
    expect(await findJob(db(), id)).toMatchObject({ status: "failed", error: "could not enqueue: queue unavailable" });
  });
});

describe(`${RETRY.op}: refusals`, () => {
  it("a job that is not failed is 409 naming its state, and stays as it was", async () => {
    for (const status of ["queued", "running", "succeeded"] as const) {
      const id = await jobIn(status);
      const res = await retry(id);
      await expectRefused(res.clone(), status, 409, 5409);
      expect((await errorBody(res)).error).toBe(`job ${id}j is ${status}: only a failed job can be retried`);
      expect((await findJob(db(), id))!.status).toBe(status);
    }
  });

  it("a type this version no longer runs is 409", async () => {
    const id = await jobIn("failed", { type: "retired-type" });
    const res = await retry(id);
    await expectRefused(res.clone(), "a retired type", 409, 5409);
    expect((await errorBody(res)).error).toContain("retired-type");
  });

  it("unknown and malformed ids are 404", async () => {
    await expectRefused(await retry(999_999_999), "unknown", 404, 404);
    await expectRefused(await retry("12x"), "malformed", 404, 404);
    await expectRefused(await retry("abc"), "malformed", 404, 404);
  });

  it("staff only: no token 401, the job's own creator and another user 403, a bad signature 401; the job stays failed", async () => {
    const id = await jobIn("failed");
    await expectRefused(await api(retryPath(id), { method: "POST" }), "no token", 401, 4500);
    await expectRefused(await retry(id, member.token), "the job's creator", 403, 5403);
    await expectRefused(await retry(id, other.token), "another user", 403, 5403);
    // A user signing with an official application is still not staff; a token with a forged signature is refused first.
    const official = await createApplication({ official: true });
    await expectRefused(
      await api(retryPath(id), { method: "POST", token: member.token, app: official.wireId }),
      "signed, not staff",
      403,
      5403,
    );
    const forged = await api(retryPath(id), {
      method: "POST",
      token: staff.token,
      app: official.wireId,
      headers: { timestamp: String(Math.floor(Date.now() / 1000)), signature: "0".repeat(40) },
    });
    await expectRefused(forged, "a forged signature", 401, 4);
    // Someone else's job looks missing to its readers, not to staff: only staff get this far.
    expect((await api(`/v4/jobs/${id}j.json`, { token: other.token })).status).toBe(404);
    expect(await findJob(db(), id)).toMatchObject({ status: "failed", attempts: 6, error: "boom" });
    // Staff need no application (unsigned, or a partner's): the token is the credential.
    const partner = await createApplication();
    const ok = await api(retryPath(id), { method: "POST", token: staff.token, app: partner.wireId, unsigned: true });
    expect(ok.status).toBe(202);
  });
});
