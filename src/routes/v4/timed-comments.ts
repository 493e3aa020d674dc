import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ApiError } from "../../lib/errors";
import { parseId } from "../../lib/ids";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { depsOf } from "../../services/deps";
import { videoScopes } from "../../services/edge-cache";
import { MAX_TIMED_COMMENTS, addTimedComment, removeTimedComment, videoTimedComments } from "../../services/timed-comments";
import type { AppEnv } from "../../types";
import { timedCommentView } from "../../views/localisation";
import { normaliseLanguageCode } from "./contracts/catalogue-writes";
import { TimedCommentBody, TimedCommentSchema } from "./contracts/timed-comments";

/**
 * Timed comments (interface: "Timed comments (v4)"). GET and POST take a language code and DELETE a comment id in
 * the same position (`/timed_comments/{x}`); the methods tell them apart. One parameter name for that position keeps
 * them one path in the OpenAPI document, which calls two templates of the same shape ambiguous.
 */
const param = (name: string, example: string, description?: string) =>
  z.string().openapi({ param: { name, in: "path", description }, example });
const videoId = param("video_id", "1v");
// The demo's first video has comments in English (scripts/demo/community.mjs).
const languageParams = z.object({ video_id: videoId, language_or_id: param("language_or_id", "en", "a language code (`fr`, `pt-br`)") });

/** Under `/v4/videos` and, as an alias, `/v4/episodes`. */
const listRoute = (alias: boolean) =>
  withProperties(
    createRoute({
      method: "get",
      path: "/{video_id}/timed_comments/{language_or_id}",
      summary: !alias ? "All timed comments of a video in one language" : "Timed comments (alias of /v4/videos/...)",
      description:
        `A bare array sorted by \`time\` (milliseconds into the video), not paged: at most the first ` +
        `${MAX_TIMED_COMMENTS.toLocaleString("en")} comments by time. A malformed language code names nothing (404). ` +
        "Public: `Cache-Control: public`, ETag, 304.",
      request: { params: languageParams },
      responses: { 200: jsonResponse(z.array(TimedCommentSchema), "the comments"), ...errorResponses(404) },
    }),
    { cache: "public", sessionInBatch: true, sharedWithUsers: true, cacheScope: (params) => videoScopes(params.video_id) },
  );

const create = withProperties(
  createRoute({
    method: "post",
    path: "/{video_id}/timed_comments/{language_or_id}",
    summary: "Comment at a time of a video",
    description:
      "A user token is required. `time` is milliseconds from the start, at most the video's duration when it " +
      "is known; `comment` 1-500 characters. A malformed language code is 400 naming `language_code`.",
    request: { params: languageParams, body: jsonBody(TimedCommentBody) },
    responses: { 201: jsonResponse(TimedCommentSchema, "the comment"), ...errorResponses(400, 401, 404, 413) },
  }),
  { security: ["user"], writeLimit: "timedComments" },
);

const remove = withProperties(
  createRoute({
    method: "delete",
    path: "/{video_id}/timed_comments/{language_or_id}",
    summary: "Delete a timed comment",
    description:
      "A user token is required: the author, the container's managers or staff (anyone else 403). A comment " + "of another video is 404.",
    request: { params: z.object({ video_id: videoId, language_or_id: param("language_or_id", "12tc", "the timed comment's id") }) },
    responses: { 204: { description: "deleted" }, ...errorResponses(401, 403, 404) },
  }),
  { security: ["user"], writeLimit: null, noWriteLimitBecause: "removes a comment; only its author or a moderator may" },
);

async function list(c: Context<AppEnv>, params: { video_id: string; language_or_id: string }) {
  const videoId = parseId(params.video_id, "v");
  // A malformed code names nothing: the same 404 as a missing or hidden video, so it is answered before any read.
  const language = normaliseLanguageCode(params.language_or_id);
  if (!language) throw ApiError.notFound();
  const rows = await videoTimedComments(depsOf(c), c.get("user"), videoId, language);
  return rows.map((r) => timedCommentView(r, { id: r.userId, username: r.username }));
}

/** Under `/v4/episodes`: the reading alias. */
export const episodeTimedCommentsRouter = routeGroup({ tag: "timed_comments" }).openapi(listRoute(true), async (c) =>
  c.json(await list(c, c.req.valid("param")), 200),
);

/** Under `/v4/videos`. */
export const timedCommentsRouter = routeGroup({ tag: "timed_comments" })
  .openapi(listRoute(false), async (c) => c.json(await list(c, c.req.valid("param")), 200))
  .openapi(create, async (c) => {
    const deps = depsOf(c);
    const user = c.get("user")!;
    const params = c.req.valid("param");
    const videoId = parseId(params.video_id, "v");
    const language = normaliseLanguageCode(params.language_or_id);
    if (!language) throw ApiError.field("language_code", "a language code: two letters, optionally -<two letters> (ko, pt-br)");
    const row = await addTimedComment(deps, user, videoId, language, c.req.valid("json"));
    return c.json(timedCommentView(row, user), 201);
  })
  .openapi(remove, async (c) => {
    const params = c.req.valid("param");
    await removeTimedComment(depsOf(c), c.get("user")!, parseId(params.video_id, "v"), parseId(params.language_or_id, "tc"));
    return c.body(null, 204);
  });
