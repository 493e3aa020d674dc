import { env } from "cloudflare:workers";
import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { handlers } from "../../queues";
import { findJob } from "../../src/db/queries/jobs";
import { jobs } from "../../src/db/schema";
import { JOBS, JobMessage, enqueue, jobTypes } from "../../src/jobs";
import { completion } from "../../src/jobs/completion";
import { listEdit } from "../../src/jobs/list-edit";
import { api, createUser, db } from "../helpers";

const sorted = (names: Iterable<string>) => [...names].sort();

describe("job registry", () => {
  it("the definitions, the message schema, the dispatch and the OpenAPI Job.type agree", async () => {
    const registered = sorted(JOBS.map((j) => j.type));
    expect(new Set(registered).size).toBe(JOBS.length);
    expect(sorted(jobTypes)).toEqual(registered);
    expect(sorted(JobMessage.shape.type.options)).toEqual(registered);
    expect(sorted(Object.keys(handlers))).toEqual(registered);

    const doc = (await (await api("/openapi.json")).json()) as {
      components: { schemas: { Job: { properties: { type: { enum: string[] } } } } };
    };
    expect(sorted(doc.components.schemas.Job.properties.type.enum)).toEqual(registered);
  });
});

/** An env whose queue records what is sent, or refuses it. */
function envWithQueue(send: (body: unknown) => Promise<void>) {
  return { ...env, JOBS: { send } } as unknown as Env;
}

describe("enqueue", () => {
  it("writes the row, the payload in R2 under the definition's key, then sends {type, jobId}", async () => {
    const sent: unknown[] = [];
    const { user } = await createUser();
    const ids = ["1c", "2v"];
    const job = await enqueue(
      { db: db(), env: envWithQueue(async (body) => void sent.push(body)) },
      listEdit,
      { listId: 9 },
      {
        createdBy: user.id,
        payload: { body: JSON.stringify({ ids }) },
      },
    );
    expect(sent).toEqual([{ type: "list-edit", jobId: job.id }]);
    expect(job.payloadKey).toBe(`jobs/${job.id}/payload.json`);
    expect(await findJob(db(), job.id)).toMatchObject({
      status: "queued",
      params: { listId: 9 },
      payloadKey: job.payloadKey,
      createdBy: user.id,
    });
    const object = await env.SUBTITLES.get(job.payloadKey!);
    expect(object?.httpMetadata?.contentType).toBe("application/json");
    expect(await object?.json()).toEqual({ ids });
  });

  it("marks the job failed with the reason and rethrows when the send fails", async () => {
    const reason = `queue unavailable ${crypto.randomUUID()}`;
    const refusing = envWithQueue(async () => {
      throw new Error(reason);
    });
    await expect(enqueue({ db: db(), env: refusing }, completion, { videoIds: [1], containerIds: [] }, {})).rejects.toThrow(reason);
    const row = await db()
      .select()
      .from(jobs)
      .where(and(eq(jobs.type, "completion"), eq(jobs.error, `could not enqueue: ${reason}`)))
      .orderBy(desc(jobs.id))
      .get();
    expect(row).toMatchObject({ status: "failed", params: { videoIds: [1], containerIds: [] } });
    expect(row?.finishedAt).not.toBeNull();
  });
});
