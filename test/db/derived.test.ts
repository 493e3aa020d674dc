import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  containerFacets,
  containerGenres,
  containerManagers,
  containers,
  descriptions,
  subtitleCompletions,
  titles,
  videos,
} from "../../src/db/schema";
import { createUser, db } from "../helpers";

const facetsOf = async (id: number) =>
  (await db().select({ f: containerFacets.facet }).from(containerFacets).where(eq(containerFacets.containerId, id))).map((r) => r.f).sort();
const container = async (id: number) => (await db().select().from(containers).where(eq(containers.id, id)))[0];

describe("derived catalogue documents (triggers)", () => {
  it("keeps a container's doc, sort title and facets in step with its sources", async () => {
    const [c] = await db().insert(containers).values({ type: "series", originCountry: "kr", originLanguage: "ko" }).returning();
    expect((await container(c.id)).doc).toEqual({
      titles: {},
      descriptions: {},
      genres: [],
      subtitle_completions: {},
      managers: [],
      video_counts: {},
      regions: [],
    });
    expect(await facetsOf(c.id)).toEqual(["all", "country:kr", "family", "public", "type:series"]);

    const { user } = await createUser();
    await db()
      .insert(titles)
      .values([
        { resourceKind: "c", resourceId: c.id, language: "ko", text: "사랑" },
        { resourceKind: "c", resourceId: c.id, language: "en", text: "Love Story" },
      ]);
    await db().insert(descriptions).values({ resourceKind: "c", resourceId: c.id, language: "en", text: "About love" });
    await db()
      .insert(containerGenres)
      .values([
        { containerId: c.id, genreId: 18 },
        { containerId: c.id, genreId: 6 },
      ]);
    await db().insert(containerManagers).values({ containerId: c.id, userId: user.id });
    await db()
      .insert(subtitleCompletions)
      .values([
        { resourceKind: "c", resourceId: c.id, language: "en", percent: 80 },
        { resourceKind: "c", resourceId: c.id, language: "fr", percent: 10 },
      ]);
    await db()
      .insert(videos)
      .values([
        { containerId: c.id, type: "episode", number: 1 },
        { containerId: c.id, type: "episode", number: 2 },
        { containerId: c.id, type: "trailer", state: "pending" },
      ]);

    const row = await container(c.id);
    expect(row.sortTitle).toBe("love story");
    expect(row.doc).toEqual({
      titles: { ko: "사랑", en: "Love Story" },
      descriptions: { en: "About love" },
      genres: [6, 18],
      subtitle_completions: { en: 80, fr: 10 },
      managers: [{ id: user.id, username: user.username }],
      video_counts: { episode: 2 },
      regions: [],
    });
    expect(await facetsOf(c.id)).toEqual(["all", "country:kr", "family", "genre:18", "genre:6", "public", "sub:en", "type:series"]);

    await db().update(containers).set({ adult: true, hosted: false, views: 77 }).where(eq(containers.id, c.id));
    // A fan channel's facets are prefixed, so public listings never see it (src/db/triggers/facets.sql).
    expect(await facetsOf(c.id)).toEqual(["unhosted", "x:all", "x:country:kr", "x:genre:18", "x:genre:6", "x:sub:en", "x:type:series"]);
    const views = await db().select({ v: containerFacets.views }).from(containerFacets).where(eq(containerFacets.containerId, c.id));
    expect(views.every((r) => r.v === 77)).toBe(true);

    await db().update(containers).set({ state: "blocked" }).where(eq(containers.id, c.id));
    expect(await facetsOf(c.id)).toEqual([]);
  });

  it("keeps a video's doc in step and cleans up polymorphic rows on delete", async () => {
    const [c] = await db().insert(containers).values({ type: "film" }).returning();
    const [v] = await db().insert(videos).values({ containerId: c.id, type: "movie", number: 1 }).returning();
    await db().insert(titles).values({ resourceKind: "v", resourceId: v.id, language: "en", text: "The Movie" });
    await db().insert(subtitleCompletions).values({ resourceKind: "v", resourceId: v.id, language: "es", percent: 42 });
    const [row] = await db().select().from(videos).where(eq(videos.id, v.id));
    expect(row.doc).toEqual({ titles: { en: "The Movie" }, descriptions: {}, subtitle_completions: { es: 42 } });
    expect((await container(c.id)).doc?.video_counts).toEqual({ movie: 1 });

    await db().delete(containers).where(eq(containers.id, c.id));
    expect(await db().select().from(videos).where(eq(videos.id, v.id))).toEqual([]);
    // By kind too: a container of this run may have the video's id (the two id sequences are independent).
    expect(
      await db()
        .select()
        .from(titles)
        .where(and(eq(titles.resourceKind, "v"), eq(titles.resourceId, v.id))),
    ).toEqual([]);
    expect(await facetsOf(c.id)).toEqual([]);
  });
});
