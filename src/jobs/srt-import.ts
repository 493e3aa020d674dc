import { SubtitleImportParams, runSubtitleImport, subtitleImportJob, type SubtitleImportRequest } from "../services/subtitle-import";
import { queueCompletion } from "./completion";
import { PermanentJobError, defineJob, type JobContext } from "./define";
import { enqueue } from "./enqueue";
import type { JobDeps } from "./types";

export const importUploadKey = (jobId: number) => `imports/${jobId}/upload`;

/**
 * `srt-import` (the name it was published with; it reads every format): one delivery reads the upload from R2
 * (`imports/<jobId>/upload`), runs the import (src/services/subtitle-import.ts: read, plan, chunks on the shard, version,
 * `subtitles.updated` once, the write's effects), then queues the completion recompute of the video and its container.
 */
async function importSubtitles({ db, env, job, params, progress }: JobContext & { params: SubtitleImportParams }) {
  const upload = job.payloadKey ? await env.SUBTITLES.get(job.payloadKey) : null;
  if (!upload) throw new PermanentJobError(job.payloadKey ? `upload ${job.payloadKey} is missing` : "the job has no upload");
  const bytes = new Uint8Array(await upload.arrayBuffer());
  const { result, completion } = await runSubtitleImport({ db, env }, job, params, bytes, progress);
  return { ...result, completion_job: await queueCompletion({ db, env }, job, completion) };
}

export const srtImport = defineJob({
  type: "srt-import",
  params: SubtitleImportParams,
  payload: { key: importUploadKey, contentType: "application/octet-stream" },
  handler: importSubtitles,
});

/** Queues an import of an upload the route has read in full; the bytes go to R2, never to the row. */
export async function startSrtImport(deps: JobDeps, input: SubtitleImportRequest) {
  const { params, options } = await subtitleImportJob(deps, input);
  return enqueue(deps, srtImport, params, options);
}
