import { containerGenres, containerManagers, containers, descriptions, licenses, titles, videos } from "../../src/db/schema";
import { env } from "cloudflare:workers";
import { indexForm } from "../../src/domain/search-text";
import { bumpGenerations } from "../../src/services/edge-cache";
import { createApplication, db, signedInUser } from ".";

/**
 * What the write services do after a catalogue write, for rows a test writes itself (an operator's SQL): the next
 * anonymous read is computed again instead of served from the edge cache (docs/scaling.md, "The edge cache").
 */
export const catalogueChanged = () => bumpGenerations(env, "catalogue");

type ContainerInsert = typeof containers.$inferInsert;
type VideoInsert = typeof videos.$inferInsert;

/** A container with an English title (and anything else given); triggers derive its doc and facets. */
export async function createContainer(
  opts: Partial<ContainerInsert> & {
    title?: string;
    titles?: Record<string, string>;
    descriptions?: Record<string, string>;
    genres?: number[];
    managers?: number[];
    regions?: string[];
  } = {},
) {
  const { title, titles: ts, descriptions: ds, genres, managers, regions, ...row } = opts;
  const [c] = await db()
    .insert(containers)
    .values({ type: "series", originCountry: "kr", originLanguage: "ko", ...row })
    .returning();
  const allTitles = { en: title ?? `Container ${c.id}`, ...ts };
  await db()
    .insert(titles)
    .values(
      Object.entries(allTitles).map(([language, text]) => ({
        resourceKind: "c" as const,
        resourceId: c.id,
        language,
        text,
        // As the title writers store it (src/db/queries/catalogue-writes.ts): v4 search reads the index form.
        searchText: indexForm(text),
      })),
    );
  if (ds && Object.keys(ds).length) {
    await db()
      .insert(descriptions)
      .values(Object.entries(ds).map(([language, text]) => ({ resourceKind: "c" as const, resourceId: c.id, language, text })));
  }
  if (genres?.length)
    await db()
      .insert(containerGenres)
      .values(genres.map((genreId) => ({ containerId: c.id, genreId })));
  if (managers?.length)
    await db()
      .insert(containerManagers)
      .values(managers.map((userId) => ({ containerId: c.id, userId })));
  if (regions?.length) {
    await db()
      .insert(licenses)
      .values(regions.map((region) => ({ containerId: c.id, region, platform: "web" as const })));
  }
  await catalogueChanged();
  return { ...c, wireId: `${c.id}c` };
}

export async function createVideo(containerId: number, opts: Partial<VideoInsert> & { title?: string } = {}) {
  const { title, ...row } = opts;
  const [v] = await db()
    .insert(videos)
    .values({ containerId, type: "episode", ...row })
    .returning();
  if (title)
    await db()
      .insert(titles)
      .values({ resourceKind: "v", resourceId: v.id, language: "en", text: title, searchText: indexForm(title) });
  await catalogueChanged();
  return { ...v, wireId: `${v.id}v` };
}

/** A video's texts beyond its English title: a Korean title and an English and a Korean description. */
export async function addVideoTexts(videoId: number) {
  await db()
    .insert(titles)
    .values({ resourceKind: "v", resourceId: videoId, language: "ko", text: "에피소드", searchText: indexForm("에피소드") });
  await db()
    .insert(descriptions)
    .values([
      { resourceKind: "v", resourceId: videoId, language: "en", text: "About" },
      { resourceKind: "v", resourceId: videoId, language: "ko", text: "설명" },
    ]);
  await catalogueChanged();
}

/**
 * The cast of a subtitle-writing test: the official application (imports and track writes are official only, see
 * docs/api.md), a signed-in user, and a container that user manages.
 */
export async function managedContainer(title: string) {
  const official = (await createApplication({ official: true })).wireId;
  const manager = await signedInUser();
  const containerId = (await createContainer({ title, managers: [manager.user.id] })).id;
  return { official, manager, containerId };
}

/**
 * The cast of a subtitle read test: the official and a partner application, a manager, and in their container a
 * visible video and a blocked one (hidden from everyone but staff and managers).
 */
export async function visibleAndHidden(title: string) {
  const { official, manager, containerId } = await managedContainer(title);
  const partner = (await createApplication()).wireId;
  const video = await createVideo(containerId, { number: 1 });
  const hidden = await createVideo(containerId, { number: 2, state: "blocked" });
  return { official, partner, manager, video, hidden };
}
