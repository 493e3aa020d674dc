import { z } from "zod";
import { findVideoWithContainer } from "../db/queries/catalogue";
import { listVideoSegments, mergeJobParams } from "../db/queries/subtitles";
import { formatId } from "../lib/ids";
import { bumpGenerations } from "../services/edge-cache";
import { SrtError, decodeSubtitleBytes, parseSrt } from "../services/srt";
import { sendDeliveries } from "../webhooks/pump";
import { SUBTITLE_LANGUAGE_RE, invalidateSubtitleFile, planImport, writeImport, type ImportMode } from "../services/subtitles";
import type { User } from "../types";
import { completion } from "./completion";
import { PermanentJobError, defineJob } from "./define";
import { enqueue, type JobDeps } from "./enqueue";

/** `jobs.params` of an srt-import job; `mode` is fixed by the first delivery so replays repeat it. */
const SrtImportParams = z.object({
  videoId: z.number().int().positive(),
  language: z.string().regex(SUBTITLE_LANGUAGE_RE),
  mode: z.enum(["create", "match"]).optional(),
});

export const importUploadKey = (jobId: number) => `imports/${jobId}/upload.srt`;

/**
 * `srt-import`: reads the upload from R2 (`imports/<jobId>/upload.srt`), decodes and parses it (a broken
 * file fails the job at once, the error naming cue and line), matches cues to the video's segments (or
 * creates them when it has none), upserts subtitles and histories in chunks, drops the cached `.srt`, then
 * queues a completion job for the video and its container. Result: `{cues, created, updated, unchanged,
 * unmatched, segments_created, rows_written, mode, completion_job, duration_ms}` (rows_written and duration_ms
 * describe this delivery).
 */
export const srtImport = defineJob({
  type: "srt-import",
  params: SrtImportParams,
  payload: { key: importUploadKey, contentType: "application/x-subrip" },
  async handler({ db, env, job, params, progress }) {
    const started = Date.now();
    const { videoId, language } = params;
    if (!job.createdBy) throw new PermanentJobError("the importing user no longer exists");
    if (!job.payloadKey) throw new PermanentJobError("the job has no upload");

    const object = await env.SUBTITLES.get(job.payloadKey);
    if (!object) throw new PermanentJobError(`upload ${job.payloadKey} is missing`);
    const bytes = new Uint8Array(await object.arrayBuffer());

    let cues;
    try {
      cues = parseSrt(decodeSubtitleBytes(bytes));
    } catch (err) {
      if (err instanceof SrtError) throw new PermanentJobError(`invalid SubRip file: ${err.message}`);
      throw err;
    }
    await progress(10);

    const found = await findVideoWithContainer(db, videoId);
    if (!found) throw new PermanentJobError(`video ${formatId(videoId, "v")} no longer exists`);
    const containerId = found.container.id;

    let mode: ImportMode | undefined = params.mode;
    const segments = mode === "create" ? [] : await listVideoSegments(db, videoId);
    if (!mode) {
      mode = segments.length ? "match" : "create";
      await mergeJobParams(db, job.id, { mode });
    }
    const plan = planImport(cues, mode, segments);
    await progress(20);

    const scope = { videoId, containerId, userId: job.createdBy, language };
    const counts = await writeImport(db, job.id, scope, mode, plan, cues.length, progress);

    await invalidateSubtitleFile(env.CACHE, videoId, language);
    // Contributions (public reads) count the new history rows at once; completions follow with their job.
    await bumpGenerations(env, "catalogue");
    // subtitles.updated was recorded with the import's last chunk.
    if (counts.created + counts.updated > 0) await sendDeliveries(env);
    // The completion job is the import's own step, not one the application asked for: it gets no applicationId, so
    // the application hears one job.succeeded (this job's) and learns of new percentages from completion.updated.
    const next = await enqueue({ db, env }, completion, { videoIds: [videoId], containerIds: [containerId] }, { createdBy: job.createdBy });
    return { ...counts, mode, completion_job: formatId(next.id, "j"), duration_ms: Date.now() - started };
  },
});

/**
 * Queues an SRT import of an upload the route has read in full; the bytes go to R2, never to the row. `applicationId`:
 * the official application that signed the request, which hears job.succeeded/failed.
 */
export async function startSrtImport(
  deps: JobDeps,
  input: { user: User; videoId: number; language: string; bytes: Uint8Array; applicationId?: number },
) {
  const { user, videoId, language, bytes, applicationId } = input;
  return enqueue(
    deps,
    srtImport,
    { videoId, language },
    {
      createdBy: user.id,
      applicationId,
      payload: { body: bytes, customMetadata: { language, video: formatId(videoId, "v"), user: formatId(user.id, "u") } },
    },
  );
}
