import { createRoute } from "@hono/zod-openapi";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { ApiError } from "../../lib/errors";
import { completion } from "../../jobs/completion";
import { enqueue, signingApplicationId } from "../../jobs/enqueue";
import { depsOf } from "../../services/deps";
import { applySuggestion, deleteTrack, editCue } from "../../services/subtitle-edits";
import { versionView } from "../../views/subtitle-version";
import { CueEditBody, CueEdited, CueParams, SuggestionParams, TrackDeleted } from "./contracts/subtitle-versions";
import { SubtitleFileParams } from "./contracts/subtitles";
import { trackOf } from "./subtitle-versions";

const WHO = "Official applications, with the token of staff or of a manager of the video's container.";

const editRoute = withProperties(
  createRoute({
    tags: ["subtitle_versions"],
    method: "put",
    path: "/{video_id}/subtitle_tracks/{language}/cues/{start_ms}",
    summary: "Write one cue's text (staff and the container's managers)",
    description:
      `${WHO} Creates or replaces the text of the track's cue at the video's segment starting at \`start_ms\` (404 when ` +
      "the video has no segment there; timings are the video's, shared by every language). The same text changes " +
      "nothing; otherwise a new version (cause `edit`), `subtitles.updated` with cause `edit`, and completions are " +
      "recomputed. 409 while a restore of the track is queued or running. `checks`: the quality checks of the track's " +
      "language the cue breaks now, each `{rule, value, limit}` (the cue's gap to the next cue included; the previous " +
      "cue is checked again too).",
    request: { params: CueParams, body: jsonBody(CueEditBody) },
    responses: { 200: jsonResponse(CueEdited, "the edit"), ...errorResponses(400, 401, 403, 404, 409, 413) },
  }),
  { security: ["officialApp", "user"], writeLimit: "catalogue" },
);

const deleteRoute = withProperties(
  createRoute({
    tags: ["subtitle_versions"],
    method: "delete",
    path: "/{video_id}/subtitle_tracks/{file}",
    summary: "Delete a video's subtitles in one language (staff and the container's managers)",
    description:
      `${WHO} \`file\` is the language code (\`en.json\`). Every cue of the language goes in one transaction; the ` +
      "version this makes (cause `deletion`, no cues) keeps the text, so it can be restored. `subtitles.updated` with " +
      "cause `deletion`; completions are recomputed. 404 for a language without subtitles, 409 while an import or a " +
      "restore of the track is queued or running.",
    request: { params: SubtitleFileParams },
    responses: { 200: jsonResponse(TrackDeleted, "the deletion's version"), ...errorResponses(400, 401, 403, 404, 409) },
  }),
  { ownExtension: true, security: ["officialApp", "user"], writeLimit: "imports" },
);

const applyRoute = withProperties(
  createRoute({
    tags: ["captions"],
    method: "post",
    path: "/{suggestion_id}/apply",
    summary: "Apply a caption suggestion to the subtitles (staff and the container's managers)",
    description:
      `${WHO} The suggestion's text becomes the cue in its language at the segment of the original subtitle it ` +
      "translates: an edit (a new version with cause `edit`, `subtitles.updated`, completions recomputed), answered as " +
      "the cue edit is. 404 for an unknown suggestion.",
    request: { params: SuggestionParams },
    responses: { 200: jsonResponse(CueEdited, "the edit"), ...errorResponses(400, 401, 403, 404, 409) },
  }),
  { security: ["officialApp", "user"], writeLimit: "catalogue" },
);

/** Under `/v4/captions`: suggestions become subtitles here. */
export const captionApplyRouter = routeGroup().openapi(applyRoute, async (c) => {
  const raw = c.req.valid("param").suggestion_id;
  if (!/^[1-9][0-9]{0,14}$/.test(raw)) throw ApiError.field("suggestion_id", "a caption suggestion id such as 12");
  const deps = depsOf(c);
  const user = c.get("user")!;
  const done = await applySuggestion(deps, { user, applicationId: signingApplicationId(c) ?? null }, Number(raw));
  if (done.changed)
    await enqueue(deps, completion, { videoIds: [done.track.videoId], containerIds: [done.containerId!] }, { createdBy: user.id });
  const version = done.version ? versionView(done.version, new URL(c.req.url).origin) : null;
  return c.json({ changed: done.changed, version, checks: done.findings }, 200);
});

/** Under `/v4/videos`. */
export const subtitleEditsRouter = routeGroup()
  .openapi(editRoute, async (c) => {
    const params = c.req.valid("param");
    const t = trackOf(params);
    if (!/^(0|[1-9][0-9]{0,9})$/.test(params.start_ms)) throw ApiError.field("start_ms", "milliseconds from the start: 0, 1500…");
    const deps = depsOf(c);
    const user = c.get("user")!;
    const done = await editCue(
      deps,
      { user, applicationId: signingApplicationId(c) ?? null },
      t,
      Number(params.start_ms),
      c.req.valid("json").text,
    );
    if (done.changed) await enqueue(deps, completion, { videoIds: [t.videoId], containerIds: [done.containerId!] }, { createdBy: user.id });
    const origin = new URL(c.req.url).origin;
    return c.json({ changed: done.changed, version: done.version ? versionView(done.version, origin) : null, checks: done.findings }, 200);
  })
  .openapi(deleteRoute, async (c) => {
    const params = c.req.valid("param");
    // `en.json` reaches here as `en`.
    const t = trackOf({ video_id: params.video_id, language: params.file });
    const deps = depsOf(c);
    const user = c.get("user")!;
    const done = await deleteTrack(deps, { user, applicationId: signingApplicationId(c) ?? null }, t);
    await enqueue(deps, completion, { videoIds: [t.videoId], containerIds: [done.containerId] }, { createdBy: user.id });
    return c.json({ version: done.version ? versionView(done.version, new URL(c.req.url).origin) : null }, 200);
  });
