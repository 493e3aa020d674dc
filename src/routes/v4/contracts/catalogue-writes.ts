import { z } from "@hono/zod-openapi";
import { wireIdString } from "../../../lib/schemas";
import {
  CONTAINER_STATES,
  CONTAINER_TYPES,
  PLATFORMS,
  VIDEO_STATES,
  VIDEO_TYPES,
  containerFieldsIn,
  type ContainerFieldKind,
  type ContainerFieldsIn,
  type ContainerFieldValue,
} from "../../../db/schema";

/** Field limits of catalogue writes; stated in the OpenAPI document through the schemas below. */
export const WRITE_LIMITS = {
  title: 200,
  description: 5000,
  languages: 50,
  genres: 20,
  licenses: 100,
  managers: 20,
  url: 2000,
  number: 100_000,
  duration: 86_400,
} as const;

const LANGUAGE_RE = /^[a-z]{2}(-[a-z]{2})?$/;

/** Two letters, optionally `-<region>` (`ko`, `zt`, `pt-br`); upper case is accepted and stored lower case. */
const languageCode = () =>
  z.string().toLowerCase().regex(LANGUAGE_RE, "a language code: two letters, optionally -<two letters> (ko, pt-br)");
export const LanguageCode = languageCode().openapi({ example: "ko" });
/** The same code as a listing's filter: no `example`, which "Try it out" in /docs would send unasked. */
export const LanguageFilter = languageCode();

/** A language code in a path: anything that is not one names no title, so it is a 404 (like a bad id). */
export const normaliseLanguageCode = (raw: string) => {
  const code = raw.toLowerCase();
  return LANGUAGE_RE.test(code) ? code : null;
};

const CountryCode = z
  .string()
  .toLowerCase()
  .regex(/^[a-z]{2}$/, "a two-letter country code")
  .openapi({ example: "kr" });

const TitleText = z.string().trim().min(1).max(WRITE_LIMITS.title);
const DescriptionText = z.string().trim().min(1).max(WRITE_LIMITS.description);

const langMap = (value: z.ZodString, what: string) =>
  z
    .record(LanguageCode, value, { error: (iss) => (iss.code === "invalid_key" ? "not a language code" : undefined) })
    .refine((m) => Object.keys(m).length <= WRITE_LIMITS.languages, `at most ${WRITE_LIMITS.languages} languages`)
    .openapi({ description: `${what}, keyed by language code (ko, pt-br); at most ${WRITE_LIMITS.languages} languages.` });

/** Titles at creation: the English title is required. */
const TitlesMap = langMap(TitleText, `Titles of 1-${WRITE_LIMITS.title} characters; \`en\` is required`)
  .refine((m) => typeof m.en === "string", { path: ["en"], message: "an English (en) title is required" })
  .openapi({ example: { en: "Single Princesses", ko: "싱글 공주" } });

const DescriptionsMap = langMap(DescriptionText, `Descriptions of 1-${WRITE_LIMITS.description} characters`);

const Poster = z.object({
  url: z
    .url({ protocol: /^https?$/ })
    .max(WRITE_LIMITS.url)
    .openapi({ example: "https://img.example/p.jpg" }),
});

const Images = z.object({
  poster: Poster.nullable().optional().openapi({ description: "`null` removes the poster (on edit)" }),
});

/** A field the edit body names only to refuse it with a reason (a strict object would just say "unknown"). */
const refused = (reason: string) =>
  z
    .unknown()
    .optional()
    .refine((v) => v === undefined, reason)
    .openapi({ description: `Refused: ${reason}` });

const GenreIds = z
  .array(wireIdString("g", "genre id", "6g"))
  .max(WRITE_LIMITS.genres)
  .openapi({
    description: "Genre ids: the general set (1g-22g) for films, series and news, the music set (23g-34g) for artists.",
    example: ["6g", "18g"],
  });

const Licenses = z
  .array(
    z.object({
      region: CountryCode,
      platforms: z.array(z.enum(PLATFORMS)).min(1).max(PLATFORMS.length),
    }),
  )
  .max(WRITE_LIMITS.licenses)
  .openapi({
    description: "Where and on what the container may be watched; none means not geo-restricted. Replaced as a whole.",
    example: [{ region: "us", platforms: ["web", "mobile"] }],
  });

const ManagerIds = z
  .array(wireIdString("u", "user id", "12u"))
  .max(WRITE_LIMITS.managers)
  .openapi({ description: "User ids of the container's managers. Replaced as a whole.", example: ["12u"] });

const CalendarDate = z.iso.date().openapi({ example: "2013-10-22", description: "YYYY-MM-DD" });

/** How each kind of plain container field is written, on create and on update (null clears a date). */
const WRITTEN_AS = {
  boolean: { create: () => z.boolean().optional(), update: () => z.boolean().optional() },
  date: { create: () => CalendarDate.optional(), update: () => CalendarDate.nullable().optional() },
} satisfies Record<ContainerFieldKind, Record<"create" | "update", () => z.ZodType>>;

/** The body schemas of the plain container fields in `group` (src/db/schema/container-fields.ts). */
function writtenFields<G extends "top" | "flags">(group: G, use: "create" | "update") {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of containerFieldsIn(group)) shape[name] = WRITTEN_AS[field.kind][use]();
  // TypeScript cannot follow each name through the loop; WRITTEN_AS gives each kind the type ContainerFieldValue names.
  return shape as { [K in ContainerFieldsIn<G>]: z.ZodType<ContainerFieldValue<K> | undefined> };
}

const ContainerFlags = z.object(writtenFields("flags", "update"));

export const ContainerCreateBody = z
  .object({
    type: z.enum(CONTAINER_TYPES),
    origin: z.object({ country: CountryCode, language: LanguageCode }),
    titles: TitlesMap,
    descriptions: DescriptionsMap.optional(),
    genres: GenreIds.optional(),
    flags: ContainerFlags.optional().openapi({
      description: "Defaults: hosted and licensed true; adult, on_air and upcoming false.",
    }),
    images: Images.optional(),
    ...writtenFields("top", "create"),
    licenses: Licenses.optional(),
    managers: ManagerIds.optional(),
    state: z.enum(CONTAINER_STATES).optional().openapi({ description: "Default `normal`; `pending` hides it." }),
  })
  .openapi("ContainerCreate");

export const ContainerUpdateBody = z
  .object({
    type: z.enum(CONTAINER_TYPES).optional().openapi({ description: "Staff only. Its videos and genres must fit." }),
    origin: z.object({ country: CountryCode.optional(), language: LanguageCode.optional() }).optional(),
    genres: GenreIds.optional(),
    flags: ContainerFlags.optional().openapi({ description: "`hosted` and `licensed` are staff only." }),
    images: Images.optional(),
    ...writtenFields("top", "update"),
    licenses: Licenses.optional().openapi({ description: "Staff only. Replaced as a whole." }),
    managers: ManagerIds.optional().openapi({ description: "Staff only. Replaced as a whole." }),
    state: z.enum(CONTAINER_STATES).optional().openapi({ description: "Staff only." }),
    titles: refused("titles change through POST /v4/containers/<id>/titles.json and DELETE .../titles/<language_code>.json"),
    descriptions: refused(
      "descriptions change through POST /v4/containers/<id>/descriptions.json and DELETE .../descriptions/<language_code>.json",
    ),
  })
  .openapi("ContainerUpdate");

const VideoFields = {
  number: z.number().int().min(0).max(WRITE_LIMITS.number),
  duration: z.number().int().min(0).max(WRITE_LIMITS.duration).openapi({ description: "seconds" }),
  origin: z.object({ language: LanguageCode }).openapi({ description: "Defaults to the container's language." }),
  flags: z.object({ hd: z.boolean().optional() }),
  state: z.enum(VIDEO_STATES),
};

export const VideoCreateBody = z
  .object({
    type: z.enum(VIDEO_TYPES).openapi({
      description:
        "Must fit the container: episode, clip, trailer (series); movie, clip, trailer (film); news_clip, clip (news); " +
        "music_video, clip (artist).",
    }),
    number: VideoFields.number.optional(),
    duration: VideoFields.duration.optional(),
    origin: VideoFields.origin.optional(),
    titles: TitlesMap,
    descriptions: DescriptionsMap.optional(),
    flags: VideoFields.flags.optional(),
    images: Images.optional(),
    state: VideoFields.state.optional().openapi({ description: "Default `normal`; `pending` hides it; `blocked` is staff only." }),
  })
  .openapi("VideoCreate");

export const VideoUpdateBody = z
  .object({
    number: VideoFields.number.nullable().optional(),
    duration: VideoFields.duration.optional(),
    origin: VideoFields.origin.optional(),
    flags: VideoFields.flags.optional(),
    images: Images.optional(),
    state: VideoFields.state.optional().openapi({
      description: "`pending` hides it. Only staff may set `blocked` or change the state of a blocked video (403).",
    }),
    type: refused("a video's type cannot change; delete the video and create it again"),
    titles: refused("titles change through POST /v4/videos/<id>/titles.json and DELETE .../titles/<language_code>.json"),
    descriptions: refused(
      "descriptions change through POST /v4/videos/<id>/descriptions.json and DELETE .../descriptions/<language_code>.json",
    ),
  })
  .openapi("VideoUpdate");

export const TitleBody = z
  .object({ language_code: LanguageCode, title: TitleText.openapi({ example: "싱글 공주" }) })
  .openapi("TitleWrite");

export const DescriptionBody = z
  .object({ language_code: LanguageCode, description: DescriptionText.openapi({ example: "..." }) })
  .openapi("DescriptionWrite");

export const OkSchema = z.object({ ok: z.literal(true) }).openapi("Ok");

export type ContainerCreate = z.infer<typeof ContainerCreateBody>;
export type ContainerUpdate = z.infer<typeof ContainerUpdateBody>;
export type VideoCreate = z.infer<typeof VideoCreateBody>;
export type VideoUpdate = z.infer<typeof VideoUpdateBody>;
