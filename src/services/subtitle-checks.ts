import type { SQL } from "drizzle-orm";
import { videoWithContainer, videoWithContainerQuery } from "../db/queries/catalogue";
import { videoPlacementQuery } from "../db/queries/shards";
import { videoGlossaryQuery } from "../db/queries/glossary";
import {
  neighbourCueQuery,
  segmentCuesQuery,
  setChecksStatement,
  trackChecksQuery,
  trackCuesQuery,
  trackFindingsQuery,
  uncheckedTracksQuery,
  videoTextsQuery,
} from "../db/queries/subtitle-checks";
import { runBatch } from "../db/raw-batch";
import { batchWith } from "../db/rider";
import type { ShardDB } from "../db/shards";
import type { GlossaryTermInput } from "../domain/glossary-match";
import {
  CHECK_RULES,
  GLOSSARY_MASK,
  READING_MASK,
  checksMask,
  cueFindings,
  isGlossaryRule,
  measure,
  ruleBit,
  trackMasks,
  type CheckRule,
} from "../domain/subtitles/checks";
import { isTermLanguage, trackGlossary, type FindingTerm, type SourceText } from "../domain/subtitles/glossary-checks";
import { DEFAULT_FRAME_RATE, profileFor } from "../domain/subtitles/profiles";
import { formatId } from "../lib/ids";
import type { Paging } from "../lib/paging";
import type { User } from "../types";
import { caller, requireVisibleVideo } from "./access";
import { viewer, type Deps } from "./deps";
import { readShard } from "./shards";
import type { Track } from "./subtitle-versions";

/**
 * The quality checks of stored cues (docs/decisions.md, "Quality checks"): computed by the Worker when a cue is
 * written and stored as its mask, the per-track counts following through the shard's triggers. Videos carry no frame
 * rate, so gaps are counted at DEFAULT_FRAME_RATE. The glossary rules need the series' terms (`terms`, read by the
 * caller from the catalogue in the batch it already sends) and the same segments' texts in the terms' languages.
 */

/** A series' terms as the checks take them: every one (at most GLOSSARY_MAX_TERMS). */
export type Terms = readonly GlossaryTermInput[];

/** A finding of one cue: a reading rule's measure, or a glossary rule's terms (docs/api.md, "Quality checks"). */
export interface CueFinding {
  rule: CheckRule;
  value: number | null;
  limit: number | null;
  terms?: FindingTerm[];
}

/** Masks written per statement: the JSON of 1,000 `{id, v, c}` rows stays far under D1's 100 KB a statement. */
const CHECKS_PER_STATEMENT = 1000;

/**
 * Checks every cue with text of a track again, the glossary rules with `terms` (the series'), and stores the masks that
 * changed: one read (an index range, in one batch with the term languages' texts of the video when there are terms)
 * and one statement per CHECKS_PER_STATEMENT changed masks. What the import and the restore call after their last
 * chunk (their chunks write the reading rules only), and the checks job. Idempotent. `glossaryAt`: each cue's
 * glossary bits by its start, for the import's report.
 */
export async function recheckTrack(db: ShardDB, t: Track, terms: Terms = []) {
  const glossary = trackGlossary(terms, t.language);
  const [cues, texts] = glossary?.sourceLanguages.length
    ? await db.batch([trackCuesQuery(db, t.videoId, t.language), videoTextsQuery(db, t.videoId, glossary.sourceLanguages)])
    : [await trackCuesQuery(db, t.videoId, t.language).all(), []];
  const bySegment = new Map<number, SourceText[]>();
  for (const x of texts) {
    const list = bySegment.get(x.segmentId) ?? [];
    list.push(x);
    bySegment.set(x.segmentId, list);
  }
  const glossaryMask = glossary ? (i: number) => glossary.mask(cues[i].text, bySegment.get(cues[i].segmentId) ?? []) : undefined;
  const masks = trackMasks(cues, t.language, DEFAULT_FRAME_RATE, glossaryMask);
  const changed = cues.flatMap((cue, i) => (cue.checks === masks[i] ? [] : [{ id: cue.id, v: cue.version, c: masks[i] }]));
  const statements: SQL[] = [];
  for (let i = 0; i < changed.length; i += CHECKS_PER_STATEMENT)
    statements.push(setChecksStatement(changed.slice(i, i + CHECKS_PER_STATEMENT)));
  if (statements.length) await runBatch(db, statements);
  const glossaryAt = new Map(cues.map((cue, i) => [cue.startMs, (masks[i] ?? 0) & GLOSSARY_MASK]));
  return { cues: cues.length, changed: changed.length, glossaryAt };
}

/**
 * The final check of an import or a restore of track `t` (docs/decisions.md, "Quality checks"): the track, and when
 * its language is one the series' terms are in, every other track of the video as well, whose glossary findings read
 * its texts (the video's languages from track_checks). Returns the track's own recheck.
 */
export async function recheckWrittenTrack(db: ShardDB, t: Track, terms: Terms) {
  const own = await recheckTrack(db, t, terms);
  if (isTermLanguage(terms, t.language)) {
    const languages = await trackChecksQuery(db, t.videoId);
    for (const { language } of languages) if (language !== t.language) await recheckTrack(db, { videoId: t.videoId, language }, terms);
  }
  return own;
}

/**
 * An edit's checks (docs/decisions.md, "Quality checks"): the cue's own findings with its next cue and the same
 * segment's texts in the term languages, and the previous cue's mask again, since its gap is now to this cue (or, a
 * blank text, to the next). When the track's language is a term language, the glossary bits of the segment's cues in
 * the other languages are checked again with the new text as their source. The neighbours and the segment's cues are
 * read (`editCheckReads`) in the batch that reads the cue before the write, so the checks add no round trip;
 * `statements` (the masks that changed) go in the edit's own batch.
 */
export const editCheckReads = (db: ShardDB, t: Track, startMs: number) =>
  [
    neighbourCueQuery(db, t.videoId, t.language, startMs, "before"),
    neighbourCueQuery(db, t.videoId, t.language, startMs, "after"),
    segmentCuesQuery(db, t.videoId, startMs),
  ] as const;

/** What `editCheckReads` read, in its order. */
export type EditCheckRows = [
  Awaited<ReturnType<typeof editCheckReads>[0]>,
  Awaited<ReturnType<typeof editCheckReads>[1]>,
  Awaited<ReturnType<typeof editCheckReads>[2]>,
];

/** The edit's findings, its mask and the statements of the neighbours' masks, from what `editCheckReads` read. */
export function editChecks(rows: EditCheckRows, t: Track, cue: { startMs: number; endMs: number; text: string }, terms: Terms = []) {
  const [[before], [after], segment] = rows;
  const profile = profileFor(t.language);
  const hasText = cue.text.trim() !== "";
  const reading = hasText ? cueFindings(cue, after ?? null, profile, DEFAULT_FRAME_RATE) : [];
  const others = segment.filter((c) => c.language !== t.language);
  const glossary = hasText ? (trackGlossary(terms, t.language)?.findings(cue.text, others) ?? []) : [];
  const findings: CueFinding[] = [...reading, ...glossary.map((g) => ({ rule: g.rule, value: null, limit: null, terms: g.terms }))];
  const statements: SQL[] = [];
  if (before) {
    const reread = checksMask(cueFindings(before, hasText ? cue : (after ?? null), profile, DEFAULT_FRAME_RATE));
    const mask = (reread & READING_MASK) | ((before.checks ?? 0) & GLOSSARY_MASK);
    if (mask !== before.checks) statements.push(setChecksStatement([{ id: before.id, v: before.version, c: mask }]));
  }
  if (isTermLanguage(terms, t.language)) {
    const texts = [...others, { language: t.language, text: cue.text }];
    for (const other of others) {
      if (other.checks === null || !other.text.trim()) continue;
      const check = trackGlossary(terms, other.language)!;
      const mask =
        (other.checks & READING_MASK) |
        check.mask(
          other.text,
          texts.filter((x) => x.language !== other.language),
        );
      if (mask !== other.checks) statements.push(setChecksStatement([{ id: other.id, v: other.version, c: mask }]));
    }
  }
  const mask = findings.reduce((m, f) => m | ruleBit(f.rule), 0);
  return { findings, mask: hasText ? mask : null, statements };
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
 * Checks a shard's tracks with cues never checked (one container's with `containerId`; every track with text, with
 * `all`: what a glossary write queues), in (video, language) order from `from` (docs/operations.md, "Quality checks of
 * existing subtitles"). `termsOf(container)` gives a series' terms (the job reads each series' once from the
 * catalogue). `checkpoint(progress)` runs before each track and may throw to stop a delivery (a continuing job); a cue
 * written meanwhile is checked by its own writer.
 */
export async function checkShardTracks(
  db: ShardDB,
  scope: { containerId?: number; all?: boolean },
  from: ChecksProgress,
  checkpoint: (progress: ChecksProgress) => void,
  termsOf: (containerId: number) => Promise<Terms> = async () => [],
): Promise<ChecksProgress> {
  let progress = from;
  for (;;) {
    const tracks = await uncheckedTracksQuery(db, {
      afterVideo: progress.afterVideo,
      afterLanguage: progress.afterLanguage,
      containerId: scope.containerId,
      all: scope.all,
      limit: JOB_TRACKS_PER_READ,
    });
    if (!tracks.length) return progress;
    for (const t of tracks) {
      checkpoint(progress);
      const done = await recheckTrack(db, t, await termsOf(t.containerId));
      progress = {
        afterVideo: t.videoId,
        afterLanguage: t.language,
        tracks: progress.tracks + 1,
        changed: progress.changed + done.changed,
      };
    }
  }
}

/** A glossary finding's term on the wire: its id as the glossary routes name it. */
export interface TermView {
  id: string;
  term: string;
  expected: string | null;
}
const termViews = (terms: readonly FindingTerm[]): TermView[] => terms.map((x) => ({ ...x, id: formatId(x.id, "k") }));

/** A finding of one cue on the wire (an edit's answer): a glossary rule's with null measure and its terms. */
export const cueFindingView = (f: CueFinding) =>
  f.terms ? { rule: f.rule, value: null, limit: null, terms: termViews(f.terms) } : { rule: f.rule, value: f.value, limit: f.limit };

/** The wire form of a finding (docs/api.md, "Quality checks"). */
export interface FindingView {
  rule: CheckRule;
  start_ms: number;
  end_ms: number;
  text: string;
  value: number | null;
  limit: number | null;
  terms?: TermView[];
}

/**
 * One page of a track's findings, for a caller who may see the video (else 404), with `rule` only that rule's: one
 * catalogue batch (the video, its placement, its series' terms), then one shard statement (trackFindingsQuery). Each
 * reading finding's value and limit are measured again from the cue, its next cue's start and the language's profile;
 * each glossary finding's terms are found again from the cue, the segment's other texts and today's terms (none when
 * the glossary changed and its recheck job has not yet run). Returns `perPage + 1` findings at most (the extra one
 * tells `more`) and the total of the list.
 */
export async function trackFindings(deps: Deps, user: User | undefined, t: Track, rule: CheckRule | undefined, p: Paging) {
  const { db } = deps;
  const [found, placed, terms] = await batchWith(db, deps.session, [
    videoWithContainerQuery(db, t.videoId),
    videoPlacementQuery(db, t.videoId),
    videoGlossaryQuery(db, t.videoId),
  ]);
  await requireVisibleVideo(caller(db, await viewer(deps, user)), videoWithContainer(found));
  if (!placed[0]) return { findings: [], total: 0 };
  const mask = rule ? ruleBit(rule) : (1 << CHECK_RULES.length) - 1;
  const rows = await trackFindingsQuery(readShard(deps, placed[0]), {
    videoId: t.videoId,
    language: t.language,
    mask,
    rules: CHECK_RULES,
    glossaryRules: CHECK_RULES.filter(isGlossaryRule),
    limit: p.limit,
    offset: p.offset,
  });
  const profile = profileFor(t.language);
  const glossary = trackGlossary(terms, t.language);
  const findings = rows.map((r): FindingView => {
    const rule = r.rule as CheckRule;
    const cue = { start_ms: r.startMs, end_ms: r.endMs, text: r.text };
    if (isGlossaryRule(rule)) {
      const sources = (JSON.parse(r.sources ?? "[]") as Array<[string, string]>).map(([language, text]) => ({ language, text }));
      const found = glossary?.findings(r.text, sources).find((g) => g.rule === rule)?.terms ?? [];
      return { rule, ...cue, value: null, limit: null, terms: termViews(found) };
    }
    const next = r.nextStartMs === null ? null : { startMs: r.nextStartMs, endMs: r.nextStartMs, text: "" };
    const { value, limit } = measure(rule, r, next, profile);
    return { rule, ...cue, value, limit };
  });
  return { findings, total: rows[0]?.total ?? p.offset };
}
