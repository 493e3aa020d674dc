import { z } from "zod";
import { mergeJobParams } from "../db/queries/jobs";
import { listVideoSegments } from "../db/queries/subtitles";
import { SubtitleError } from "../domain/subtitles/cue";
import { SUBTITLE_FORMATS, formatName, type SubtitleFormat } from "../domain/subtitles/formats";
import { readSubtitleFile } from "../domain/subtitles/read-file";
import { formatId } from "../lib/ids";
import { afterWrite } from "../services/after-write";
import { ensureBaseline, latestVersion, recordVersion } from "../services/subtitle-versions";
import { announceOnce, refuseWhileTrackBusy, trackJobStart } from "../services/subtitle-edits";
import { SUBTITLE_LANGUAGE_RE, importStarted, planImport, writeImport, type ImportMode } from "../services/subtitles";
import type { User } from "../types";
import { completion } from "./completion";
import { LostClaim, PermanentJobError, defineJob } from "./define";
import { enqueue } from "./enqueue";
import type { JobDeps } from "./types";

/** The timing change of an import (`offset_ms`, `fps_from`, `fps_to`), as the route validated it. */
const TimingParams = z.object({
  offsetMs: z.number().int().optional(),
  fpsFrom: z.number().positive().optional(),
  fpsTo: z.number().positive().optional(),
});

/**
 * `jobs.params` of an import; `mode` is fixed by the first delivery so replays repeat it. `format` and `encoding` are the
 * caller's `format=` and `encoding=` (absent: detected). The type keeps the name it was published with, `srt-import`,
 * though it reads every format (docs/decisions.md, "Subtitle formats").
 */
const SrtImportParams = z.object({
  videoId: z.number().int().positive(),
  language: z.string().regex(SUBTITLE_LANGUAGE_RE),
  mode: z.enum(["create", "match"]).optional(),
  format: z.enum(SUBTITLE_FORMATS).optional(),
  encoding: z.string().max(40).optional(),
  timing: TimingParams.optional(),
});
export type SubtitleImportOptions = Pick<z.infer<typeof SrtImportParams>, "format" | "encoding" | "timing">;

export const importUploadKey = (jobId: number) => `imports/${jobId}/upload`;

/**
 * `srt-import`: reads the upload from R2 (`imports/<jobId>/upload`), decodes and reads it in whatever format it is (a file
 * no player can read fails the job at once, the error naming cue and line), matches cues to the video's segments (or
 * creates them when it has none), upserts subtitles and histories in chunks on the container's shard, announces
 * `subtitles.updated` once (a catalogue write after the shard's: docs/decisions.md, "Subtitles on the shards"), drops
 * the cached track, then queues a completion job for the video and its container. The result adds what was read and how (`format`, `encoding`, the
 * quality report) to the write counts (docs/api.md, "Subtitle files"); rows_written and duration_ms describe this delivery.
 */
export const srtImport = defineJob({
  type: "srt-import",
  params: SrtImportParams,
  payload: { key: importUploadKey, contentType: "application/octet-stream" },
  async handler({ db, env, job, params, progress }) {
    const started = Date.now();
    const { videoId, language } = params;
    if (!job.createdBy) throw new PermanentJobError("the importing user no longer exists");
    if (!job.payloadKey) throw new PermanentJobError("the job has no upload");

    const object = await env.SUBTITLES.get(job.payloadKey);
    if (!object) throw new PermanentJobError(`upload ${job.payloadKey} is missing`);
    const bytes = new Uint8Array(await object.arrayBuffer());

    const file = await refusingFile(() =>
      readSubtitleFile(bytes, { language, format: params.format, encoding: params.encoding, timing: params.timing }),
    );
    const { cues, report } = file;
    await progress(10);

    // The video, its placement, the importing user and their rights now: one catalogue batch.
    const start = await trackJobStart({ db, env }, videoId, job.createdBy);
    if (start.refused) throw new PermanentJobError(start.refused);
    const { found, username, store } = start;
    if (!found || !username || !store) throw new PermanentJobError(`video ${formatId(videoId, "v")} no longer exists`);
    const containerId = found.container.id;

    let mode: ImportMode | undefined = params.mode;
    const segments = mode === "create" ? [] : await listVideoSegments(store.db, videoId);
    if (!mode) {
      mode = segments.length ? "match" : "create";
      if (!(await mergeJobParams(db, job, { mode }))) throw new LostClaim(job.id);
    }
    // Chunks are named by ranges of cue numbers, so the plan numbers cues in time order (the file's own positions stay in
    // the report and the refusals). Joined cues are held to the cue limits there, as a cue read is.
    const plan = await refusingFile(() => planImport(cues, mode, segments), report.format);
    await progress(20);

    const scope = { videoId, containerId, userId: job.createdBy, username, language };
    // The text before the first import of a track kept from before versions existed becomes its version 1: before any
    // chunk is written, never on a replay that finds this import's own chunks (the text is then partly the import's).
    if (!(await importStarted(store.db, job.id))) await ensureBaseline(store, { videoId, language });
    // The track as it will be after the import is held to the track limit before the first write.
    const counts = await refusingFile(() => writeImport(store, job.id, scope, mode, plan, cues.length, progress), report.format);
    // One subtitles.updated per import that changed a text, after its last chunk. A replay counts the chunks an earlier
    // delivery wrote as that delivery did, so one that finds every chunk written still records the event if the
    // delivery that wrote them died first; the job row keeps it from being recorded twice. Imports only create and
    // replace texts (never delete them), so the cause is always `import`.
    const changed = counts.created + counts.updated > 0;
    if (changed) await announceOnce(db, job.id, scope, "import");
    // From what the shard now holds, so a replay after a crash records it once (same content, no new version).
    const version = await recordVersion(
      store,
      { videoId, language },
      {
        cause: "import",
        authorId: job.createdBy,
        applicationId: job.applicationId,
      },
    );

    // Contributions (public reads) count the new history rows at once; completions follow with their job.
    await afterWrite({ db, env }, { track: { videoId, language }, scopes: ["catalogue"], events: changed });
    // The completion job is the import's own step, not one the application asked for: it gets no applicationId, so
    // the application hears one job.succeeded (this job's) and learns of new percentages from completion.updated.
    const next = await enqueue(
      { db, env, requestId: job.requestId ?? undefined },
      completion,
      { videoIds: [videoId], containerIds: [containerId] },
      { createdBy: job.createdBy },
    );
    const { format, format_source, encoding, notes, ...quality } = report;
    return {
      ...counts,
      mode,
      format,
      format_source,
      encoding,
      quality: { cues_stored: counts.created + counts.updated + counts.unchanged, ...quality },
      notes,
      completion_job: formatId(next.id, "j"),
      version: version?.number ?? (await latestVersion(store.db, { videoId, language }))?.number ?? null,
      duration_ms: Date.now() - started,
    };
  },
});

/**
 * Runs a step of the import that may refuse the file (SubtitleError naming cue, line and limit): the refusal fails the
 * job for good, named as the reader's are (`invalid SubRip file: cue 3 (line 10): ...`), since retrying cannot help.
 */
async function refusingFile<T>(step: () => T | Promise<T>, format?: SubtitleFormat): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (!(err instanceof SubtitleError)) throw err;
    err.format ??= format;
    throw new PermanentJobError(err.format ? `invalid ${formatName(err.format)} file: ${err.message}` : `unreadable text: ${err.message}`);
  }
}

/**
 * Queues an import of an upload the route has read in full; the bytes go to R2, never to the row. `applicationId`:
 * the official application that signed the request, which hears job.succeeded/failed.
 */
export async function startSrtImport(
  deps: JobDeps,
  input: { user: User; videoId: number; language: string; bytes: Uint8Array; applicationId?: number; options?: SubtitleImportOptions },
) {
  const { user, videoId, language, bytes, applicationId, options = {} } = input;
  // An import while a restore rewrites the track would interleave with it; imports may run side by side as before.
  await refuseWhileTrackBusy(deps.db, { videoId, language }, ["subtitle-restore"]);
  return enqueue(
    deps,
    srtImport,
    { videoId, language, ...options },
    {
      createdBy: user.id,
      applicationId,
      payload: { body: bytes, customMetadata: { language, video: formatId(videoId, "v"), user: formatId(user.id, "u") } },
    },
  );
}
