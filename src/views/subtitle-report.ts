import type { ReportRow } from "../services/subtitle-reports";
import { formatId } from "../lib/ids";
import { isoTime } from "../lib/time";
import { userRef } from "./user";

/**
 * A report as its container's moderators read it: the subtitle as it was reported (its text then, not now), who
 * reported it and why, the track's version at the time, and how it was resolved.
 */
export function subtitleReportView(r: ReportRow, origin: string) {
  return {
    id: formatId(r.id, "r"),
    subtitle: {
      id: formatId(r.subtitleId, "s"),
      language: r.language,
      text: r.text,
      video_id: r.videoId === null ? null : formatId(r.videoId, "v"),
    },
    reporter: userRef({ id: r.userId, username: r.username }, origin),
    reason: r.reason,
    version: r.version,
    status: r.status,
    created_at: isoTime(r.createdAt) ?? "",
    resolution:
      r.resolution === null
        ? null
        : { action: r.resolution, by: r.resolvedBy === null ? null : formatId(r.resolvedBy, "u"), at: isoTime(r.resolvedAt) },
  };
}
