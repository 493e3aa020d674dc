import { createRoute } from "@hono/zod-openapi";
import { ApiError } from "../../lib/errors";
import { tryParseId } from "../../lib/ids";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { depsOf } from "../../services/deps";
import {
  CAPTION_ATTEMPTS,
  CAPTION_WINDOW,
  currentLanguageTotals,
  languageCounts,
  randomCaption,
  suggestCaption,
} from "../../services/localisation";
import { captionView, suggestionView } from "../../views/localisation";
import { CaptionCreateBody, CaptionSchema, CaptionSuggestionSchema, RandomCaptionQuery } from "./contracts/captions";
import { LanguageCountsSchema, languagePair } from "./contracts/translations";

/**
 * Captions (interface: "Captions (v4)"): originals that still lack a translation, and suggestions on them.
 * An original is a subtitle in its video's origin language (the video's own, else its container's).
 */
const APP = "Needs `app=<application id>` (400 naming `app` without it).";

const random = withProperties(
  createRoute({
    method: "get",
    path: "/random",
    summary: "A random caption to work on",
    description:
      `${APP} An original subtitle (in \`from\` when given) of a normal video whose segment has no subtitle in ` +
      "`to` yet; without `to`, in a language drawn from those the catalogue has subtitles in (`target_language` " +
      "names it). `origin_language` and `target_language` are other names of `from` and `to`. " +
      `The pick examines at most ${CAPTION_ATTEMPTS} windows of ${CAPTION_WINDOW} subtitles (two from ` +
      "random points, then the start), so it costs the same on any catalogue size; 404 when those windows hold " +
      "no candidate, which for a nearly finished language can happen while a rare one remains: ask again.",
    request: { query: RandomCaptionQuery },
    responses: { 200: jsonResponse(CaptionSchema, "a caption"), ...errorResponses(400, 404) },
  }),
  { security: ["app"], cache: "none" },
);

const create = withProperties(
  createRoute({
    method: "post",
    path: "/",
    summary: "Suggest a translation of a caption",
    description:
      `${APP} A user token is required. \`origin_subtitle_id\` names an original subtitle of a normal video ` +
      "(unknown: 404; a translation: 400); `language` must differ from the original's (400).",
    request: { body: jsonBody(CaptionCreateBody) },
    responses: { 201: jsonResponse(CaptionSuggestionSchema, "the suggestion"), ...errorResponses(400, 401, 404, 413) },
  }),
  { security: ["app", "user"], writeLimit: "suggestions" },
);

const languages = withProperties(
  createRoute({
    method: "get",
    path: "/languages",
    summary: "Languages with captions to work on",
    description:
      `${APP} Origin languages with the number of original subtitles in each, most first: ` +
      `\`[{"language": "ko", "count": 123}]\`. Counted over the whole catalogue's visible videos ` +
      "and kept current as subtitles change.",
    request: {},
    responses: { 200: jsonResponse(LanguageCountsSchema, "languages and counts"), ...errorResponses(400) },
  }),
  { security: ["app"], cache: "none" },
);

export const captionsRouter = routeGroup()
  .openapi(random, async (c) => {
    const { from, to } = languagePair(c.req.valid("query"));
    const caption = await randomCaption(depsOf(c), from, to);
    if (!caption) throw ApiError.notFound("no caption to work on for this language pair");
    return c.json(captionView(caption), 200);
  })
  .openapi(languages, async (c) => {
    const totals = await currentLanguageTotals(depsOf(c));
    return c.json(languageCounts(totals, "originals"), 200);
  })
  .openapi(create, async (c) => {
    const user = c.get("user")!;
    const body = c.req.valid("json");
    const originSubtitleId = tryParseId(body.origin_subtitle_id, "s");
    if (originSubtitleId === null) throw ApiError.field("origin_subtitle_id", "a subtitle id such as 9s");
    const suggestion = await suggestCaption(depsOf(c), user.id, {
      originSubtitleId,
      language: body.language,
      content: body.content,
    });
    return c.json(suggestionView(suggestion, user), 201);
  });
