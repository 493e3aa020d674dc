import { z } from "zod";
import { findVideoWithContainer } from "../src/db/queries/catalogue";
import { listVideoSegments, mergeJobParams } from "../src/db/queries/subtitles";
import { startCompletion } from "../src/services/completions";
import { SrtError, decodeSubtitleBytes, parseSrt } from "../src/services/srt";
import { SUBTITLE_LANGUAGE_RE, invalidateSubtitleFile, planImport, writeImport, type ImportMode } from "../src/services/subtitles";
import { formatId } from "../src/lib/ids";
import { PermanentJobError, type JobHandler } from "./runner";

/** `jobs.params` of an srt-import job; `mode` is fixed by the first delivery so replays repeat it. */
const SrtImportParams = z.object({
  videoId: z.number().int().positive(),
  language: z.string().regex(SUBTITLE_LANGUAGE_RE),
  mode: z.enum(["create", "match"]).optional(),
});

/**
 * `srt-import`: reads the upload from R2 (`imports/<jobId>/upload.srt`), decodes and parses it (a broken
 * file fails the job at once, the error naming cue and line), matches cues to the video's segments (or
 * creates them when it has none), upserts subtitles and histories in chunks, drops the cached `.srt`, then
 * queues a completion job for the video and its container. Result: `{cues, created, updated, unchanged,
 * unmatched, segments_created, rows_written, mode, completion_job, duration_ms}` (rows_written and duration_ms
 * describe this delivery).
 */
export const srtImport: JobHandler = async ({ db, env, job, progress }) => {
  const started = Date.now();
  const params = SrtImportParams.safeParse(job.params);
  if (!params.success) throw new PermanentJobError("malformed srt-import parameters");
  const { videoId, language } = params.data;
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

  let mode: ImportMode | undefined = params.data.mode;
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
  const completion = await startCompletion(db, env, { videoIds: [videoId], containerIds: [containerId] }, job.createdBy);
  return { ...counts, mode, completion_job: formatId(completion.id, "j"), duration_ms: Date.now() - started };
};
