import { readContainerFields, type ContainerRow, type VideoRow } from "../db/schema";
import { CHILD_KEY, PSEUDO_TYPE } from "../domain/catalogue-types";
import { licenceDecision, licensedOf } from "../domain/licence";
import { formatId } from "../lib/ids";
import { isoTime } from "../lib/time";
import type { ViewContext } from "../lib/view-context";
import { userRef } from "./user";

export type { ContainerRow, VideoRow };

/** The main child kind of each container type: its count is always shown, even when zero. */
const MAIN_CHILD = { series: "episode", film: "movie", news: "news_clip", artist: "music_video" } as const;

const EMPTY_DOC = {
  titles: {},
  descriptions: {},
  genres: [] as number[],
  subtitle_completions: {},
  managers: [] as Array<{ id: number; username: string }>,
  video_counts: {} as Record<string, number>,
  regions: [] as string[],
};

/** The licence rule's flags for this viewer (src/domain/licence.ts), the same the playback streams answer refuses by. */
function blocking(c: ContainerRow, ctx: ViewContext) {
  const decision = licenceDecision(licensedOf(c), { region: ctx.region });
  return { blocked: decision.blocked, blocking: decision.blocking };
}

function containerApiUrl(c: Pick<ContainerRow, "id" | "type">, origin: string) {
  return `${origin}/v4/${PSEUDO_TYPE[c.type]}/${formatId(c.id, "c")}.json`;
}

export function containerView(c: ContainerRow, ctx: ViewContext) {
  const doc = c.doc ?? EMPTY_DOC;
  const id = formatId(c.id, "c");
  const children: Record<string, unknown> = {};
  const counts = { [MAIN_CHILD[c.type]]: 0, ...doc.video_counts };
  for (const [videoType, count] of Object.entries(counts)) {
    const key = CHILD_KEY[videoType as keyof typeof CHILD_KEY];
    if (key) children[key] = { count, url: { api: `${ctx.origin}/v4/containers/${id}/${key}.json` } };
  }
  return {
    id,
    type: c.type,
    origin: { country: c.originCountry, language: c.originLanguage },
    created_at: isoTime(c.createdAt),
    updated_at: isoTime(c.updatedAt),
    titles: doc.titles,
    descriptions: doc.descriptions,
    images: c.posterUrl ? { poster: { url: c.posterUrl } } : {},
    genres: doc.genres.map((g) => formatId(g, "g")),
    subtitle_completions: doc.subtitle_completions,
    managers: doc.managers.map((m) => userRef(m, ctx.origin)),
    url: { web: `${ctx.webOrigin}/${PSEUDO_TYPE[c.type]}/${id}`, api: containerApiUrl(c, ctx.origin) },
    flags: { ...readContainerFields(c, "flags"), state: c.state },
    review_stats: { average_rating: c.averageRating, count: c.ratingCount },
    ...readContainerFields(c, "top"),
    ...children,
    ...blocking(c, ctx),
  };
}

/** all.json: the concise form. */
export function containerConcise(c: Pick<ContainerRow, "id" | "type" | "doc">, ctx: ViewContext) {
  return {
    id: formatId(c.id, "c"),
    type: c.type,
    titles: c.doc?.titles ?? {},
    url: { api: containerApiUrl(c, ctx.origin) },
  };
}

export function videoView(v: VideoRow, c: ContainerRow, ctx: ViewContext) {
  const doc = v.doc ?? { titles: {}, descriptions: {}, subtitle_completions: {} };
  const id = formatId(v.id, "v");
  return {
    id,
    type: v.type,
    number: v.number,
    duration: v.duration,
    created_at: isoTime(v.createdAt),
    updated_at: isoTime(v.updatedAt),
    origin: { language: v.originLanguage || c.originLanguage },
    titles: doc.titles,
    descriptions: doc.descriptions,
    subtitle_completions: doc.subtitle_completions,
    container: {
      id: formatId(c.id, "c"),
      type: c.type,
      titles: c.doc?.titles ?? {},
      url: { api: containerApiUrl(c, ctx.origin) },
    },
    images: v.posterUrl ? { poster: { url: v.posterUrl } } : {},
    url: { api: `${ctx.origin}/v4/videos/${id}.json`, web: `${ctx.webOrigin}/videos/${id}` },
    flags: { licensed: c.licensed, hosted: c.hosted, state: v.state, adult: c.adult, hd: v.hd },
    ...blocking(c, ctx),
  };
}
