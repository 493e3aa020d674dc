import { createRoute, z } from "@hono/zod-openapi";
import { cursorField } from "../../lib/cursor";
import { ApiError } from "../../lib/errors";
import { parseId, tryParseId } from "../../lib/ids";
import { listEnvelope, pagingQuery, paging } from "../../lib/paging";
import { alsoAsGet, routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonResponse } from "../../lib/schemas";
import { depsOf } from "../../services/deps";
import { requireHistoryReader, userHistoryPage, type HistoryFilter } from "../../services/histories";
import { historyView } from "../../views/localisation";
import { DEMO_IDS, idParam } from "./contracts/catalogue";
import { HistoriesBody, HistoriesEnvelope } from "./contracts/histories";

const list = alsoAsGet(
  withProperties(
    createRoute({
      method: "post",
      path: "/{user_id}/subtitle_histories",
      summary: "A user's subtitle history (official applications)",
      description:
        "Every timing (`segment`) and text (`subtitle`) change the user made, newest first, in the v4 list envelope. " +
        "The optional JSON body filters by `video_id` and `language` and may carry `page` and `per_page` (the same " +
        "query parameters win when both are sent). `cursor=` (query only) pages by keyset: the envelope's `cursor` reads the " +
        "next page at any depth, past the paging ceiling; not with `page`. Official applications only (`app=` missing 400, another application 403); " +
        "the user themself or staff: no token 401/4500, another user's token 403/5403, an unknown user 404 (staff). " +
        "Also served as GET with the filters in the query, as the v4 gem reads it.",
      request: {
        params: idParam("user_id", DEMO_IDS.user),
        query: z.object({ ...pagingQuery, cursor: cursorField }),
        body: { required: false, content: { "application/json": { schema: HistoriesBody } } },
      },
      responses: {
        200: jsonResponse(HistoriesEnvelope, "the history page"),
        ...errorResponses(400, 401, 403, 404, 413),
      },
    }),
    {
      security: ["officialApp", "user"],
      cache: "user",
      writeLimit: null,
      noWriteLimitBecause: "a read: its filters come in a JSON body, as the interface has it",
    },
  ),
);

export const historiesRouter = routeGroup({ tag: "subtitle_histories" }).openapi(list, async (c) => {
  const deps = depsOf(c);
  const userId = parseId(c.req.valid("param").user_id, "u");
  await requireHistoryReader(deps, c.get("user")!, userId);
  const body = c.req.valid("json");
  const query = c.req.valid("query");
  const filter: HistoryFilter = { userId, language: body.language };
  if (body.video_id !== undefined) {
    const videoId = tryParseId(body.video_id, "v");
    if (videoId === null) throw ApiError.field("video_id", "a video id such as 1v");
    filter.videoId = videoId;
  }
  // The query wins when both carry paging, so `pagination` links (which set ?page=) work with any body.
  const fromQuery = (name: "page" | "per_page") => c.req.query(name) !== undefined || body[name] === undefined;
  const p = paging(
    {
      ...query,
      page: fromQuery("page") ? query.page : body.page,
      per_page: fromQuery("per_page") ? query.per_page : body.per_page,
    },
    c.req.query("page") !== undefined || body.page !== undefined,
  );
  const { rows, count, next } = await userHistoryPage(deps, filter, p);
  const envelope = await listEnvelope(c.req.url, p, rows, historyView, (h) => String(h.id), count, next);
  return c.json(envelope, 200);
});
