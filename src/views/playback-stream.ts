import type { PlaybackStreamRow } from "../db/schema";
import { MANIFEST_EXTENSION } from "../domain/playback";
import { formatId } from "../lib/ids";
import { isoTime } from "../lib/time";

/** The SHA-256 a kept manifest's key names (`playback-manifests/<sha256>.<ext>`). */
const sha256Of = (key: string | null) => (key ? (/([0-9a-f]{64})\.[a-z0-9]+$/.exec(key)?.[1] ?? null) : null);

/** A stream as its managers read it after a write. */
export function streamView(s: PlaybackStreamRow) {
  return {
    id: formatId(s.id, "ps"),
    video_id: formatId(s.videoId, "v"),
    kind: s.kind,
    manifest_url: s.manifestUrl,
    manifest_sha256: sha256Of(s.manifestKey),
    resolutions: s.resolutions,
    audio_languages: s.audioLanguages,
    drm: s.drm,
    created_by: s.createdBy === null ? null : formatId(s.createdBy, "u"),
    created_at: isoTime(s.createdAt),
    updated_at: isoTime(s.updatedAt),
  };
}

/** Where a grant holder fetches a kept manifest: `/v4/videos/<id>/playback_manifests/<sha256>.<ext>?stream_id=<grant>`. */
const manifestUrl = (origin: string, s: PlaybackStreamRow, grant: string) =>
  `${origin}/v4/videos/${formatId(s.videoId, "v")}/playback_manifests/${sha256Of(s.manifestKey)}.${MANIFEST_EXTENSION[s.kind]}?stream_id=${grant}`;

/**
 * The playback streams answer (yt-dlp reads `main[0].url` as DASH and `main[0].properties.track.stream_id`): the rows
 * come DASH first, then by id. The grant is repeated on each stream, where yt-dlp looks for it.
 */
export function streamsAnswerView(rows: PlaybackStreamRow[], grant: { grant: string; expiresAt: number }, origin: string) {
  return {
    main: rows.map((s) => ({
      id: formatId(s.id, "ps"),
      kind: s.kind,
      url: s.manifestUrl ?? manifestUrl(origin, s, grant.grant),
      resolutions: s.resolutions,
      audio_languages: s.audioLanguages,
      drm: s.drm,
      properties: { track: { stream_id: grant.grant } },
    })),
    stream_id: grant.grant,
    expires_at: isoTime(grant.expiresAt) ?? "",
  };
}
