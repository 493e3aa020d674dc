import type { SQL } from "drizzle-orm";
import { videoWithContainer, videoWithContainerQuery } from "../db/queries/catalogue";
import { videoPlacementQuery } from "../db/queries/shards";
import {
  neighbourCueQuery,
  setChecksStatement,
  trackCuesQuery,
  trackFindingsQuery,
  uncheckedTracksQuery,
} from "../db/queries/subtitle-checks";
import { runBatch } from "../db/raw-batch";
import { batchWith } from "../db/rider";
import type { ShardDB } from "../db/shards";
import { CUE_RULES, checksMask, cueFindings, measure, ruleBit, trackMasks, type CueRule, type Finding } from "../domain/subtitles/checks";
import { DEFAULT_FRAME_RATE, profileFor } from "../domain/subtitles/profiles";
import type { Paging } from "../lib/paging";
import type { User } from "../types";
import { caller, requireVisibleVideo } from "./access";
import { viewer, type Deps } from "./deps";
import { readShard } from "./shards";
import type { Track } from "./subtitle-versions";

/**
 * The quality checks of stored cues (docs/decisions.md, "Quality checks"): computed by the Worker when a cue is
 * written and stored as its mask, the per-track counts following through the shard's triggers. Videos carry no frame
 * rate, so gaps are counted at DEFAULT_FRAME_RATE.
 */

/** Masks written per statement: the JSON of 1,000 `{id, v, c}` rows stays far under D1's 100 KB a statement. */
const CHECKS_PER_STATEMENT = 1000;

/**
 * Checks every cue with text of a track again and stores the masks that changed: one read (an index range) and one
 * statement per CHECKS_PER_STATEMENT changed masks. What the import and the restore call after their last chunk (their
 * chunks write texts unchecked), and the checks job for cues written before the checks existed. Idempotent.
 */
export async function recheckTrack(db: ShardDB, t: Track) {
  const cues = await trackCuesQuery(db, t.videoId, t.language).all();
  const masks = trackMasks(cues, t.language, DEFAULT_FRAME_RATE);
  const changed = cues.flatMap((cue, i) => (cue.checks === masks[i] ? [] : [{ id: cue.id, v: cue.version, c: masks[i] }]));
  const statements: SQL[] = [];
  for (let i = 0; i < changed.length; i += CHECKS_PER_STATEMENT)
    statements.push(setChecksStatement(changed.slice(i, i + CHECKS_PER_STATEMENT)));
  if (statements.length) await runBatch(db, statements);
  return { cues: cues.length, changed: changed.length };
}

/**
 * An edit's checks (docs/decisions.md, "Quality checks"): the cue's own findings with its next cue, and the previous
 * cue's mask again, since its gap is now to this cue (or, a blank text, to the next). The neighbours are read in one
 * batch before the write; `statements` (the previous cue's new mask, when it changed) go in the edit's own batch.
 */
export async function editChecks(db: ShardDB, t: Track, cue: { startMs: number; endMs: number; text: string }) {
  const [[before], [after]] = await db.batch([
    neighbourCueQuery(db, t.videoId, t.language, cue.startMs, "before"),
    neighbourCueQuery(db, t.videoId, t.language, cue.startMs, "after"),
  ]);
  const profile = profileFor(t.language);
  const hasText = cue.text.trim() !== "";
  const findings: Finding[] = hasText ? cueFindings(cue, after ?? null, profile, DEFAULT_FRAME_RATE) : [];
  const statements: SQL[] = [];
  if (before) {
    const mask = checksMask(cueFindings(before, hasText ? cue : (after ?? null), profile, DEFAULT_FRAME_RATE));
    if (mask !== before.checks) statements.push(setChecksStatement([{ id: before.id, v: before.version, c: mask }]));
  }
  return { findings, mask: hasText ? checksMask(findings) : null, statements };
}

/** Tracks checked per statement pair of the checks job: a track is at most a few thousand cues. */
const JOB_TRACKS_PER_READ = 20;

export interface ChecksProgress {
  /** The last track done, in (video, language) order: the walk resumes after it. */
  afterVideo: number;
  afterLanguage: string;
  tracks: number;
  changed: number;
}

/**
 * Checks a shard's tracks with cues never checked (one container's with `containerId`), in (video, language) order
 * from `from` (docs/operations.md, "Quality checks of existing subtitles"). `checkpoint(progress)` runs before each
 * track and may throw to stop a delivery (a continuing job); a cue written meanwhile is checked by its own writer.
 */
export async function checkShardTracks(
  db: ShardDB,
  scope: { containerId?: number },
  from: ChecksProgress,
  checkpoint: (progress: ChecksProgress) => void,
): Promise<ChecksProgress> {
  let progress = from;
  for (;;) {
    const tracks = await uncheckedTracksQuery(db, {
      afterVideo: progress.afterVideo,
      afterLanguage: progress.afterLanguage,
      containerId: scope.containerId,
      limit: JOB_TRACKS_PER_READ,
    });
    if (!tracks.length) return progress;
    for (const t of tracks) {
      checkpoint(progress);
      const done = await recheckTrack(db, t);
      progress = {
        afterVideo: t.videoId,
        afterLanguage: t.language,
        tracks: progress.tracks + 1,
        changed: progress.changed + done.changed,
      };
    }
  }
}

/** The wire form of a finding (docs/api.md, "Quality checks"). */
export interface FindingView {
  rule: CueRule;
  start_ms: number;
  end_ms: number;
  text: string;
  value: number;
  limit: number;
}

/**
 * One page of a track's findings, for a caller who may see the video (else 404), with `rule` only that rule's: one
 * catalogue batch (the video, its placement), then one shard statement (trackFindingsQuery). Each finding's value and
 * limit are measured again from the cue, its next cue's start and the language's profile. Returns `perPage + 1`
 * findings at most (the extra one tells `more`) and the total of the list.
 */
export async function trackFindings(deps: Deps, user: User | undefined, t: Track, rule: CueRule | undefined, p: Paging) {
  const { db } = deps;
  const [found, placed] = await batchWith(db, deps.session, [videoWithContainerQuery(db, t.videoId), videoPlacementQuery(db, t.videoId)]);
  await requireVisibleVideo(caller(db, await viewer(deps, user)), videoWithContainer(found));
  if (!placed[0]) return { findings: [], total: 0 };
  const mask = rule ? ruleBit(rule) : (1 << CUE_RULES.length) - 1;
  const rows = await trackFindingsQuery(readShard(deps, placed[0]), {
    videoId: t.videoId,
    language: t.language,
    mask,
    rules: CUE_RULES,
    limit: p.limit,
    offset: p.offset,
  });
  const profile = profileFor(t.language);
  const findings = rows.map((r): FindingView => {
    const next = r.nextStartMs === null ? null : { startMs: r.nextStartMs, endMs: r.nextStartMs, text: "" };
    const rule = r.rule as CueRule;
    const { value, limit } = measure(rule, r, next, profile);
    return { rule, start_ms: r.startMs, end_ms: r.endMs, text: r.text, value, limit };
  });
  return { findings, total: rows[0]?.total ?? p.offset };
}
