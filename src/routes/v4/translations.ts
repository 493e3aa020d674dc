import { createRoute } from "@hono/zod-openapi";
import { formatId, parseId } from "../../lib/ids";
import { listEnvelope, paging } from "../../lib/paging";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonResponse } from "../../lib/schemas";
import { depsOf } from "../../services/deps";
import { currentLanguageTotals, languageCounts } from "../../services/localisation";
import { reportOriginal, translationPage, voteOnTranslation } from "../../services/translations";
import { translationView, voteView } from "../../views/localisation";
import { OkSchema } from "./contracts/catalogue-writes";
import {
  LanguageCountsSchema,
  ReportBody,
  TranslationsEnvelope,
  TranslationsQuery,
  VoteBody,
  languagePair,
  VoteSchema,
  subtitleParam,
} from "./contracts/translations";

/**
 * Translations (docs/spec/paths.md, "v4 localisation"): served under the interface's spelling `/v4/tranlslations`
 * and the `/v4/translations` real clients use (docs/spec/wire.md, "Aliases"), one router mounted under each
 * prefix (`alias` for the second). A translation is a subtitle whose language differs from its video's origin language.
 */
const spelling = (alias: boolean) => (alias ? " (alias of `/v4/tranlslations`)" : "");
const APP = "Needs `app=<application id>` (400 naming `app` without it).";

const listRoute = (alias: boolean) =>
  withProperties(
    createRoute({
      method: "get",
      path: "/",
      summary: `Translations${spelling(alias)}`,
      description:
        `${APP} Filters: \`video_id\` (that video's translations, by language then id; \`to\` optional), ` +
        "`container_id` with `to` (its normal videos in episode order), `to` alone (every translation into it, " +
        "by video), or none (every translation, newest first); `from` keeps videos whose origin language it is " +
        "(with one of the others). `origin_language` and `target_language` are other names of `from` and `to` " +
        "(both names with different values: 400 naming the second). Each item carries its timing, its original " +
        "(the same segment in the origin language) and its likes and dislikes. Only normal videos of normal " +
        "containers; an unknown or hidden `video_id`/`container_id` is 404. A language walk (`to` without `video_id` " +
        "or `container_id`) counts every video it passes as a position of the page, so a page may show fewer than " +
        "`per_page` items, even none, with `more: true`; the next page continues after it. The lists across every " +
        "video (`to` alone, or no filter) also answer `cursor` when `more` is true: `cursor=` reads the next page " +
        "after it at any depth, past the paging ceiling (not with `page`; with `video_id` or `container_id` a 400).",
      request: { query: TranslationsQuery },
      responses: { 200: jsonResponse(TranslationsEnvelope, "the translation page"), ...errorResponses(400, 404) },
    }),
    { security: ["app"], cache: "none" },
  );

const voteRoute = (alias: boolean, kind: "like" | "dislike") =>
  withProperties(
    createRoute({
      method: "post",
      path: kind === "like" ? "/{subtitle_id}/like" : "/{subtitle_id}/dislike",
      summary: `${kind === "like" ? "Upvote" : "Downvote"} a translation${spelling(alias)}`,
      description:
        `${APP} A user token is required. One vote per user and translation: voting again replaces the vote. ` +
        "The optional body `{origin_subtitle_id, reason}` is accepted for older clients and ignored. An unknown " +
        "subtitle is 404; an original (a subtitle in its video's origin language) is not a translation: 400.",
      request: {
        params: subtitleParam("the translation (target subtitle)", "9s"),
        body: { required: false, content: { "application/json": { schema: VoteBody } } },
      },
      responses: { 200: jsonResponse(VoteSchema, "the vote and the new counts"), ...errorResponses(400, 401, 404, 413) },
    }),
    { security: ["app", "user"], writeLimit: "votes" },
  );

const reportRoute = (alias: boolean) =>
  withProperties(
    createRoute({
      method: "post",
      path: "/{subtitle_id}/report",
      summary: `Report an incorrect original subtitle${spelling(alias)}`,
      description:
        `${APP} A user token is required. The path names the original subtitle (its video's origin language; a ` +
        "translation is 400). Optional body `{reason}` (at most 500 characters). The first report of a user " +
        "on a subtitle is 201; repeating it is 200 and stores nothing more.",
      request: {
        params: subtitleParam("the original subtitle", "8s"),
        body: { required: false, content: { "application/json": { schema: ReportBody } } },
      },
      responses: {
        201: jsonResponse(OkSchema, "reported"),
        200: jsonResponse(OkSchema, "already reported by this user"),
        ...errorResponses(400, 401, 404, 413),
      },
    }),
    { security: ["app", "user"], writeLimit: "reports" },
  );

const languagesRoute = (alias: boolean) =>
  withProperties(
    createRoute({
      method: "get",
      path: "/languages",
      summary: `Translation languages with counts${spelling(alias)}`,
      description:
        `${APP} Target languages with the number of translations into each, most first: ` +
        '`[{"language": "es", "count": 123}]`. Counted over the whole catalogue\'s visible videos ' +
        "and kept current as translations change.",
      request: {},
      responses: { 200: jsonResponse(LanguageCountsSchema, "languages and counts"), ...errorResponses(400) },
    }),
    { security: ["app"], cache: "none" },
  );

/** Under `/v4/tranlslations` and, as the `alias`, `/v4/translations`. */
export const translationsRouter = (alias = false) => {
  const router = routeGroup();
  router.openapi(languagesRoute(alias), async (c) => {
    const totals = await currentLanguageTotals(depsOf(c));
    return c.json(languageCounts(totals, "translations"), 200);
  });

  router.openapi(listRoute(alias), async (c) => {
    const q = c.req.valid("query");
    const p = paging(q, c.req.query("page") !== undefined);
    const filters = { ...languagePair(q), video_id: q.video_id, container_id: q.container_id };
    const { rows, votes, next, count } = await translationPage(depsOf(c), filters, p);
    const body = await listEnvelope(
      c.req.url,
      p,
      rows,
      (t) => (t ? translationView(t, votes.get(t.id)) : null),
      (t) => (t ? formatId(t.id, "s") : null),
      count,
      next,
    );
    return c.json(body, 200);
  });

  for (const kind of ["like", "dislike"] as const) {
    router.openapi(voteRoute(alias, kind), async (c) => {
      const value = kind === "like" ? 1 : -1;
      const subtitleId = parseId(c.req.valid("param").subtitle_id, "s");
      const vote = await voteOnTranslation(depsOf(c), c.get("user")!.id, subtitleId, value);
      return c.json(voteView(vote.subtitleId, vote.counts, value), 200);
    });
  }

  router.openapi(reportRoute(alias), async (c) => {
    const subtitleId = parseId(c.req.valid("param").subtitle_id, "s");
    const created = await reportOriginal(depsOf(c), c.get("user")!, subtitleId, c.req.valid("json").reason ?? "");
    return created ? c.json({ ok: true as const }, 201) : c.json({ ok: true as const }, 200);
  });
  return router;
};
