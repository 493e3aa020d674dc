import { z } from "zod";
import { mergeJobParams, type Job } from "../db/queries/jobs";
import { listVideoSegments } from "../db/queries/subtitles";
import { SubtitleError } from "../domain/subtitles/cue";
import { SUBTITLE_FORMATS, formatName, type SubtitleFormat } from "../domain/subtitles/formats";
import { readSubtitleFile } from "../domain/subtitles/read-file";
import { formatId } from "../lib/ids";
import { LostClaim, PermanentJobError } from "../lib/job-errors";
import type { User } from "../types";
import { afterWrite } from "./after-write";
import { glossaryReport } from "../domain/subtitles/quality";
import { recheckWrittenTrack } from "./subtitle-checks";
import type { Deps } from "./deps";
import { ensureBaseline, latestVersion, recordVersion } from "./subtitle-versions";
import { SUBTITLE_LANGUAGE_RE, importStarted, planImport, writeImport, type ImportMode } from "./subtitles";
import { announceOnce, refuseWhileTrackBusy, trackJobStart } from "./track-jobs";

/**
 * The subtitle import, whole (docs/decisions.md, "The subtitle import"): what is queued, then one delivery's read →
 * plan → chunks → version → event → effects. The `srt-import` job (src/jobs/srt-import.ts) reads its upload, calls
 * `runSubtitleImport` and queues the completion recompute it names; planning and chunk writing are
 * src/services/subtitles.ts.
 */

/** The timing change of an import (`offset_ms`, `fps_from`, `fps_to`), as the route validated it. */
const TimingParams = z.object({
  offsetMs: z.number().int().optional(),
  fpsFrom: z.number().positive().optional(),
  fpsTo: z.number().positive().optional(),
});

/**
 * `jobs.params` of an import; `mode` is fixed by the first delivery so replays repeat it. `format` and `encoding` are the
 * caller's `format=` and `encoding=` (absent: detected). The job type keeps the name it was published with,
 * `srt-import`, though it reads every format (docs/decisions.md, "Subtitle formats").
 */
export const SubtitleImportParams = z.object({
  videoId: z.number().int().positive(),
  language: z.string().regex(SUBTITLE_LANGUAGE_RE),
  mode: z.enum(["create", "match"]).optional(),
  format: z.enum(SUBTITLE_FORMATS).optional(),
  encoding: z.string().max(40).optional(),
  timing: TimingParams.optional(),
});
export type SubtitleImportParams = z.output<typeof SubtitleImportParams>;
export type SubtitleImportOptions = Pick<SubtitleImportParams, "format" | "encoding" | "timing">;

/** An import a request asks for, its upload read in full. `applicationId`: the signing official application. */
export interface SubtitleImportRequest {
  user: User;
  videoId: number;
  language: string;
  bytes: Uint8Array;
  applicationId?: number;
  options?: SubtitleImportOptions;
}

/**
 * What an import is queued with: its params, and its upload (bytes to R2, never to the row) with the metadata that
 * names it. Refused (409) while a restore rewrites the track, which an import would interleave with; imports may run
 * side by side as before.
 */
export async function subtitleImportJob(deps: Pick<Deps, "db">, input: SubtitleImportRequest) {
  const { user, videoId, language, bytes, applicationId, options = {} } = input;
  await refuseWhileTrackBusy(deps.db, { videoId, language }, ["subtitle-restore"]);
  const customMetadata = { language, video: formatId(videoId, "v"), user: formatId(user.id, "u") };
  return {
    params: { videoId, language, ...options },
    options: { createdBy: user.id, applicationId, payload: { body: bytes, customMetadata } },
  };
}

/**
 * One delivery of an import of `bytes`: decodes and reads them in whatever format they are (a file no player can read
 * fails the job at once, the error naming cue and line), matches cues to the video's segments (or creates them when
 * it has none), upserts subtitles and histories in chunks on the container's shard, announces `subtitles.updated`
 * once (a catalogue write after the shard's: docs/decisions.md, "Subtitles on the shards"), records the version and
 * runs the write's effects (docs/decisions.md, "After a write"). Returns the job's result (what was read and how:
 * `format`, `encoding`, the quality report, with the write counts; docs/api.md, "Subtitle files"; rows_written and
 * duration_ms describe this delivery) and the completion recompute that follows, for the job to queue.
 */
export async function runSubtitleImport(
  deps: Pick<Deps, "db" | "env">,
  job: Job,
  params: SubtitleImportParams,
  bytes: Uint8Array,
  progress: (percent: number) => Promise<void>,
) {
  const started = Date.now();
  const { db } = deps;
  const { videoId, language } = params;
  if (!job.createdBy) throw new PermanentJobError("the importing user no longer exists");
  const { cues, report } = await refusingFile(() =>
    readSubtitleFile(bytes, { language, format: params.format, encoding: params.encoding, timing: params.timing }),
  );
  await progress(10);

  // The video, its placement, the importing user and their rights now: one catalogue batch.
  const start = await trackJobStart(deps, videoId, job.createdBy);
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

  const track = { videoId, language };
  const scope = { ...track, containerId, userId: job.createdBy, username };
  // The text before the first import of a track kept from before versions existed becomes its version 1: before any
  // chunk is written, never on a replay that finds this import's own chunks (the text is then partly the import's).
  if (!(await importStarted(store.db, job.id))) await ensureBaseline(store, track);
  // The track as it will be after the import is held to the track limit before the first write.
  const counts = await refusingFile(() => writeImport(store, job.id, scope, mode, plan, cues.length, progress), report.format);
  // The chunks wrote their texts checked against the track they leave (the reading rules); every cue is checked here
  // with the glossary rules too, the import's unchanged texts and a match import's other cues with them: one batch
  // read, writes only where a mask differs. An import in a term language has the video's other tracks checked again.
  const checked = await recheckWrittenTrack(store.db, track, store.terms);
  // One subtitles.updated per import that changed a text, after its last chunk. A replay counts the chunks an earlier
  // delivery wrote as that delivery did, so one that finds every chunk written still records the event if the
  // delivery that wrote them died first; the job row keeps it from being recorded twice. Imports only create and
  // replace texts (never delete them), so the cause is always `import`.
  const changed = counts.created + counts.updated > 0;
  if (changed) await announceOnce(db, job.id, scope, "import");
  // From what the shard now holds, so a replay after a crash records it once (same content, no new version).
  const version = await recordVersion(store, track, { cause: "import", authorId: job.createdBy, applicationId: job.applicationId });
  // Contributions (public reads) count the new history rows at once; completions follow with their job.
  await afterWrite(deps, { track, scopes: ["catalogue"], events: changed });

  const { format, format_source, encoding, notes, ...quality } = report;
  const result = {
    ...counts,
    mode,
    format,
    format_source,
    encoding,
    quality: {
      cues_stored: counts.created + counts.updated + counts.unchanged,
      ...quality,
      ...glossaryReport(plan.rows.map((row) => ({ index: row.from.cue, mask: checked.glossaryAt.get(row.startMs) ?? 0 }))),
    },
    notes,
    version: version?.number ?? (await latestVersion(store.db, track))?.number ?? null,
    duration_ms: Date.now() - started,
  };
  return { result, completion: { videoIds: [videoId], containerIds: [containerId] } };
}

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
