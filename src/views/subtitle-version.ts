import type { VersionRow } from "../db/queries/subtitle-versions";
import { TRACK_EXTENSIONS } from "../domain/subtitles/write-file";
import { formatId } from "../lib/ids";
import { isoTime } from "../lib/time";

/** A version of a track as clients read it, with its URL in every track format. */
export function versionView(v: VersionRow, origin: string) {
  const base = `${origin}/v4/videos/${formatId(v.videoId, "v")}/subtitle_tracks/${v.language}/versions/${v.number}`;
  return {
    number: v.number,
    author: v.authorId === null ? null : formatId(v.authorId, "u"),
    app: v.applicationId === null ? null : formatId(v.applicationId, "a"),
    cause: v.cause,
    created_at: isoTime(v.createdAt) ?? "",
    cues: v.cues,
    completion: v.completion,
    hash: v.hash,
    restored_from: v.restoredFrom,
    formats: Object.fromEntries(TRACK_EXTENSIONS.map((ext) => [ext, `${base}.${ext}`])),
  };
}
