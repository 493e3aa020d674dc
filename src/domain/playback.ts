/**
 * Playback streams' vocabulary (docs/api.md, "Playback streams"): the manifest kinds, their file extensions and media
 * types, the DRM systems, and what a kept manifest must look like. Pure; the schema types its columns with these.
 */
export const PLAYBACK_KINDS = ["dash", "hls"] as const;
type PlaybackKind = (typeof PLAYBACK_KINDS)[number];
export const PLAYBACK_DRMS = ["widevine", "playready", "fairplay"] as const;

export const MANIFEST_EXTENSION = { dash: "mpd", hls: "m3u8" } as const satisfies Record<PlaybackKind, string>;
export type ManifestExtension = (typeof MANIFEST_EXTENSION)[PlaybackKind];
export const MANIFEST_MEDIA_TYPE: Record<ManifestExtension, string> = {
  mpd: "application/dash+xml",
  m3u8: "application/vnd.apple.mpegurl",
};

/** A kept manifest is at most this many bytes (UTF-8). */
export const MANIFEST_LIMIT_BYTES = 256 * 1024;

/** The R2 key of a kept manifest: named by its bytes, so streams with the same manifest share one object. */
export const manifestKey = (sha256: string, ext: ManifestExtension) => `playback-manifests/${sha256}.${ext}`;

/** `<64 hex>.<mpd|m3u8>`: a kept manifest's file name, or null. */
export function parseManifestFile(file: string): { sha256: string; ext: ManifestExtension } | null {
  const m = /^([0-9a-f]{64})\.(mpd|m3u8)$/.exec(file);
  return m ? { sha256: m[1], ext: m[2] as ManifestExtension } : null;
}

/**
 * Why `text` does not look like a manifest of `kind`, or null when it does: DASH is XML whose root element is `MPD`
 * (after an optional byte-order mark, XML declaration, comments and processing instructions); HLS starts with the line
 * `#EXTM3U` (RFC 8216, 4.3.1.1). A look at the start only: players judge the rest.
 */
export function manifestProblem(kind: PlaybackKind, text: string): string | null {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (kind === "hls") {
    const first = body.split("\n", 1)[0].replace(/\r$/, "").trimEnd();
    return first === "#EXTM3U" ? null : "an HLS playlist starts with the line #EXTM3U";
  }
  let at = 0;
  for (;;) {
    while (at < body.length && /\s/.test(body[at])) at++;
    const close = body.startsWith("<!--", at) ? "-->" : body.startsWith("<?", at) ? "?>" : null;
    if (!close) break;
    const end = body.indexOf(close, at);
    if (end < 0) break;
    at = end + close.length;
  }
  return /^<MPD[\s/>]/.test(body.slice(at, at + 5)) ? null : "a DASH manifest is XML whose root element is <MPD>";
}
