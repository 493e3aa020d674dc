import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { queue } from "../../queues";
import { findJob, insertJob } from "../../src/db/queries/jobs";
import { jobs, listItems, lists } from "../../src/db/schema";
import { INLINE_PAYLOAD_LIMIT, MAX_LIST_ITEMS } from "../../src/services/lists";
import { api, db, errorBody, rowsRead, signedInUser } from "../helpers";
import { waitForJob } from "../helpers/jobs";
import { createContainer, createVideo } from "../helpers/catalogue";

const QUEUE = "media-catalogue-jobs";

async function deliver(body: unknown, attempts = 1) {
  const batch = createMessageBatch(QUEUE, [{ id: crypto.randomUUID(), timestamp: new Date(), attempts, body }]);
  const ctx = createExecutionContext();
  await queue(batch, env);
  return getQueueResult(batch, ctx);
}

async function newList() {
  const [list] = await db().insert(lists).values({}).returning();
  return list.id;
}

/** The list's items as wire ids, in position order. */
async function storedItems(listId: number) {
  const rows = await db().select().from(listItems).where(eq(listItems.listId, listId)).orderBy(asc(listItems.position)).all();
  return rows.map((r) => `${r.resourceId}${r.resourceKind}`);
}

async function runListEdit(listId: number, ids: string[]) {
  const job = await insertJob(db(), { type: "list-edit", params: { listId, ids } });
  const result = await deliver({ type: "list-edit", jobId: job.id });
  return { job, result };
}

let c1: string, c2: string, hiddenContainer: string, v1: string, pendingVideo: string, orphan: string;
let staff: Awaited<ReturnType<typeof signedInUser>>;
let member: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  staff = await signedInUser({ staff: true });
  member = await signedInUser();
  const a = await createContainer({ title: "Edit A" });
  const b = await createContainer({ type: "film", title: "Edit B" });
  const hidden = await createContainer({ state: "blocked" });
  c1 = a.wireId;
  c2 = b.wireId;
  hiddenContainer = hidden.wireId;
  v1 = (await createVideo(a.id, { number: 1 })).wireId;
  pendingVideo = (await createVideo(a.id, { number: 2, state: "pending" })).wireId;
  orphan = (await createVideo(hidden.id, { number: 1 })).wireId;
});

describe("list-edit consumer", () => {
  it("replaces the items in the order given and reports every skipped id with its reason", async () => {
    const listId = await newList();
    await db()
      .insert(listItems)
      .values({ listId, position: 1, resourceKind: "c", resourceId: Number.parseInt(c2, 10) });
    const ids = [v1, "abc", c2, "999999999c", hiddenContainer, v1, pendingVideo, orphan, c1, "12x", "999999999v", c2, "01c"];
    const { job, result } = await runListEdit(listId, ids);
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toHaveLength(0);
    const done = await findJob(db(), job.id);
    expect(done).toMatchObject({ status: "succeeded", progress: 100, attempts: 1, error: null });
    expect(done?.result).toEqual({
      list_id: `${listId}l`,
      items: 3,
      skipped: [
        { id: "abc", reason: "malformed" },
        { id: "999999999c", reason: "not found" },
        { id: hiddenContainer, reason: "not normal" },
        { id: v1, reason: "duplicate" },
        { id: pendingVideo, reason: "not normal" },
        { id: orphan, reason: "not normal" },
        { id: "12x", reason: "malformed" },
        { id: "999999999v", reason: "not found" },
        { id: c2, reason: "duplicate" },
        { id: "01c", reason: "malformed" },
      ],
    });
    expect(await storedItems(listId)).toEqual([v1, c2, c1]);
  });

  it("acks a replay of a succeeded job without running it again", async () => {
    const listId = await newList();
    const { job } = await runListEdit(listId, [c1, c2]);
    // Changed behind the job's back: a replay that re-ran the edit would put the items back.
    await db().delete(listItems).where(eq(listItems.listId, listId));
    const replay = await deliver({ type: "list-edit", jobId: job.id });
    expect(replay.explicitAcks).toHaveLength(1);
    expect(await storedItems(listId)).toEqual([]);
    expect(await findJob(db(), job.id)).toMatchObject({ status: "succeeded", attempts: 1 });
  });

  it("a replay after a crash mid-way produces the same final list", async () => {
    const listId = await newList();
    const ids = [c2, v1, c1];
    const job = await insertJob(db(), { type: "list-edit", params: { listId, ids } });
    // The first delivery died after writing part of the list and before the job was finished.
    await db().update(jobs).set({ status: "running", attempts: 1, progress: 50 }).where(eq(jobs.id, job.id));
    await db()
      .insert(listItems)
      .values({ listId, position: 1, resourceKind: "c", resourceId: Number.parseInt(c2, 10) });
    const result = await deliver({ type: "list-edit", jobId: job.id }, 2);
    expect(result.explicitAcks).toHaveLength(1);
    expect(await storedItems(listId)).toEqual([c2, v1, c1]);
    expect(await findJob(db(), job.id)).toMatchObject({ status: "succeeded", attempts: 2, result: { items: 3, skipped: [] } });
    // And running the same edit again changes nothing.
    await runListEdit(listId, ids);
    expect(await storedItems(listId)).toEqual([c2, v1, c1]);
  });

  it("writes long lists in chunks, keeping the order", async () => {
    const container = await createContainer({ title: "Long list" });
    const videoIds: string[] = [];
    for (let i = 0; i < 45; i++) videoIds.push((await createVideo(container.id, { number: i + 1 })).wireId);
    const listId = await newList();
    const ids = [...videoIds].reverse();
    const { job } = await runListEdit(listId, ids);
    expect((await findJob(db(), job.id))?.result).toMatchObject({ items: 45, skipped: [] });
    expect(await storedItems(listId)).toEqual(ids);
    // A public page of 25 reads the list walk and the page's rows, well inside the 200-row page budget.
    const res = await api(`/v4/lists/${listId}l.json`);
    const body = (await res.json()) as { more: boolean; response: Array<{ id: string }> };
    expect(body.response.map((v) => v.id)).toEqual(ids.slice(0, 25));
    expect(body.more).toBe(true);
    expect(rowsRead(res)).toBeLessThanOrEqual(200);
  });

  it("reads large id arrays from R2 under the job's payloadKey", async () => {
    const listId = await newList();
    const job = await insertJob(db(), { type: "list-edit", params: { listId } });
    const key = `jobs/${job.id}/payload.json`;
    await env.SUBTITLES.put(key, JSON.stringify({ ids: [c1, v1] }));
    await db().update(jobs).set({ payloadKey: key }).where(eq(jobs.id, job.id));
    const result = await deliver({ type: "list-edit", jobId: job.id });
    expect(result.explicitAcks).toHaveLength(1);
    expect(await storedItems(listId)).toEqual([c1, v1]);
  });

  it("fails at once, without retries, when the list or the input is gone", async () => {
    const missingList = await insertJob(db(), { type: "list-edit", params: { listId: 999_999_999, ids: [c1] } });
    const a = await deliver({ type: "list-edit", jobId: missingList.id });
    expect(a.explicitAcks).toHaveLength(1);
    expect(await findJob(db(), missingList.id)).toMatchObject({ status: "failed", error: "list 999999999l does not exist" });

    const lostPayload = await insertJob(db(), { type: "list-edit", params: { listId: await newList() }, payloadKey: "jobs/0/none.json" });
    await deliver({ type: "list-edit", jobId: lostPayload.id });
    expect(await findJob(db(), lostPayload.id)).toMatchObject({ status: "failed", error: "payload jobs/0/none.json is missing" });

    // 2l and 6l are derived from the catalogue: a job queued for them (e.g. before they were) writes nothing.
    for (const listId of [2, 6]) {
      const derived = await insertJob(db(), { type: "list-edit", params: { listId, ids: [c1] } });
      await deliver({ type: "list-edit", jobId: derived.id });
      expect(await findJob(db(), derived.id)).toMatchObject({
        status: "failed",
        error: `list ${listId}l is derived from the catalogue and cannot be edited`,
      });
      expect(await storedItems(listId)).toEqual([]);
    }

    const malformed = await insertJob(db(), { type: "list-edit", params: { ids: "nope" } });
    const b = await deliver({ type: "list-edit", jobId: malformed.id });
    expect(b.retryMessages).toHaveLength(0);
    expect(await findJob(db(), malformed.id)).toMatchObject({ status: "failed", error: "malformed list-edit parameters" });
  });
});

type JobBody = {
  job: { id: string; type: string; status: string; progress: number; result: Record<string, unknown> | null; url: { api: string } };
};

describe("PUT /v4/lists/<id>.json", () => {
  it("needs a token (401) of a staff user (403)", async () => {
    const listId = await newList();
    const anonymous = await api(`/v4/lists/${listId}l.json`, { method: "PUT", json: { videos: [c1] } });
    expect(anonymous.status).toBe(401);
    expect((await errorBody(anonymous)).vcode).toBe(4500);
    const other = await api(`/v4/lists/${listId}l.json?token=${member.token}`, { method: "PUT", json: { videos: [c1] } });
    expect(other.status).toBe(403);
    expect((await errorBody(other)).vcode).toBe(5403);
    expect(await storedItems(listId)).toEqual([]);
  });

  it("404s missing and malformed list ids", async () => {
    for (const id of ["999999999l", "1c", "x"]) {
      const res = await api(`/v4/lists/${id}.json?token=${staff.token}`, { method: "PUT", json: { videos: [c1] } });
      expect(res.status).toBe(404);
    }
  });

  it("refuses bad bodies with 400 naming the field", async () => {
    const listId = await newList();
    const tooMany = Array.from({ length: MAX_LIST_ITEMS + 1 }, (_, i) => `${i + 1}v`);
    for (const json of [
      {},
      { videos: { 0: "1v" } },
      { videos: [true] },
      { videos: [{ id: "1v" }] },
      { videos: tooMany },
      { titles: { en: "x" } },
    ]) {
      const res = await api(`/v4/lists/${listId}l.json?token=${staff.token}`, { method: "PUT", json });
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      const err = await errorBody(res);
      expect(err.details?.some((d) => d.field.startsWith("videos"))).toBe(true);
    }
    // Unknown fields are ignored and named in x-ignored-fields; a lone id is read as a one-item array.
    const extra = await api(`/v4/lists/${listId}l.json?token=${staff.token}`, { method: "PUT", json: { videos: [], titles: {} } });
    expect(extra.status).toBe(202);
    expect(extra.headers.get("x-ignored-fields")).toBe("titles");
    const lone = await api(`/v4/lists/${listId}l.json?token=${staff.token}`, { method: "PUT", json: { videos: c1 } });
    expect(lone.status).toBe(202);
    expect(lone.headers.get("x-ignored-fields")).toBeNull();
  });

  it("queues a list-edit job that the queue consumer runs: 202, then the new order (built-in list 1l too)", async () => {
    for (const listId of [`${await newList()}l`, "1l"]) {
      const res = await api(`/v4/lists/${listId}.json?token=${staff.token}`, {
        method: "PUT",
        json: { videos: [v1, c2, "bogus", c1, v1] },
      });
      expect(res.status).toBe(202);
      const { job } = (await res.json()) as JobBody;
      expect(job).toMatchObject({ type: "list-edit", status: "queued", progress: 0 });
      expect(job.url.api).toBe(`https://api.test/v4/jobs/${job.id}.json`);

      const done = await waitForJob(job.id, staff.token);
      expect(done).toMatchObject({
        status: "succeeded",
        progress: 100,
        result: {
          list_id: listId,
          items: 3,
          skipped: [
            { id: "bogus", reason: "malformed" },
            { id: v1, reason: "duplicate" },
          ],
        },
      });
      const list = (await (await api(`/v4/lists/${listId}.json`)).json()) as { response: Array<{ id: string; type: string }> };
      expect(list.response.map((i) => [i.id, i.type])).toEqual([
        [v1, "episode"],
        [c2, "film"],
        [c1, "series"],
      ]);
    }
  });

  it("puts large id arrays in R2 and still applies them", async () => {
    const listId = await newList();
    const filler = Array.from({ length: 900 }, (_, i) => `${900_000_000 + i}v`);
    const videos = [c2, ...filler, c1];
    expect(JSON.stringify(videos).length).toBeGreaterThan(INLINE_PAYLOAD_LIMIT);
    const res = await api(`/v4/lists/${listId}l.json?token=${staff.token}`, { method: "PUT", json: { videos } });
    expect(res.status).toBe(202);
    const { job } = (await res.json()) as JobBody;
    const row = await findJob(db(), Number.parseInt(job.id, 10));
    expect(row?.payloadKey).toBe(`jobs/${row?.id}/payload.json`);
    expect(row?.params).toEqual({ listId });
    expect(await (await env.SUBTITLES.get(row!.payloadKey!))?.json()).toEqual({ ids: videos });

    const done = await waitForJob(job.id, staff.token);
    expect(done.status).toBe("succeeded");
    expect(done.result).toMatchObject({ items: 2 });
    expect((done.result?.skipped as unknown[]).length).toBe(900);
    expect(await storedItems(listId)).toEqual([c2, c1]);
  });
});
