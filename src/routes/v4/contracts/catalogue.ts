import { z } from "@hono/zod-openapi";
import {
  CONTAINER_STATES,
  CONTAINER_TYPES,
  VIDEO_STATES,
  VIDEO_TYPES,
  containerFieldsIn,
  type ContainerFieldKind,
  type ContainerFieldsIn,
  type ContainerFieldValue,
} from "../../../db/schema";
import type { ContainerType, VideoType } from "../../../domain/catalogue-types";

const Url = z.object({ api: z.string(), web: z.string().optional() });
const Blocking = z.object({ geo: z.boolean(), paywall: z.boolean(), upcoming: z.boolean() });
const LangMap = (what: string) => z.record(z.string(), z.string()).openapi({ description: `${what} by language code` });
const Percents = z.record(z.string(), z.number().int()).openapi({ description: "completion percent by language code" });
const ChildCount = z.object({ count: z.number().int(), url: Url });

/** How each kind of plain container field reads on the wire (src/db/schema/container-fields.ts). */
const READ_AS = { boolean: () => z.boolean(), date: () => z.string().nullable() } satisfies Record<ContainerFieldKind, () => z.ZodType>;

/** The wire schemas of the plain container fields in `group`. */
function containerFieldSchemas<G extends "top" | "flags">(group: G) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of containerFieldsIn(group)) shape[name] = READ_AS[field.kind]();
  // TypeScript cannot follow each name through the loop; READ_AS gives each kind the type ContainerFieldValue names.
  return shape as { [K in ContainerFieldsIn<G>]: z.ZodType<ContainerFieldValue<K>> };
}

export const ContainerSchema = z
  .object({
    id: z.string().openapi({ example: "50c" }),
    type: z.enum(CONTAINER_TYPES),
    origin: z.object({ country: z.string(), language: z.string() }),
    created_at: z.string().nullable(),
    updated_at: z.string().nullable(),
    titles: LangMap("titles"),
    descriptions: LangMap("descriptions"),
    images: z.object({ poster: z.object({ url: z.string() }).optional() }),
    genres: z.array(z.string()).openapi({ example: ["6g", "18g"] }),
    subtitle_completions: Percents,
    managers: z.array(z.object({ id: z.string(), username: z.string(), url: Url })),
    url: Url,
    flags: z.object({ ...containerFieldSchemas("flags"), state: z.enum(CONTAINER_STATES) }),
    review_stats: z.object({ average_rating: z.number(), count: z.number().int() }),
    ...containerFieldSchemas("top"),
    episodes: ChildCount.optional(),
    movies: ChildCount.optional(),
    news_clips: ChildCount.optional(),
    music_videos: ChildCount.optional(),
    clips: ChildCount.optional(),
    trailers: ChildCount.optional(),
    blocked: z.boolean(),
    blocking: Blocking,
  })
  .openapi("Container");

export const VideoSchema = z
  .object({
    id: z.string().openapi({ example: "1019117v" }),
    type: z.enum(VIDEO_TYPES),
    number: z.number().int().nullable(),
    duration: z.number().int(),
    created_at: z.string().nullable(),
    updated_at: z.string().nullable(),
    origin: z.object({ language: z.string() }),
    titles: LangMap("titles"),
    descriptions: LangMap("descriptions"),
    subtitle_completions: Percents,
    container: z.object({ id: z.string(), type: z.enum(CONTAINER_TYPES), titles: LangMap("titles"), url: Url }),
    images: z.object({ poster: z.object({ url: z.string() }).optional() }),
    url: Url,
    flags: z.object({
      licensed: z.boolean(),
      hosted: z.boolean(),
      state: z.enum(VIDEO_STATES),
      adult: z.boolean(),
      hd: z.boolean(),
    }),
    blocked: z.boolean(),
    blocking: Blocking,
  })
  .openapi("Video");

/**
 * Ids the documented examples use: what `npm start` seeds (scripts/demo), so that "Try it out" in /docs answers data
 * on a local server as it stands (`npm run test:docs` calls every public read with them). A container of each type
 * that holds every video type its type takes; alice's user id; the featured list.
 */
export const DEMO_IDS = {
  container: { series: "3c", film: "32c", news: "38c", artist: "49c" },
  video: "1v",
  user: "3u",
  list: "1l",
} as const;

/** The demo container of a type, or (no type) one that holds videos of `videoType` (a series when none is named). */
export function demoContainerId(type?: ContainerType, videoType?: VideoType): string {
  if (type) return DEMO_IDS.container[type];
  const holder = { movie: "film", news_clip: "news", music_video: "artist" } as const;
  return DEMO_IDS.container[holder[videoType as keyof typeof holder] ?? "series"];
}

/** A path id parameter, documented with an example. */
export const idParam = <K extends string>(name: K, example: string) =>
  z.object({ [name]: z.string().openapi({ param: { name, in: "path" }, example }) } as Record<K, z.ZodString>);
