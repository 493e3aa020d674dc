// docs/decisions.md, "Who hears what": job.succeeded / job.failed go to the application that started the job with a signed request;
// an SRT import records one subtitles.updated after its last chunk (once, whatever its deliveries: docs/decisions.md,
// "Subtitles on the shards"), and its completion job one completion.updated per video and container whose percentages
// changed.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { findJob } from "../../src/db/queries/jobs";
import { jobs, lists, webhookEndpoints, webhookEvents } from "../../src/db/schema";
import { IMPORT_CHUNK_ROWS } from "../../src/services/subtitles";
import { api, createApplication, createUser, db, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { deliver, importJob, localisationCounts, makeCues, srtOf, waitForJob } from "../helpers/subtitles";
import { addEndpoint, deliveredTo, eventRows, eventsWhere, onlyEvent } from "./events-helpers";

type App = Awaited<ReturnType<typeof createApplication>>;
type Signed = Awaited<ReturnType<typeof signedInUser>>;
let manager: Signed, staff: Signed;
/** `a` and `b` are official with endpoints; `silent` is official without any; `partner` is not official. */
let a: App, b: App, silent: App, partner: App;
let aEndpoint: typeof webhookEndpoints.$inferSelect;
let bEndpoint: typeof webhookEndpoints.$inferSelect;
let partnerEndpoint: typeof webhookEndpoints.$inferSelect;
let containerId: number;

beforeAll(async () => {
  [manager, staff] = await Promise.all([signedInUser(), signedInUser({ staff: true })]);
  [a, b, silent, partner] = await Promise.all([
    createApplication({ official: true }),
    createApplication({ official: true }),
    createApplication({ official: true }),
    createApplication(),
  ]);
  aEndpoint = await addEndpoint(a.id, ["job.succeeded", "job.failed", "subtitles.updated", "completion.updated"]);
  bEndpoint = await addEndpoint(b.id, ["job.succeeded", "job.failed"]);
  partnerEndpoint = await addEndpoint(partner.id, ["job.succeeded", "job.failed"]);
  containerId = (await createContainer({ managers: [manager.user.id] })).id;
});

const jobId = (wire: string) => Number.parseInt(wire, 10);

async function importAs(app: App, videoWireId: string, content: string, language = "fr") {
  const res = await api(`/v4/videos/${videoWireId}/subtitles/import_srt.json?app=${app.wireId}&token=${manager.token}`, {
    method: "POST",
    json: { language, content },
  });
  expect(res.status).toBe(202);
  const { job } = (await res.json()) as { job: { id: string } };
  return waitForJob(job.id, manager.token);
}

describe("an SRT import started by an official application", () => {
  it("records job.succeeded for that application only, one subtitles.updated, then completion.updated", async () => {
    const v = await createVideo(containerId);
    const content = srtOf(makeCues(3, "Bonjour"));
    const job = await importAs(a, v.wireId, content);
    expect(job.status).toBe("succeeded");
    expect((await findJob(db(), jobId(job.id)))?.applicationId).toBe(a.id);

    const succeeded = await onlyEvent("job.succeeded", { job_id: job.id });
    expect(succeeded.event.applicationId).toBe(a.id);
    expect(succeeded.data).toMatchObject({
      job_type: "srt-import",
      status: "succeeded",
      url: `${env.API_ORIGIN}/v4/jobs/${job.id}.json`,
      result: { created: 3, completion_job: job.result?.completion_job },
      error: null,
    });
    // b is subscribed to job.succeeded too, but did not start the job.
    expect(await deliveredTo(succeeded.event.id)).toEqual([aEndpoint.id]);

    const subtitles = await onlyEvent("subtitles.updated", { video_id: v.wireId });
    expect(subtitles.data).toEqual({
      video_id: v.wireId,
      container_id: `${containerId}c`,
      language: "fr",
      cause: "import",
      video_url: `${env.API_ORIGIN}/v4/videos/${v.wireId}.json`,
      subtitles_url: `${env.API_ORIGIN}/v4/videos/${v.wireId}/subtitles/fr.srt`,
    });
    expect(await deliveredTo(subtitles.event.id)).toEqual([aEndpoint.id]);

    // The completion job is the import's own step: no application, so no job event of its own.
    const completionJob = String(job.result?.completion_job);
    expect((await waitForJob(completionJob, manager.token)).result).toMatchObject({ completion_events: 2 });
    expect((await findJob(db(), jobId(completionJob)))?.applicationId).toBeNull();
    expect(await eventsWhere("job.succeeded", { job_id: completionJob })).toEqual([]);
    const video = await onlyEvent("completion.updated", { id: v.wireId });
    expect(video.data).toEqual({
      resource_type: "video",
      id: v.wireId,
      url: `${env.API_ORIGIN}/v4/videos/${v.wireId}.json`,
      completions_url: `${env.API_ORIGIN}/v4/subtitle_completions.json?video_ids=${v.wireId}`,
    });
    expect(await deliveredTo(video.event.id)).toEqual([aEndpoint.id]);
    const container = await onlyEvent("completion.updated", { id: `${containerId}c` });
    expect(container.data).toEqual({
      resource_type: "container",
      id: `${containerId}c`,
      url: `${env.API_ORIGIN}/v4/containers/${containerId}c.json`,
      completions_url: `${env.API_ORIGIN}/v4/subtitle_completions.json?container_id=${containerId}c`,
    });

    // The same file again changes no text and no percentage: a job event, nothing else.
    const again = await importAs(a, v.wireId, content);
    await onlyEvent("job.succeeded", { job_id: again.id });
    expect(await eventsWhere("subtitles.updated", { video_id: v.wireId })).toHaveLength(1);
    expect((await waitForJob(String(again.result?.completion_job), manager.token)).result).toMatchObject({ completion_events: 0 });
    expect(await eventsWhere("completion.updated", { id: v.wireId })).toHaveLength(1);
    expect(await eventsWhere("completion.updated", { id: `${containerId}c` })).toHaveLength(1);
  });

  it("a broken file: job.failed with the error, and no subtitles.updated", async () => {
    const v = await createVideo(containerId);
    const job = await importAs(a, v.wireId, "1\nnot a timing line\nhello\n");
    expect(job.status).toBe("failed");
    const failed = await onlyEvent("job.failed", { job_id: job.id });
    expect(failed.data).toMatchObject({ status: "failed", result: null, error: job.error });
    expect(await deliveredTo(failed.event.id)).toEqual([aEndpoint.id]);
    expect(await eventsWhere("subtitles.updated", { video_id: v.wireId })).toEqual([]);
  });

  it("an application without endpoints: the job names it, but no event is recorded", async () => {
    const v = await createVideo(containerId);
    const job = await importAs(silent, v.wireId, srtOf(makeCues(2, "Hola")), "es");
    expect((await findJob(db(), jobId(job.id)))?.applicationId).toBe(silent.id);
    expect(await db().select().from(webhookEvents).where(eq(webhookEvents.applicationId, silent.id)).all()).toEqual([]);
    // The catalogue event does not depend on who imported.
    await onlyEvent("subtitles.updated", { video_id: v.wireId, language: "es" });
  });
});

/**
 * The jobs binding with a catalogue that fails the import's event: the statement that records it throws, as D1 would
 * if the delivery died after the shard's last chunk committed and before the catalogue write that follows it.
 */
function eventlessEnv(): Env {
  const failing = (session: D1DatabaseSession) =>
    new Proxy(session, {
      get(s, k) {
        const value = Reflect.get(s, k);
        if (k !== "prepare") return typeof value === "function" ? value.bind(s) : value;
        return (query: string) => {
          if (query.includes("INSERT INTO webhook_events")) throw new Error("D1 is unavailable");
          return s.prepare(query);
        };
      },
    });
  const DB = new Proxy(env.DB, {
    get(target, key) {
      if (key !== "withSession") return Reflect.get(target, key);
      return (...args: unknown[]) => failing(target.withSession(...(args as [string])));
    },
  });
  return { ...env, DB } as Env;
}

/**
 * A finished import made to look as if its delivery had died before finishing it: running, its upload still in R2,
 * and its lease run out (until then the dead delivery still holds the job: docs/decisions.md, "Exclusive claims").
 */
async function unfinished(jobId: number, payloadKey: string, content: string) {
  await env.SUBTITLES.put(payloadKey, content);
  await db()
    .update(jobs)
    .set({ status: "running", leaseUntil: new Date(Date.now() - 1000) })
    .where(eq(jobs.id, jobId));
}

describe("subtitles.updated: once per import, after its last chunk", () => {
  it(`an import of several chunks (${IMPORT_CHUNK_ROWS} rows each) records one event; a replay records none`, async () => {
    const userId = (await createUser()).user.id;
    const v = await createVideo(containerId);
    const content = srtOf(makeCues(2 * IMPORT_CHUNK_ROWS + 10, "ligne"));
    const job = await importJob(userId, v.id, "it", content);
    await deliver({ type: "srt-import", jobId: job.id });
    expect((await findJob(db(), job.id))?.status).toBe("succeeded");
    await onlyEvent("subtitles.updated", { video_id: v.wireId, language: "it" });

    // As if that delivery had died after recording the event but before finishing the job (its upload still there):
    // the next one finds every chunk written and the event recorded.
    await unfinished(job.id, job.payloadKey, content);
    await deliver({ type: "srt-import", jobId: job.id }, { attempts: 2 });
    const replayed = await findJob(db(), job.id);
    expect(replayed?.status).toBe("succeeded");
    expect(replayed?.result).toMatchObject({ created: 2 * IMPORT_CHUNK_ROWS + 10, rows_written: 0 });
    await onlyEvent("subtitles.updated", { video_id: v.wireId, language: "it" });
  });

  it("a delivery that dies between the shard's last chunk and the event: the next one records it, once", async () => {
    const userId = (await createUser()).user.id;
    const v = await createVideo(containerId);
    const cues = 2 * IMPORT_CHUNK_ROWS + 10;
    const content = srtOf(makeCues(cues, "riga"));
    const job = await importJob(userId, v.id, "it", content);
    const crashed = await deliver({ type: "srt-import", jobId: job.id }, { env: eventlessEnv() });
    expect(crashed.retryMessages).toHaveLength(1);
    expect(await findJob(db(), job.id)).toMatchObject({ status: "running", error: "D1 is unavailable" });
    // Every chunk committed on the shard; the catalogue has no event.
    expect(await localisationCounts(v.id)).toMatchObject({ segments: cues, subtitles: cues });
    expect(await eventsWhere("subtitles.updated", { video_id: v.wireId })).toEqual([]);

    // The retry finds every chunk written (it writes nothing) and records the event the crash lost.
    await deliver({ type: "srt-import", jobId: job.id }, { attempts: 2 });
    const done = await findJob(db(), job.id);
    expect(done).toMatchObject({ status: "succeeded", result: { created: cues, rows_written: 0 } });
    await onlyEvent("subtitles.updated", { video_id: v.wireId, language: "it" });

    // And never twice: a delivery after that one (which died before finishing the job) records nothing more.
    await unfinished(job.id, job.payloadKey, content);
    await deliver({ type: "srt-import", jobId: job.id }, { attempts: 3 });
    expect((await findJob(db(), job.id))?.status).toBe("succeeded");
    await onlyEvent("subtitles.updated", { video_id: v.wireId, language: "it" });
  });
});

describe("job events of other jobs (a list edit)", () => {
  const editList = async (app: App, unsigned = false) => {
    const [list] = await db().insert(lists).values({}).returning();
    const res = await api(`/v4/lists/${list.id}l.json?app=${app.wireId}&token=${staff.token}`, {
      method: "PUT",
      json: { videos: [] },
      unsigned,
    });
    expect(res.status).toBe(202);
    const { job } = (await res.json()) as { job: { id: string } };
    return waitForJob(job.id, staff.token);
  };

  it("signed by a non-official application: its own job events are its to hear", async () => {
    const job = await editList(partner);
    expect(job.status).toBe("succeeded");
    const { event } = await onlyEvent("job.succeeded", { job_id: job.id });
    expect(event.applicationId).toBe(partner.id);
    expect(await deliveredTo(event.id)).toEqual([partnerEndpoint.id]);
  });

  it("an unsigned app= proves nothing: the job has no application and no event", async () => {
    const job = await editList(b, true);
    expect(job.status).toBe("succeeded");
    const row = await db()
      .select({ applicationId: jobs.applicationId })
      .from(jobs)
      .where(eq(jobs.id, jobId(job.id)))
      .get();
    expect(row?.applicationId).toBeNull();
    expect(await eventsWhere("job.succeeded", { job_id: job.id })).toEqual([]);
    // b's endpoint has heard nothing in this file.
    const all = await eventRows("job.succeeded");
    for (const e of all) expect(await deliveredTo(e.id)).not.toContain(bEndpoint.id);
  });
});
