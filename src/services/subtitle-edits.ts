import type { SQL } from "drizzle-orm";
import type { DB } from "../db/client";
import { subtitlesUpdatedEvent, type SubtitlesCause } from "../db/queries/catalogue-events";
import {
  activeTrackJobsQuery,
  cueAtStartQuery,
  deleteSubtitlesExceptStatement,
  editCueStatements,
  importChunkStatements,
  listSubtitlesByStart,
  listVideoSegments,
  type ImportChunk,
  type ImportScope,
} from "../db/queries/subtitles";
import { suggestionTargetQuery } from "../db/queries/captions";
import { recordEventStatement } from "../db/queries/webhook-events";
import { runBatch } from "../db/raw-batch";
import type { SnapshotCue } from "../domain/subtitles/snapshot";
import { ApiError } from "../lib/errors";
import type { User } from "../types";
import { manageableVideo } from "./catalogue";
import type { Deps } from "./deps";
import { bumpGenerations } from "./edge-cache";
import { invalidateSubtitleTrack } from "./subtitle-tracks";
import { IMPORT_CHUNK_ROWS } from "./subtitles";
import { ensureBaseline, recordVersion, type Track } from "./subtitle-versions";
import { sendDeliveries } from "../webhooks/pump";

/**
 * The writers of a track other than the import (docs/decisions.md, "Subtitle versions"): one cue's text, the whole
 * language deleted, an earlier version restored. Each keeps the track's first version before its change, records the
 * change's version after it, and announces `subtitles.updated` in the transaction of the change.
 */

/** A restore of at most this many cues is one transaction, answered at once; a larger one runs as a job. */
export const RESTORE_INLINE_CUES = IMPORT_CHUNK_ROWS;
/** Job types that rewrite a whole track: a restore waits for none of them to be queued or running. */
export const TRACK_JOB_TYPES = ["srt-import", "subtitle-restore"] as const;

export interface TrackChange {
  /** The user making the change (history rows, the version's author). */
  user: User;
  /** The signing official application, recorded on the version. */
  applicationId: number | null;
}

/** A 409 while a job that rewrites the track is queued or running: two whole-track writers would interleave. */
export async function refuseWhileTrackBusy(db: DB, t: Track, types: readonly string[] = TRACK_JOB_TYPES, except?: number) {
  const [busy] = await activeTrackJobsQuery(db, t.videoId, t.language, types);
  if (busy && busy.id !== except) {
    throw ApiError.conflict(`the ${t.language} subtitles are being rewritten by job ${busy.id}j (${busy.type}); try again when it ends`);
  }
}

/** The video and its container when the user may change its subtitles (staff and the container's managers). */
export async function manageableTrack(deps: Deps, user: User | undefined, t: Track) {
  return manageableVideo(deps, user, t.videoId, "only staff and the container's managers may change subtitles");
}

/** After a change commits: the cached track, the public reads that count histories, and the event's deliveries. */
async function afterChange({ env }: Pick<Deps, "env">, t: Track) {
  await invalidateSubtitleTrack(env.CACHE, t.videoId, t.language);
  await bumpGenerations(env, "catalogue");
  await sendDeliveries(env);
}

const eventStatement = (db: DB, scope: ImportScope, cause: SubtitlesCause) =>
  recordEventStatement(db.$client, subtitlesUpdatedEvent(scope, cause));

/**
 * One cue's text in the track, at a segment the video has (a manager's edit, an applied suggestion). The same text is
 * no change and makes no version. A start where the video has no segment is a 404 naming it.
 */
export async function editCue(deps: Deps, change: TrackChange, t: Track, startMs: number, text: string) {
  const { db } = deps;
  const { container } = await manageableTrack(deps, change.user, t);
  await refuseWhileTrackBusy(db, t, ["subtitle-restore"]);
  const [current] = await cueAtStartQuery(db, t.videoId, t.language, startMs);
  if (!current) throw ApiError.notFound(`no segment of the video starts at ${startMs} ms`);
  if (current.text === text) return { changed: false, version: null };
  await ensureBaseline(deps, t);
  const scope = { ...t, containerId: container.id, userId: change.user.id };
  await runBatch(db, [...editCueStatements(scope, startMs, text, `edit:${crypto.randomUUID()}`), eventStatement(db, scope, "edit")]);
  const version = await recordVersion(deps, t, { cause: "edit", authorId: change.user.id, applicationId: change.applicationId });
  await afterChange(deps, t);
  return { changed: true, version, containerId: container.id };
}

/**
 * Applies a caption suggestion: its text becomes the cue of its language at the segment of the original it translates,
 * an edit like any other (the applier is its author). An unknown suggestion is a 404.
 */
export async function applySuggestion(deps: Deps, change: TrackChange, suggestionId: number) {
  const [target] = await suggestionTargetQuery(deps.db, suggestionId);
  if (!target) throw ApiError.notFound(`no caption suggestion ${suggestionId}`);
  const t = { videoId: target.videoId, language: target.language };
  return { track: t, ...(await editCue(deps, change, t, target.startMs, target.content)) };
}

/** Deletes every subtitle of the language: one transaction, then its version (no cues). A language with none is a 404. */
export async function deleteTrack(deps: Deps, change: TrackChange, t: Track) {
  const { db } = deps;
  const { container } = await manageableTrack(deps, change.user, t);
  await refuseWhileTrackBusy(db, t);
  const stored = await listSubtitlesByStart(db, t.videoId, t.language);
  if (!stored.length) throw ApiError.notFound(`no subtitles in ${t.language}`);
  await ensureBaseline(deps, t);
  const scope = { ...t, containerId: container.id, userId: change.user.id };
  await runBatch(db, [deleteSubtitlesExceptStatement(t.videoId, t.language, []), eventStatement(db, scope, "deletion")]);
  const version = await recordVersion(deps, t, { cause: "deletion", authorId: change.user.id, applicationId: change.applicationId });
  await afterChange(deps, t);
  return { version, containerId: container.id };
}

/**
 * Makes the track's texts those of `cues` (a version's snapshot): texts not in it are removed, the others created or
 * replaced at their segment (a segment missing since is created with the snapshot's times; existing segments keep their
 * times, which every language shares). Written in chunks of IMPORT_CHUNK_ROWS cues, the removal with the first and the
 * event with the last, each chunk's history keyed under `key`, so a replay writes nothing twice; a snapshot of at most
 * RESTORE_INLINE_CUES cues is one transaction. Returns rows written.
 */
export async function writeRestore(
  db: DB,
  key: string,
  scope: ImportScope,
  cues: readonly SnapshotCue[],
  progress?: (p: number) => Promise<void>,
) {
  const [stored, segments] = await Promise.all([
    listSubtitlesByStart(db, scope.videoId, scope.language),
    listVideoSegments(db, scope.videoId),
  ]);
  const storedText = new Map(stored.map((s) => [s.startMs, s.text]));
  const segmentStarts = new Set(segments.map((s) => s.startMs));
  const keep = cues.map(([start]) => start);
  const kept = new Set(keep);
  const removed = stored.filter((s) => !kept.has(s.startMs)).length;

  const chunks: ImportChunk[] = [];
  for (let first = 0; first < cues.length || (first === 0 && removed > 0); first += IMPORT_CHUNK_ROWS) {
    const part = cues.slice(first, first + IMPORT_CHUNK_ROWS);
    const chunk: ImportChunk = { key: `${key}:${first}`, segments: [], texts: [], created: 0 };
    for (const [s, e, text] of part) {
      if (!segmentStarts.has(s)) chunk.segments.push({ s, e, t: "" });
      const current = storedText.get(s);
      if (current === text) continue;
      if (current === undefined) chunk.created++;
      chunk.texts.push({ s, e, t: text });
    }
    chunks.push(chunk);
  }
  const changed = removed > 0 || chunks.some((c) => c.texts.length > 0);
  let written = 0;
  for (let i = 0; i < chunks.length; i++) {
    const statements: Array<SQL | D1PreparedStatement> = [];
    if (i === 0 && removed > 0) statements.push(deleteSubtitlesExceptStatement(scope.videoId, scope.language, keep));
    statements.push(...importChunkStatements(scope, chunks[i]));
    if (changed && i === chunks.length - 1) statements.push(eventStatement(db, scope, "restore"));
    written += await runBatch(db, statements);
    await progress?.(20 + (70 * (i + 1)) / chunks.length);
  }
  return { changed, removed, rows_written: written };
}

/** After a restore's writes: its version (equal in content to the one restored) and what a change sets off. */
export async function finishRestore(
  deps: Pick<Deps, "db" | "env">,
  t: Track,
  by: { userId: number; applicationId: number | null; number: number },
) {
  const version = await recordVersion(deps, t, {
    cause: "restore",
    authorId: by.userId,
    applicationId: by.applicationId,
    restoredFrom: by.number,
  });
  await afterChange(deps, t);
  return version;
}
