import { env } from "cloudflare:workers";

/**
 * A container from before the subtitles moved to the shards (docs/decisions.md, "Subtitles on the shards"): its
 * subtitle family in the CATALOGUE's tables, as the releases before the switch wrote it, and its directory row marked
 * not copied, as migration 0032 marks every container that existed then. Only the copy job
 * (src/jobs/subtitle-family-copy.ts) reads these rows now; a test of the copy writes them with this.
 */

/** Marks the container as one from before the switch: its subtitle routes answer 503 until its copy is checked. */
export async function fromBeforeTheSwitch(containerId: number) {
  await env.DB.prepare("UPDATE shard_directory SET subtitles_copied = 0 WHERE container_id = ?").bind(containerId).run();
}

/** The container's `subtitles_copied` flag (1 once its copy is checked). */
export async function subtitlesCopied(containerId: number) {
  return env.DB.prepare("SELECT subtitles_copied AS copied FROM shard_directory WHERE container_id = ?").bind(containerId).first("copied");
}

/**
 * A track in the catalogue, as an import before the switch wrote it: the video's segments (one a second, `cues` of
 * them, kept when they exist), a subtitle in `language` on each, a history row for the import (the catalogue's
 * triggers derive the contributions from it, as they flag translations and count languages from the subtitles) and a
 * version row. Ids are the catalogue's own.
 */
export async function catalogueTrack(video: { id: number; containerId: number }, language: string, cues: number, authorId: number) {
  await env.DB.batch([
    env.DB.prepare(
      `WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k + 1 < ?2)
       INSERT INTO segments (video_id, start_ms, end_ms, author_id) SELECT ?1, k * 1000, k * 1000 + 900, ?3 FROM n
       WHERE true ON CONFLICT (video_id, start_ms) DO NOTHING`,
    ).bind(video.id, cues, authorId),
    env.DB.prepare(
      `INSERT INTO subtitles (segment_id, video_id, language, text, author_id)
       SELECT id, video_id, ?2, ?2 || ' line ' || start_ms, ?3 FROM segments WHERE video_id = ?1 ORDER BY start_ms LIMIT ?4`,
    ).bind(video.id, language, authorId, cues),
    env.DB.prepare(
      `INSERT INTO subtitle_histories (kind, user_id, video_id, container_id, language, count) VALUES ('subtitle', ?, ?, ?, ?, ?)`,
    ).bind(authorId, video.id, video.containerId, language, cues),
    env.DB.prepare(
      `INSERT INTO subtitle_versions (video_id, language, number, author_id, cause, cues, completion, hash, bytes)
       SELECT ?1, ?2, coalesce(max(number), 0) + 1, ?3, 'import', ?4, 100, 'h' || ?4, 10 * ?4
       FROM subtitle_versions WHERE video_id = ?1 AND language = ?2`,
    ).bind(video.id, language, authorId, cues),
  ]);
}

/** The catalogue's first subtitle of a video in a language (the one votes, reports and suggestions hang off). */
export async function firstCatalogueSubtitle(videoId: number, language: string) {
  const row = await env.DB.prepare("SELECT id FROM subtitles WHERE video_id = ? AND language = ? ORDER BY id LIMIT 1")
    .bind(videoId, language)
    .first<{ id: number }>();
  if (!row) throw new Error(`no ${language} subtitle of video ${videoId} in the catalogue`);
  return row.id;
}
