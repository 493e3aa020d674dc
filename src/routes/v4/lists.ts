import { createRoute, z } from "@hono/zod-openapi";
import { findList } from "../../db/queries/lists";
import { ApiError } from "../../lib/errors";
import { parseId } from "../../lib/ids";
import { listEnvelope, paging } from "../../lib/paging";
import { createRouter } from "../../lib/router";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { viewContext } from "../../lib/view-context";
import { publicCache } from "../../middleware/cache";
import {
  MAX_LIST_ITEMS,
  SUBTITLE_COMPLETION_THRESHOLD,
  createList,
  itemWireId,
  readListPage,
  startListEdit,
} from "../../services/lists";
import { requireStaff } from "../../middleware/session";
import { jobView } from "../../views/job";
import { listItemView, listView } from "../../views/list";
import { idParam } from "./contracts/catalogue";
import { ListCreateBody, ListEditBody, ListItemsEnvelope, ListItemsQuery, ListSchema } from "./contracts/lists";
import { JobSchema } from "./jobs";


const read = createRoute({
  method: "get",
  path: "/v4/lists/{list_id}",
  summary: "The items of a list: full container and video objects in list order",
  description:
    "Natural (list) order only. Items not in the normal state (and videos of containers not in the normal state) " +
    "are left out. Filters: `type` (a container type keeps containers of that type, a video type videos of that " +
    "type), `genre` and `origin_country` (a video's are its container's), `subtitle_completion` (the item's own " +
    `completion in that language is at least ${SUBTITLE_COMPLETION_THRESHOLD}%). Public: \`Cache-Control: public\`, ETag, 304.`,
  middleware: [publicCache] as const,
  request: { params: idParam("list_id", "1l"), query: ListItemsQuery },
  responses: { 200: jsonResponse(ListItemsEnvelope, "the list envelope"), ...errorResponses(400, 404) },
});

const create = createRoute({
  method: "post",
  path: "/v4/lists",
  summary: "Create a list (staff)",
  middleware: [requireStaff] as const,
  request: { body: jsonBody(ListCreateBody) },
  responses: { 201: jsonResponse(ListSchema, "the new, empty list"), ...errorResponses(400, 401, 403, 413) },
});

const edit = createRoute({
  method: "put",
  path: "/v4/lists/{list_id}",
  summary: "Replace a list's items (staff; a queued job)",
  description:
    `Up to ${MAX_LIST_ITEMS} ids of videos and containers. Answers 202 with a \`list-edit\` job; ` +
    "`GET /v4/jobs/<id>.json` shows its progress and result `{list_id, items, skipped: [{id, reason}]}` " +
    "(reasons: `malformed`, `not found`, `not normal`, `duplicate`).",
  middleware: [requireStaff] as const,
  request: { params: idParam("list_id", "1l"), body: jsonBody(ListEditBody) },
  responses: {
    202: jsonResponse(z.object({ job: JobSchema }), "the queued list-edit job"),
    ...errorResponses(400, 401, 403, 404, 413),
  },
});

export const listsRouter = createRouter()
  .openapi(read, async (c) => {
    const db = c.get("db");
    const list = await findList(db, parseId(c.req.valid("param").list_id, "l"));
    if (!list) throw ApiError.notFound();
    const q = c.req.valid("query");
    const p = paging(q);
    const filter = {
      type: q.type,
      genreId: q.genre,
      originCountry: q.origin_country,
      subtitleLanguage: q.subtitle_completion,
      threshold: SUBTITLE_COMPLETION_THRESHOLD,
    };
    const { refs, entries, count } = await readListPage(db, list.id, filter, p);
    const ctx = viewContext(c);
    const body = await listEnvelope(
      c.req.url,
      p,
      refs,
      (ref) => {
        const entry = entries.get(itemWireId(ref));
        return entry ? listItemView(entry, ctx) : null;
      },
      itemWireId,
      count,
    );
    // An item deleted between the two reads has no entry: drop it rather than answer a null.
    if (!p.onlyIds) body.response = (body.response as unknown[]).filter((item) => item !== null);
    return c.json(body as z.infer<typeof ListItemsEnvelope>, 200);
  })
  .openapi(create, async (c) => {
    const { titles } = c.req.valid("json");
    const list = await createList(c.get("db"), titles);
    return c.json(listView(list, titles, [], new URL(c.req.url).origin), 201);
  })
  .openapi(edit, async (c) => {
    const db = c.get("db");
    const list = await findList(db, parseId(c.req.valid("param").list_id, "l"));
    if (!list) throw ApiError.notFound();
    const job = await startListEdit(db, c.env, c.get("user")!, list.id, c.req.valid("json").videos);
    return c.json({ job: jobView(job, new URL(c.req.url).origin) }, 202);
  });
