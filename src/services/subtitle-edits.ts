import type { SQL } from "drizzle-orm";
import type { DB } from "../db/client";
import { videoWithContainer, videoWithContainerQuery } from "../db/queries/catalogue";
import { subtitlesUpdatedEvent, type SubtitlesCause } from "../db/queries/catalogue-events";
import { videoGlossaryQuery } from "../db/queries/glossary";
import { videoPlacementQuery } from "../db/queries/shards";
import {
  cueAtStartQuery,
  deleteSubtitlesExceptStatement,
  editCueStatements,
  importChunkStatements,
  listSubtitlesByStart,
  listVideoSegments,
  trackCharsQuery,
  type ImportChunk,
  type ImportScope,
} from "../db/queries/subtitles";
import { recordEvent } from "../db/queries/webhook-events";
import { runBatch } from "../db/raw-batch";
import { batchWith } from "../db/rider";
import { trackMasks } from "../domain/subtitles/checks";
import { clock, cueTextProblem, trackCharsProblem } from "../domain/subtitles/cue";
import { isTermLanguage } from "../domain/subtitles/glossary-checks";
import type { SnapshotCue } from "../domain/subtitles/snapshot";
import { ApiError } from "../lib/errors";
import { log } from "../lib/log";
import type { User } from "../types";
import { caller, requireManager } from "./access";
import { findSuggestionTarget } from "./localisation";
import type { Deps } from "./deps";
import { afterWrite } from "./after-write";
import { cueFindingView, editCheckReads, editChecks, recheckWrittenTrack, type Terms } from "./subtitle-checks";
import { IMPORT_CHUNK_ROWS } from "./subtitles";
import { ensureBaseline, recordVersion, trackShard, type Track, type TrackShard } from "./subtitle-versions";
import { refuseWhileTrackBusy } from "./track-jobs";

/**
 * The writers of a track other than the import (docs/decisions.md, "Subtitle versions"): one cue's text, the whole
 * language deleted, an earlier version restored. Each keeps the track's first version before its change, records the
 * change's version after it, and announces `subtitles.updated`. The track is on its container's shard and the event
 * in the catalogue, so the event follows the change's commit as a catalogue write (docs/decisions.md, "Subtitles on
 * the shards"); a job's is recorded once whatever its deliveries (`announceOnce`, src/services/track-jobs.ts).
 */

/** A restore of at most this many cues is one transaction, answered at once; a larger one runs as a job. */
export const RESTORE_INLINE_CUES = IMPORT_CHUNK_ROWS;
const NOT_MANAGER = "only staff and the container's managers may change subtitles";

export interface TrackChange {
  /** The user making the change (history rows, the version's author). */
  user: User;
  /** The signing official application, recorded on the version. */
  applicationId: number | null;
}

/**
 * The video, its container and the shard their subtitles are written to, when the user may change its subtitles
 * (staff and the container's managers), with its series' glossary terms (the checks' and the writers' of the track:
 * docs/decisions.md, "Quality checks"): one catalogue batch, then 404 (hidden from them) or 403, and 503 while the
 * container moves or its subtitles are not yet copied.
 */
export async function manageableTrack(deps: Deps, user: User | undefined, videoId: number, message = NOT_MANAGER) {
  const { db } = deps;
  const [found, placed, terms] = await batchWith(db, deps.session, [
    videoWithContainerQuery(db, videoId),
    videoPlacementQuery(db, videoId),
    videoGlossaryQuery(db, videoId),
  ]);
  const { video, container } = await requireManager(caller(db, user), videoWithContainer(found), message);
  if (!placed[0]) {
    log("error", { event: "shard-placement-missing", container_id: container.id });
    throw ApiError.notFound();
  }
  return { video, container, store: { ...trackShard(deps, { video, container }, placed[0]), terms: terms as Terms } };
}

/** `subtitles.updated` for a change a request made, once its shard write has committed. */
const announce = (db: DB, scope: ImportScope, cause: SubtitlesCause) => recordEvent(db, subtitlesUpdatedEvent(scope, cause)).run();

/**
 * One cue's text in the track, at a segment the video has (a manager's edit, an applied suggestion). The same text is
 * no change and makes no version. A start where the video has no segment is a 404 naming it. The text is held to the
 * cue and line limits and the track it makes to the track limit, as an import's are (a 400 naming `field`, the body
 * field or parameter that gave the text). The cue's quality checks are stored with it and answered (`findings`), and
 * the previous cue's checked again (docs/decisions.md, "Quality checks").
 */
export async function editCue(deps: Deps, change: TrackChange, t: Track, startMs: number, text: string, field = "text") {
  const { db } = deps;
  const problem = cueTextProblem(text);
  if (problem) throw ApiError.field(field, problem.reason);
  const { container, store } = await manageableTrack(deps, change.user, t.videoId);
  await refuseWhileTrackBusy(db, t, ["subtitle-restore"]);
  const [[current], [stored], ...read] = await store.db.batch([
    cueAtStartQuery(store.db, t.videoId, t.language, startMs),
    trackCharsQuery(store.db, t.videoId, t.language),
    ...editCheckReads(store.db, t, startMs),
  ]);
  if (!current) throw ApiError.notFound(`no segment of the video starts at ${startMs} ms`);
  const checks = editChecks(read, t, { startMs, endMs: current.endMs, text }, store.terms);
  const findings = checks.findings.map(cueFindingView);
  if (current.text === text) return { changed: false, version: null, findings };
  const after = stored.chars - (current.text?.length ?? 0) + text.length;
  const tooLarge = trackCharsProblem(after);
  if (tooLarge) throw ApiError.field(field, tooLarge);
  await ensureBaseline(store, t);
  const scope = { ...t, containerId: container.id, userId: change.user.id, username: change.user.username };
  await runBatch(store.db, [
    ...store.facts,
    ...editCueStatements(store.db, store.shard, scope, { startMs, text, checks: checks.mask }, `edit:${crypto.randomUUID()}`),
    ...checks.statements,
  ]);
  await announce(db, scope, "edit");
  const version = await recordVersion(store, t, { cause: "edit", authorId: change.user.id, applicationId: change.applicationId });
  await afterWrite(deps, { track: t, scopes: ["catalogue"], events: true });
  return { changed: true, version, containerId: container.id, findings };
}

/**
 * Applies a caption suggestion: its text becomes the cue of its language at the segment of the original it translates,
 * an edit like any other (the applier is its author). An unknown suggestion is a 404.
 */
export async function applySuggestion(deps: Deps, change: TrackChange, suggestionId: number) {
  // Named by its id alone: asked of its issuing shard first (docs/decisions.md, "Subtitles on the shards").
  const target = await findSuggestionTarget(deps, suggestionId);
  if (!target) throw ApiError.notFound(`no caption suggestion ${suggestionId}`);
  const t = { videoId: target.videoId, language: target.language };
  return { track: t, ...(await editCue(deps, change, t, target.startMs, target.content, "suggestion_id")) };
}

/** Deletes every subtitle of the language: one transaction, then its version (no cues). A language with none is a 404. */
export async function deleteTrack(deps: Deps, change: TrackChange, t: Track) {
  const { db } = deps;
  const { container, store } = await manageableTrack(deps, change.user, t.videoId);
  await refuseWhileTrackBusy(db, t);
  const stored = await listSubtitlesByStart(store.db, t.videoId, t.language);
  if (!stored.length) throw ApiError.notFound(`no subtitles in ${t.language}`);
  await ensureBaseline(store, t);
  const scope = { ...t, containerId: container.id, userId: change.user.id, username: change.user.username };
  await runBatch(store.db, [...store.facts, deleteSubtitlesExceptStatement(t.videoId, t.language, [])]);
  // The language's texts were the glossary sources of the video's other tracks (docs/decisions.md, "Quality checks").
  if (isTermLanguage(store.terms, t.language)) await recheckWrittenTrack(store.db, t, store.terms);
  await announce(db, scope, "deletion");
  const version = await recordVersion(store, t, { cause: "deletion", authorId: change.user.id, applicationId: change.applicationId });
  await afterWrite(deps, { track: t, scopes: ["catalogue"], events: true });
  return { version, containerId: container.id };
}

/**
 * Why a version's cues may not be restored, or null: the track a restore makes is exactly those texts, so they are held
 * to the cue, line and track limits as an import's are (a version recorded before the limits held may pass them).
 */
export function restoreProblem(cues: readonly SnapshotCue[]): string | null {
  let total = 0;
  for (const [start, , text] of cues) {
    const problem = cueTextProblem(text);
    if (problem) return `the cue at ${clock(start, ".")}: ${problem.reason}`;
    total += text.length;
  }
  return trackCharsProblem(total);
}

/**
 * Makes the track's texts those of `cues` (a version's snapshot) on its shard: texts not in it are removed, the others
 * created or replaced at their segment (a segment missing since is created with the snapshot's times; existing
 * segments keep their times, which every language shares). Written in chunks of IMPORT_CHUNK_ROWS cues, the removal
 * with the first, each chunk's history keyed under `key`, so a replay writes nothing twice; a snapshot of at most
 * RESTORE_INLINE_CUES cues is one transaction. The event is the caller's, after the last chunk; `beforeWrite` runs
 * once before the first chunk of a restore that changes the track. Returns rows written.
 */
export async function writeRestore(
  store: Pick<TrackShard, "db" | "shard" | "facts"> & { terms: Terms },
  key: string,
  scope: ImportScope,
  cues: readonly SnapshotCue[],
  progress?: (p: number) => Promise<void>,
  beforeWrite?: () => Promise<void>,
) {
  const { db, shard, facts } = store;
  const [stored, segments] = await Promise.all([
    listSubtitlesByStart(db, scope.videoId, scope.language),
    listVideoSegments(db, scope.videoId),
  ]);
  const storedText = new Map(stored.map((s) => [s.startMs, s.text]));
  const segmentStarts = new Set(segments.map((s) => s.startMs));
  const keep = cues.map(([start]) => start);
  const kept = new Set(keep);
  const removed = stored.filter((s) => !kept.has(s.startMs)).length;

  // The track the restore leaves is the snapshot's cues: each text is written with its checks against them.
  const track = cues.map(([startMs, endMs, text]) => ({ startMs, endMs, text })).sort((a, b) => a.startMs - b.startMs);
  const masks = trackMasks(track, scope.language);
  const maskAt = new Map(track.map((cue, i) => [cue.startMs, masks[i]]));
  const chunks: ImportChunk[] = [];
  for (let first = 0; first < cues.length || (first === 0 && removed > 0); first += IMPORT_CHUNK_ROWS) {
    const part = cues.slice(first, first + IMPORT_CHUNK_ROWS);
    const chunk: ImportChunk = { key: `${key}:${first}`, segments: [], texts: [], created: 0 };
    for (const [s, e, text] of part) {
      if (!segmentStarts.has(s)) chunk.segments.push({ s, e, t: "" });
      const current = storedText.get(s);
      if (current === text) continue;
      if (current === undefined) chunk.created++;
      chunk.texts.push({ s, e, t: text, c: maskAt.get(s) ?? null });
    }
    chunks.push(chunk);
  }
  const changed = removed > 0 || chunks.some((c) => c.texts.length > 0);
  if (changed) await beforeWrite?.();
  let written = 0;
  for (let i = 0; i < chunks.length; i++) {
    const statements: SQL[] = [];
    if (i === 0 && removed > 0) statements.push(deleteSubtitlesExceptStatement(scope.videoId, scope.language, keep));
    statements.push(...importChunkStatements(db, shard, scope, chunks[i]));
    // A chunk a replay finds written has nothing left to do: no round trip.
    if (statements.length) written += await runBatch(db, [...facts, ...statements]);
    await progress?.(20 + (70 * (i + 1)) / chunks.length);
  }
  // Texts the snapshot keeps unchanged, and a segment whose end differs from the snapshot's, are checked here with the
  // glossary rules (the chunks wrote the reading rules only): one read of the track, writes only where a mask differs.
  // A track in a term language has the video's other tracks checked again too.
  await recheckWrittenTrack(db, scope, store.terms);
  return { changed, removed, rows_written: written };
}

/**
 * A restore a request makes at once (at most RESTORE_INLINE_CUES cues): its writes, then its event if it changed
 * anything (no replay: the request is the only writer of this key).
 */
export async function restoreInline(deps: Deps, store: TrackShard & { terms: Terms }, scope: ImportScope, cues: readonly SnapshotCue[]) {
  const written = await writeRestore(store, `restore:${crypto.randomUUID()}`, scope, cues);
  if (written.changed) await announce(deps.db, scope, "restore");
  return written;
}

/** After a restore's writes: its version (equal in content to the one restored) and what a change sets off. */
export async function finishRestore(
  deps: Pick<Deps, "db" | "env">,
  store: Omit<TrackShard, "facts">,
  t: Track,
  by: { userId: number; applicationId: number | null; number: number },
) {
  const version = await recordVersion(store, t, {
    cause: "restore",
    authorId: by.userId,
    applicationId: by.applicationId,
    restoredFrom: by.number,
  });
  await afterWrite(deps, { track: t, scopes: ["catalogue"], events: true });
  return version;
}
