import { createRoute } from "@hono/zod-openapi";
import { SUBTITLE_COMPLETION_THRESHOLD } from "../../domain/facets";
import { signingApplicationId } from "../../jobs/enqueue";
import { startListEdit } from "../../jobs/list-edit";
import { ApiError } from "../../lib/errors";
import { parseId } from "../../lib/ids";
import { listEnvelope, paging } from "../../lib/paging";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { viewContext } from "../../lib/view-context";
import { depsOf } from "../../services/deps";
import { MAX_LIST_ITEMS, createList, editableList, itemWireId, readList } from "../../services/lists";
import { jobView } from "../../views/job";
import { listDetailsView, listItemView, listView } from "../../views/list";
import { DEMO_IDS, idParam } from "./contracts/catalogue";
import { ListCreateBody, ListEditBody, ListItemsEnvelope, ListItemsQuery, ListSchema } from "./contracts/lists";
import { JobEnvelope } from "./jobs";

const read = withProperties(
  createRoute({
    method: "get",
    path: "/{list_id}",
    summary: "The items of a list: full container and video objects in list order, and the list's details",
    description:
      "Natural (list) order only. Items not in the normal state (and videos of containers not in the normal state) " +
      "are left out. `details` describes the list (`id`, `titles`, `source`, `url`, ...). The built-in lists `2l` and " +
      "`6l` are derived from the catalogue, not edited: `2l` holds every normal-state public (hosted and licensed) " +
      "container flagged `on_air`, most recent views first; `6l` every such container flagged `upcoming`, soonest " +
      "release date first (undated first; the v3 coming-soon order). A flag change shows on the next read. " +
      "Filters: `type` (a container type keeps containers of that type, a video type videos of that type; derived " +
      "lists hold containers only), `genre` and `origin_country` (a video's are its container's), `subtitle_completion` (the item's own " +
      `completion in that language is at least ${SUBTITLE_COMPLETION_THRESHOLD}%). Public: \`Cache-Control: public\`, ETag, 304.`,
    request: { params: idParam("list_id", DEMO_IDS.list), query: ListItemsQuery },
    responses: { 200: jsonResponse(ListItemsEnvelope, "the list envelope"), ...errorResponses(400, 404) },
  }),
  { cache: "public", sessionInBatch: true, sharedWithUsers: true },
);

const create = withProperties(
  createRoute({
    method: "post",
    path: "/",
    summary: "Create a list (staff)",
    request: { body: jsonBody(ListCreateBody) },
    responses: { 201: jsonResponse(ListSchema, "the new, empty list"), ...errorResponses(400, 401, 403, 413) },
  }),
  { security: ["staff"], writeLimit: "catalogue" },
);

const edit = withProperties(
  createRoute({
    method: "put",
    path: "/{list_id}",
    summary: "Replace a list's items (staff; a queued job)",
    description:
      "Curated lists only: the derived built-in lists `2l` (on air) and `6l` (upcoming) answer 409 naming the list. " +
      `Up to ${MAX_LIST_ITEMS} ids of videos and containers. Answers 202 with a \`list-edit\` job; ` +
      "`GET /v4/jobs/<id>.json` shows its progress and result `{list_id, items, skipped: [{id, reason}]}` " +
      "(reasons: `malformed`, `not found`, `not normal`, `duplicate`).",
    request: { params: idParam("list_id", "1l"), body: jsonBody(ListEditBody) },
    responses: {
      202: jsonResponse(JobEnvelope, "the queued list-edit job"),
      ...errorResponses(400, 401, 403, 404, 409, 413),
    },
  }),
  { security: ["staff"], writeLimit: "catalogue" },
);

export const listsRouter = routeGroup()
  .openapi(read, async (c) => {
    const deps = depsOf(c);
    const listId = parseId(c.req.valid("param").list_id, "l");
    const q = c.req.valid("query");
    const p = paging(q);
    const filter = {
      type: q.type,
      genreId: q.genre,
      originCountry: q.origin_country,
      subtitleLanguage: q.subtitle_completion,
      threshold: SUBTITLE_COMPLETION_THRESHOLD,
    };
    const page = await readList(deps.db, listId, filter, p, deps.session);
    if (!page) throw ApiError.notFound();
    const ctx = viewContext(c);
    const body = await listEnvelope(
      c.req.url,
      p,
      page.refs,
      (ref) => {
        const entry = page.entries.get(itemWireId(ref));
        return entry ? listItemView(entry, ctx) : null;
      },
      itemWireId,
      page.count,
    );
    const details = listDetailsView(page.list, page.titles, page.source, new URL(c.req.url).origin);
    return c.json({ ...body, details }, 200);
  })
  .openapi(create, async (c) => {
    const { titles } = c.req.valid("json");
    const list = await createList(c.get("db"), titles);
    return c.json(listView(list, titles, [], new URL(c.req.url).origin), 201);
  })
  .openapi(edit, async (c) => {
    const deps = depsOf(c);
    const list = await editableList(deps.db, parseId(c.req.valid("param").list_id, "l"));
    const job = await startListEdit(deps, c.get("user")!, list.id, c.req.valid("json").videos, signingApplicationId(c));
    return c.json({ job: jobView(job, new URL(c.req.url).origin) }, 202);
  });
