import { formatId } from "../lib/ids";
import { isoTime } from "../lib/time";
import type { TmMatch } from "../services/translation-memory";

/** A translation unit as a translator's tool reads it (docs/api.md, "Translation memory (v4)"): wire ids, ISO time. */
export function tmMatchView(m: TmMatch) {
  return {
    source: m.source,
    target: m.target,
    match: m.match,
    context_match: m.contextMatch,
    origin: { video_id: formatId(m.videoId, "v"), container_id: formatId(m.containerId, "c"), start_ms: m.startMs },
    author_id: m.authorId === null ? null : formatId(m.authorId, "u"),
    updated_at: isoTime(m.updatedAt) ?? "",
    scope: m.scope,
  };
}
