import { PSEUDO_TYPE } from "../domain/catalogue-types";
import { formatId } from "../lib/ids";
import type { ViewContext } from "../lib/view-context";
import type { SearchHit } from "../services/search";
import type { SubtitleHit } from "../services/subtitle-search";
import { containerView, videoView } from "./catalogue";

/** The full form: the container or video object every other v4 read answers. */
export const searchItemView = (hit: SearchHit, ctx: ViewContext) =>
  hit.kind === "c" ? containerView(hit.container, ctx) : videoView(hit.video, hit.container, ctx);

/** `12c` or `34v`, for `only_ids=true`. */
export const searchHitId = (hit: SearchHit) => (hit.kind === "c" ? formatId(hit.container.id, "c") : formatId(hit.video.id, "v"));

/**
 * The short form (`c=`), the interface's suggestion item: `id`, `t` (type), `tt` (the title shown), `u` (`w` the
 * web path, `a` the API path, both relative as the interface gave them) and `i` (the poster, a video's falling back
 * to its container's; null when neither has one). A film with a main movie links to the movie, as the interface's
 * search did (`/videos/173588v`, `/v4/videos/173588v.json`).
 */
export function searchSuggestionView(hit: SearchHit) {
  const videoLinks = (id: number) => ({ w: `/videos/${formatId(id, "v")}`, a: `/v4/videos/${formatId(id, "v")}.json` });
  if (hit.kind === "v") {
    return {
      id: formatId(hit.video.id, "v"),
      t: hit.video.type,
      tt: hit.title,
      u: videoLinks(hit.video.id),
      i: hit.video.posterUrl ?? hit.container.posterUrl ?? null,
    };
  }
  const c = hit.container;
  const id = formatId(c.id, "c");
  const path = PSEUDO_TYPE[c.type];
  return {
    id,
    t: c.type,
    tt: hit.title,
    u: hit.movieId !== null ? videoLinks(hit.movieId) : { w: `/${path}/${id}`, a: `/v4/${path}/${id}.json` },
    i: c.posterUrl ?? null,
  };
}

/** Milliseconds as the seconds of a W3C Media Fragments `#t=` (754300 is `754.3`). */
const fragmentSeconds = (ms: number) => String(Math.round(ms) / 1000);

/**
 * A line of `/v4/search/subtitles.json`: the video object (with its container), the line, where the match is in it,
 * the same segment's line in `viewer_language`, and links that start playback at the line (`#t=start,end`), relative
 * as the suggestion items' are.
 */
export function subtitleHitView(hit: SubtitleHit, ctx: ViewContext, viewerLanguage: string | undefined) {
  const id = formatId(hit.videoId, "v");
  return {
    video: videoView(hit.video, hit.container, ctx),
    language: hit.language,
    start_ms: hit.startMs,
    end_ms: hit.endMs,
    text: hit.text,
    highlight: hit.highlight,
    viewer: viewerLanguage !== undefined && hit.viewerText !== null ? { language: viewerLanguage, text: hit.viewerText } : null,
    url: { web: `/videos/${id}#t=${fragmentSeconds(hit.startMs)},${fragmentSeconds(hit.endMs)}`, api: `/v4/videos/${id}.json` },
  };
}
