import { createRoute } from "@hono/zod-openapi";
import { SEARCH_MAX_WORDS } from "../../domain/search";
import { ApiError } from "../../lib/errors";
import { listEnvelope, paging } from "../../lib/paging";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonResponse } from "../../lib/schemas";
import { viewContext } from "../../lib/view-context";
import { depsOf } from "../../services/deps";
import { SEARCH_CONTAINER_CANDIDATES, SEARCH_VIDEO_CANDIDATES, search } from "../../services/search";
import { searchHitId, searchItemView, searchSuggestionView } from "../../views/search";
import { MAX_TERM_LENGTH, SearchList, SearchQuery, type SearchParams } from "./contracts/search";

const searchRoute = withProperties(
  createRoute({
    method: "get",
    path: "/",
    summary: "Search containers and videos by title",
    description:
      `\`term\` (or \`q\`; 1 to ${MAX_TERM_LENGTH} characters) matches the titles of containers and videos in every ` +
      `language: every term (at most the first ${SEARCH_MAX_WORDS}) required, a word as a whole word, case, accents and ` +
      "width ignored; a run of characters of a script written without spaces (Chinese, Japanese, Korean, Thai) " +
      "matches wherever it stands in a title, one character included; text in double quotes is a phrase; a video " +
      "matches by its own titles. Answers container and video objects in the v4 list envelope. `c` is the " +
      "autocomplete form: the last word is a prefix, and the items are short suggestions (`id`, `t` type, `tt` title, " +
      "`u.w`/`u.a` web and API paths, `i` poster). Only public containers (normal state, hosted, licensed) and normal " +
      "videos of them; `type`, `family_friendly`, `watchable_in` filter further. Ranking: titles matching in " +
      "`language` first (with `language`), then the exact title, a title starting with the term, every word in one " +
      "title, the words spread over several titles; then views (most first), containers before videos, then id. " +
      `Only the first ${SEARCH_CONTAINER_CANDIDATES} container and ${SEARCH_VIDEO_CANDIDATES} video matches of the ` +
      "index (in id order) are ranked and filtered, so `count` is at most their sum and a common word ranks a part " +
      "of its matches: add words to narrow it. Paging as every v4 list. Public: edge-cached, ETag and 304.",
    request: { query: SearchQuery },
    responses: { 200: jsonResponse(SearchList, "the v4 list envelope of matches, best first"), ...errorResponses(400) },
  }),
  { cache: "public", sessionInBatch: true, sharedWithUsers: true },
);

/** Which parameter carries the words: `c` (the short form) or `term`, else `q`; one is required, `c` goes alone. */
function termOf(q: SearchParams) {
  if (q.c !== undefined) {
    if (q.term !== undefined || q.q !== undefined) throw ApiError.field("c", "send either c (suggestions) or term, not both");
    return { term: q.c, field: "c", short: true };
  }
  const term = q.term ?? q.q;
  if (term === undefined) throw ApiError.field("term", "required: the words to search for (or c for suggestions)");
  return { term, field: q.term !== undefined ? "term" : "q", short: false };
}

export const searchRouter = routeGroup().openapi(searchRoute, async (c) => {
  const q = c.req.valid("query");
  const { term, field, short } = termOf(q);
  const p = paging(q);
  const request = { term, short, types: q.type, language: q.language, familyFriendly: q.family_friendly, watchableIn: q.watchable_in };
  const hits = await search(depsOf(c), request, field);
  const ctx = viewContext(c);
  const body = await listEnvelope(
    c.req.url,
    p,
    hits.slice(p.offset, p.offset + p.limit),
    (hit) => (short ? searchSuggestionView(hit) : searchItemView(hit, ctx)),
    searchHitId,
    async () => hits.length,
  );
  return c.json(body, 200);
});
