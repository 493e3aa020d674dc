import type { Context } from "hono";
import type { z } from "zod";
import { failJob, insertJob, setJobPayloadKey, type Job } from "../db/queries/jobs";
import type { JobDefinition, PayloadSpec } from "./define";
import type { AppEnv } from "../types";
import { QUEUED_TIMEOUT_SECONDS } from "./deadlines";
import type { JobDeps, JobMessageBody } from "./types";

type PayloadBody = string | ArrayBuffer | ArrayBufferView;

/**
 * The application a request starts jobs for: only one that signed it. `app=` alone is public (it is in every client's
 * URLs, src/middleware/application.ts), so an unsigned request names no application here, and its jobs' outcomes
 * (job.succeeded/failed webhooks) go to nobody.
 */
export const signingApplicationId = (c: Context<AppEnv>): number | undefined => (c.get("appSigned") ? c.get("application")?.id : undefined);

/**
 * A payload may only be given for a job type whose definition keeps one in R2. `applicationId`: the application that
 * started the job with a signed request (`signingApplicationId`); its endpoints hear how the job ends.
 */
type EnqueueOptions<D extends JobDefinition> = {
  createdBy?: number | null;
  applicationId?: number;
} & (D["payload"] extends PayloadSpec ? { payload?: { body: PayloadBody; customMetadata?: Record<string, string> } } : { payload?: never });

/**
 * Queues a job: the jobs row (for its id), the payload in R2 when given, the payload key, then the message.
 * Anything failing after the row exists fails the job and is rethrown, so no job stays queued without a
 * message. Returns the row as inserted (with its payload key).
 */
export async function enqueue<D extends JobDefinition>(
  { db, env, requestId }: JobDeps,
  definition: D,
  params: z.input<D["params"]>,
  options: EnqueueOptions<D>,
): Promise<Job & { type: D["type"] }> {
  const job = await insertJob(db, {
    type: definition.type,
    params: params as Record<string, unknown>,
    createdBy: options.createdBy ?? undefined,
    applicationId: options.applicationId,
    requestId,
    // Past this the sweeper re-sends the message (src/jobs/deadlines.ts), so a send lost after a 202 loses nothing.
    startWithinSeconds: QUEUED_TIMEOUT_SECONDS,
  });
  try {
    if (options.payload && definition.payload) {
      const key = definition.payload.key(job.id);
      const { body, customMetadata } = options.payload;
      await env.SUBTITLES.put(key, body, {
        httpMetadata: { contentType: definition.payload.contentType },
        ...(customMetadata ? { customMetadata } : {}),
      });
      await setJobPayloadKey(db, job.id, key);
      job.payloadKey = key;
    }
    await env.JOBS.send({ type: definition.type, jobId: job.id } satisfies JobMessageBody);
  } catch (err) {
    await failJob(db, job.id, `could not enqueue: ${err instanceof Error ? err.message : String(err)}`);
    throw err;
  }
  return Object.assign(job, { type: definition.type });
}

/**
 * Sends the message of a job whose row is queued already (a retry, src/jobs/retry.ts), by the rule `enqueue` sends a
 * new one by: a send that fails fails the job (`could not enqueue: …`) and is rethrown, so no job stays queued
 * without a message.
 */
export async function sendQueued({ db, env }: JobDeps, job: { id: number; type: string }) {
  try {
    await env.JOBS.send({ type: job.type, jobId: job.id } satisfies JobMessageBody);
  } catch (err) {
    await failJob(db, job.id, `could not enqueue: ${err instanceof Error ? err.message : String(err)}`);
    throw err;
  }
}
