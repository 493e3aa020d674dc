import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ApiError } from "../../lib/errors";
import { parseId } from "../../lib/ids";
import { createRouter } from "../../lib/router";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { publicCache } from "../../middleware/cache";
import { requireUser } from "../../middleware/session";
import { depsOf } from "../../services/deps";
import { visibleVideo } from "../../services/localisation";
import { MAX_TIMED_COMMENTS, addTimedComment, removeTimedComment, videoTimedComments } from "../../services/timed-comments";
import type { AppEnv } from "../../types";
import { timedCommentView } from "../../views/localisation";
import { normaliseLanguageCode } from "./contracts/catalogue-writes";
import { TimedCommentBody, TimedCommentSchema } from "./contracts/timed-comments";

/**
 * Timed comments (interface: "Timed comments (v4)"). GET takes a language code and DELETE a comment id in
 * the same position (`/timed_comments/{x}`); the methods tell them apart.
 */
const param = (name: string, example: string) => z.string().openapi({ param: { name, in: "path" }, example });
const languageParams = z.object({ video_id: param("video_id", "1v"), language_code: param("language_code", "fr") });

const listRoute = (owner: "videos" | "episodes") =>
  createRoute({
    method: "get",
    path: `/v4/${owner}/{video_id}/timed_comments/{language_code}`,
    summary: owner === "videos" ? "All timed comments of a video in one language" : "Timed comments (alias of /v4/videos/...)",
    description:
      `A bare array sorted by \`time\` (milliseconds into the video), not paged: at most the first ` +
      `${MAX_TIMED_COMMENTS.toLocaleString("en")} comments by time. A malformed language code names nothing (404). ` +
      "Public: `Cache-Control: public`, ETag, 304.",
    middleware: [publicCache] as const,
    request: { params: languageParams },
    responses: { 200: jsonResponse(z.array(TimedCommentSchema), "the comments"), ...errorResponses(404) },
  });

const create = createRoute({
  method: "post",
  path: "/v4/videos/{video_id}/timed_comments/{language_code}",
  summary: "Comment at a time of a video",
  description:
    "A user token is required. `time` is milliseconds from the start, at most the video's duration when it " +
    "is known; `comment` 1-500 characters. A malformed language code is 400 naming `language_code`.",
  middleware: [requireUser] as const,
  request: { params: languageParams, body: jsonBody(TimedCommentBody) },
  responses: { 201: jsonResponse(TimedCommentSchema, "the comment"), ...errorResponses(400, 401, 404, 413) },
});

const remove = createRoute({
  method: "delete",
  path: "/v4/videos/{video_id}/timed_comments/{timed_comment_id}",
  summary: "Delete a timed comment",
  description:
    "A user token is required: the author, the container's managers or staff (anyone else 403). A comment " + "of another video is 404.",
  middleware: [requireUser] as const,
  request: { params: z.object({ video_id: param("video_id", "1v"), timed_comment_id: param("timed_comment_id", "12tc") }) },
  responses: { 204: { description: "deleted" }, ...errorResponses(401, 403, 404) },
});

async function list(c: Context<AppEnv>, params: { video_id: string; language_code: string }) {
  const deps = depsOf(c);
  const { video } = await visibleVideo(deps, c.get("user"), parseId(params.video_id, "v"));
  const language = normaliseLanguageCode(params.language_code);
  if (!language) throw ApiError.notFound();
  const rows = await videoTimedComments(deps, video.id, language);
  return rows.map((r) => timedCommentView(r, { id: r.userId, username: r.username }));
}

export const timedCommentsRouter = createRouter()
  .openapi(listRoute("videos"), async (c) => c.json(await list(c, c.req.valid("param")), 200))
  .openapi(listRoute("episodes"), async (c) => c.json(await list(c, c.req.valid("param")), 200))
  .openapi(create, async (c) => {
    const deps = depsOf(c);
    const user = c.get("user")!;
    const params = c.req.valid("param");
    const { video } = await visibleVideo(deps, user, parseId(params.video_id, "v"));
    const language = normaliseLanguageCode(params.language_code);
    if (!language) throw ApiError.field("language_code", "a language code: two letters, optionally -<two letters> (ko, pt-br)");
    const row = await addTimedComment(deps, user, video, language, c.req.valid("json"));
    return c.json(timedCommentView(row, user), 201);
  })
  .openapi(remove, async (c) => {
    const params = c.req.valid("param");
    await removeTimedComment(depsOf(c), c.get("user")!, parseId(params.video_id, "v"), parseId(params.timed_comment_id, "tc"));
    return c.body(null, 204);
  });
