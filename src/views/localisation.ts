import type { CaptionCandidate } from "../db/queries/captions";
import type { HistoryRow } from "../db/queries/histories";
import type { TimedCommentRow } from "../db/queries/timed-comments";
import type { TranslationRow, VoteCounts } from "../db/queries/translations";
import type { captionSuggestions } from "../db/shard-schema";
import { formatId } from "../lib/ids";
import { isoTime } from "../lib/time";

const userRef = (id: number, username: string) => ({ id: formatId(id, "u"), username });

/** One entry of `POST /v4/users/<id>/subtitle_histories.json`. */
export function historyView(h: HistoryRow) {
  return {
    id: h.id,
    kind: h.kind,
    video_id: formatId(h.videoId, "v"),
    container_id: formatId(h.containerId, "c"),
    segment_id: h.segmentId,
    subtitle_id: h.subtitleId === null ? null : formatId(h.subtitleId, "s"),
    language: h.language,
    text: h.text,
    version: h.version,
    count: h.count,
    created_at: isoTime(h.createdAt),
  };
}

/** A translation with its timing, its original (the same segment in the origin language) and its votes. */
export function translationView(t: TranslationRow, votes: VoteCounts | undefined) {
  return {
    id: formatId(t.id, "s"),
    segment: { start_ms: t.start_ms, end_ms: t.end_ms },
    video_id: formatId(t.video_id, "v"),
    language: t.language,
    text: t.text,
    original: t.original_id === null ? null : { id: formatId(t.original_id, "s"), language: t.original_language!, text: t.original_text! },
    likes: votes?.likes ?? 0,
    dislikes: votes?.dislikes ?? 0,
    author: t.author_id === null ? null : userRef(t.author_id, t.author_username!),
    created_at: isoTime(t.created_at),
    updated_at: isoTime(t.updated_at),
  };
}

export function voteView(subtitleId: number, counts: VoteCounts, vote: 1 | -1) {
  return { id: formatId(subtitleId, "s"), likes: counts.likes, dislikes: counts.dislikes, vote };
}

/** A caption to work on: an original subtitle still lacking `target_language`. */
export function captionView(c: CaptionCandidate) {
  return {
    id: formatId(c.id, "s"),
    language: c.language,
    text: c.text,
    segment: { start_ms: c.start_ms, end_ms: c.end_ms },
    video_id: formatId(c.video_id, "v"),
    container_id: formatId(c.container_id, "c"),
    target_language: c.target,
  };
}

export function suggestionView(s: typeof captionSuggestions.$inferSelect, user: { id: number; username: string }) {
  return {
    id: s.id,
    origin_subtitle_id: formatId(s.originSubtitleId, "s"),
    language: s.language,
    content: s.content,
    user: userRef(user.id, user.username),
    created_at: isoTime(s.createdAt),
  };
}

/** docs/spec/wire.md, "Timed comments": `value` repeats `comment` for older clients. */
export function timedCommentView(t: Omit<TimedCommentRow, "username">, user: { id: number; username: string }) {
  return {
    id: formatId(t.id, "tc"),
    user_id: formatId(t.userId, "u"),
    time: t.timeMs,
    comment: t.comment,
    value: t.comment,
    language: t.language,
    created_at: isoTime(t.createdAt),
    user: userRef(user.id, user.username),
  };
}
