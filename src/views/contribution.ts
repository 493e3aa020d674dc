import type { ViewContext } from "../lib/view-context";
import type { ContainerRow } from "./catalogue";
import { containerConcise } from "./catalogue";
import { userRef } from "./user";

/** An entry of `/v4/users/<id>/contributions.json`: `{container: {id, type, titles, url}, segments, subtitles}`. */
export function userContributionView(
  row: { containerId: number; type: ContainerRow["type"]; doc: ContainerRow["doc"]; segments: number; subtitles: number },
  ctx: ViewContext,
) {
  return {
    container: containerConcise({ id: row.containerId, type: row.type, doc: row.doc }, ctx),
    segments: row.segments,
    subtitles: row.subtitles,
  };
}

/** An entry of `/v4/container/<id>/contributions.json`: `{user: {id, username, url}, segments, subtitles}`. */
export function containerContributorView(row: { userId: number; username: string; segments: number; subtitles: number }, ctx: ViewContext) {
  return {
    user: userRef({ id: row.userId, username: row.username }, ctx.origin),
    segments: row.segments,
    subtitles: row.subtitles,
  };
}
