import { createRoute } from "@hono/zod-openapi";
import { SEARCH_MAX_WORDS } from "../../domain/search";
import { ApiError } from "../../lib/errors";
import { parseId } from "../../lib/ids";
import { listEnvelope, paging } from "../../lib/paging";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonResponse } from "../../lib/schemas";
import { viewContext } from "../../lib/view-context";
import { depsOf } from "../../services/deps";
import { SEARCH_CONTAINER_CANDIDATES, SEARCH_VIDEO_CANDIDATES, search } from "../../services/search";
import { SUBTITLE_SEARCH_CANDIDATES, searchSubtitles } from "../../services/subtitle-search";
import { searchHitId, searchItemView, searchSuggestionView, subtitleHitView } from "../../views/search";
import {
  MAX_TERM_LENGTH,
  SUBTITLE_SEARCH_MAX_PER_PAGE,
  SearchList,
  SearchQuery,
  SubtitleHitList,
  SubtitleSearchQuery,
  type SearchParams,
} from "./contracts/search";

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

const subtitleSearchRoute = withProperties(
  createRoute({
    method: "get",
    path: "/subtitles",
    summary: "Find a moment: search inside subtitle lines in every language",
    description:
      "Each item is one subtitle line: the video object (with its container), `language`, `start_ms`, `end_ms`, " +
      "`text`, `highlight` (code-unit ranges of the match in `text`), `viewer` (the same segment's line in " +
      "`viewer_language`: segments are shared by every language of a video, so it is exact) and `url` (the web path " +
      "playing from the line, `#t=start,end` in seconds, and the API path of the video). Only lines of normal videos " +
      "of public containers (the rule of `/v4/search.json`). Ranking: a line holding `q` as one phrase first, then " +
      "the full-text rank, then the video's views, then video, time and language. Each shard's newest " +
      `${SUBTITLE_SEARCH_CANDIDATES} matching lines are ranked (narrow with \`language\`, \`container_id\` or more ` +
      "words to reach older ones), so `count` is at most that per shard asked. `container_id` or `video_id` asks that " +
      "container's shard only. `incomplete: true` when a shard did not answer in time. 25 lines a page by default, at " +
      `most ${SUBTITLE_SEARCH_MAX_PER_PAGE}. Public: edge-cached, ETag and 304 (an incomplete answer is not kept).`,
    request: { query: SubtitleSearchQuery },
    responses: { 200: jsonResponse(SubtitleHitList, "the matching lines, best first"), ...errorResponses(400, 404) },
  }),
  { cache: "public", sessionInBatch: true, sharedWithUsers: true },
);

export const searchRouter = routeGroup()
  .openapi(subtitleSearchRoute, async (c) => {
    const q = c.req.valid("query");
    const p = paging({ ...q, per_page: Math.min(q.per_page, SUBTITLE_SEARCH_MAX_PER_PAGE) });
    const { hits, incomplete } = await searchSubtitles(depsOf(c), {
      q: q.q,
      language: q.language,
      viewerLanguage: q.viewer_language,
      containerId: q.container_id === undefined ? undefined : parseId(q.container_id, "c"),
      videoId: q.video_id === undefined ? undefined : parseId(q.video_id, "v"),
      types: q.type,
      familyFriendly: q.family_friendly,
      watchableIn: q.watchable_in,
    });
    const ctx = viewContext(c);
    const body = await listEnvelope(
      c.req.url,
      p,
      hits.slice(p.offset, p.offset + p.limit),
      (hit) => subtitleHitView(hit, ctx, q.viewer_language),
      (hit) => `${hit.id}`,
      async () => hits.length,
    );
    // A part missing now may answer on the next request: an incomplete answer is not kept by any cache.
    if (incomplete) c.header("cache-control", "no-store");
    return c.json({ ...body, incomplete }, 200);
  })
  .openapi(searchRoute, async (c) => {
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
