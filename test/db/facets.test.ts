import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { containerFacets, containerGenres, containers, subtitleCompletions } from "../../src/db/schema";
import {
  LISTING_FILTERS,
  SUBTITLE_COMPLETION_THRESHOLD,
  facet,
  facetsOf,
  filterFacets,
  inDrivingOrder,
  type FacetSource,
  type ListingFilterValues,
} from "../../src/domain/facets";
import { listingFacets } from "../../src/services/container-listing";
import type { Application } from "../../src/types";
import { api, db, errorBody } from "../helpers";

/**
 * The facet vocabulary is written twice, in the SQL triggers (src/db/triggers/facets.sql) and in
 * src/domain/facets.ts; these tests hold the two to one meaning.
 */

const T = SUBTITLE_COMPLETION_THRESHOLD;

/** Containers of every kind the triggers tell apart: types, genres, countries, completions about the threshold, adult, namespaces, states. */
const SOURCES: FacetSource[] = [
  {
    type: "series",
    originCountry: "kr",
    hosted: true,
    licensed: true,
    adult: false,
    state: "normal",
    genreIds: [6, 18],
    completions: { en: T, fr: T - 1 },
  },
  {
    type: "film",
    originCountry: "jp",
    hosted: true,
    licensed: true,
    adult: true,
    state: "normal",
    genreIds: [],
    completions: { en: 100, "pt-br": T + 1, es: 0 },
  },
  { type: "news", originCountry: "", hosted: true, licensed: true, adult: false, state: "normal", genreIds: [1], completions: {} },
  {
    type: "artist",
    originCountry: "us",
    hosted: true,
    licensed: true,
    adult: false,
    state: "normal",
    genreIds: [23, 24],
    completions: { ko: T - 1 },
  },
  {
    type: "series",
    originCountry: "tw",
    hosted: false,
    licensed: true,
    adult: false,
    state: "normal",
    genreIds: [6],
    completions: { en: T },
  },
  {
    type: "film",
    originCountry: "cn",
    hosted: true,
    licensed: false,
    adult: true,
    state: "normal",
    genreIds: [2],
    completions: { zh: 99, en: T - 1 },
  },
  {
    type: "series",
    originCountry: "",
    hosted: false,
    licensed: false,
    adult: false,
    state: "normal",
    genreIds: [6, 7],
    completions: { en: T },
  },
  {
    type: "series",
    originCountry: "kr",
    hosted: true,
    licensed: true,
    adult: false,
    state: "pending",
    genreIds: [6],
    completions: { en: 100 },
  },
  {
    type: "film",
    originCountry: "kr",
    hosted: false,
    licensed: true,
    adult: false,
    state: "blocked",
    genreIds: [6],
    completions: { en: 100 },
  },
];

async function create(s: FacetSource) {
  const { genreIds, completions, ...row } = s;
  const [c] = await db().insert(containers).values(row).returning();
  if (genreIds.length)
    await db()
      .insert(containerGenres)
      .values(genreIds.map((genreId) => ({ containerId: c.id, genreId })));
  const entries = Object.entries(completions);
  if (entries.length) {
    await db()
      .insert(subtitleCompletions)
      .values(entries.map(([language, percent]) => ({ resourceKind: "c" as const, resourceId: c.id, language, percent })));
  }
  return c.id;
}

/** The facet rows the triggers wrote, sorted like `facetsOf`. */
const stored = async (id: number) =>
  (await db().select({ f: containerFacets.facet }).from(containerFacets).where(eq(containerFacets.containerId, id))).map((r) => r.f).sort();

const setCompletion = (id: number, language: string, percent: number) =>
  db()
    .update(subtitleCompletions)
    .set({ percent })
    .where(
      and(eq(subtitleCompletions.resourceKind, "c"), eq(subtitleCompletions.resourceId, id), eq(subtitleCompletions.language, language)),
    );

describe("facets: SQL triggers and src/domain/facets.ts agree", () => {
  it("on every kind of container as written", async () => {
    for (const s of SOURCES) {
      const id = await create(s);
      expect(await stored(id), JSON.stringify(s)).toEqual(facetsOf(s));
    }
  });

  it("after each source of the facets changes", async () => {
    let s: FacetSource = { ...SOURCES[0] };
    const id = await create(s);
    const step = async (change: Partial<FacetSource>, write: () => Promise<unknown>) => {
      s = { ...s, ...change };
      await write();
      expect(await stored(id), JSON.stringify(change)).toEqual(facetsOf(s));
    };
    const update = (row: Partial<typeof containers.$inferInsert>) => () => db().update(containers).set(row).where(eq(containers.id, id));

    await step({ completions: { en: T, fr: T } }, () => setCompletion(id, "fr", T));
    await step({ completions: { en: T - 1, fr: T } }, () => setCompletion(id, "en", T - 1));
    await step({ genreIds: [18] }, () =>
      db()
        .delete(containerGenres)
        .where(and(eq(containerGenres.containerId, id), eq(containerGenres.genreId, 6))),
    );
    await step({ type: "film", originCountry: "" }, update({ type: "film", originCountry: "" }));
    await step({ adult: true }, update({ adult: true }));
    await step({ hosted: false }, update({ hosted: false }));
    await step({ licensed: false }, update({ licensed: false }));
    await step({ hosted: true, licensed: true }, update({ hosted: true, licensed: true }));
    await step({ state: "blocked" }, update({ state: "blocked" }));
    await step({ state: "normal" }, update({ state: "normal" }));
  });

  it("the SQL writes sub:<lang> from the module's threshold, not a point lower or higher", async () => {
    const base = SOURCES[0];
    const below = await create({ ...base, completions: { en: T - 1 } });
    const at = await create({ ...base, completions: { en: T } });
    expect(await stored(below)).not.toContain(facet.sub("en"));
    expect(await stored(at)).toContain(facet.sub("en"));
  });

  it("every facet a listing asks for is one the triggers write for a matching container", async () => {
    const fanApp = { unhostedAccess: true } as Application;
    for (const s of SOURCES.filter((x) => x.state === "normal")) {
      const id = await create(s);
      const rows = await stored(id);
      const sub = Object.entries(s.completions).find(([, p]) => p >= T)?.[0];
      const filters = {
        type: s.type,
        genre: s.genreIds[0],
        origin_country: s.originCountry || undefined,
        subtitle_completion: sub,
        family_friendly: !s.adult,
        hosted: s.hosted,
        licensed: s.licensed,
      };
      const asked = listingFacets(filters, s.hosted && s.licensed ? undefined : fanApp);
      expect(rows, JSON.stringify(s)).toEqual(expect.arrayContaining(asked));
      // The unfiltered listing of the container's namespace finds it too.
      const unfiltered = listingFacets({ hosted: s.hosted, licensed: s.licensed }, fanApp);
      expect(rows).toEqual(expect.arrayContaining(unfiltered));
    }
  });

  it("lists, for each filter's example, exactly the containers whose facets hold what it asks for; a malformed value is a 400 naming it", async () => {
    for (const s of SOURCES) await create(s);
    for (const [name, filter] of Object.entries(LISTING_FILTERS)) {
      const value = filter.kind === "flag" ? true : filter.read(filter.example);
      const [asked] = filterFacets({ [name]: value } as ListingFilterValues);
      const res = await api(`/v4/containers.json?${name}=${filter.example}&only_ids=true&per_page=100`);
      expect(res.status, name).toBe(200);
      const listed = ((await res.json()) as { response: string[] }).response.map((id) => Number.parseInt(id, 10)).sort();
      const carrying = await db().select({ id: containerFacets.containerId }).from(containerFacets).where(eq(containerFacets.facet, asked));
      expect(listed, name).toEqual(carrying.map((r) => r.id).sort());
      expect(listed.length, `${name}: the samples hold a container it keeps`).toBeGreaterThan(0);
      const bad = await api(`/v4/containers.json?${name}=%3Cnot-a-value%3E`);
      expect(bad.status, name).toBe(400);
      expect((await errorBody(bad)).details?.map((d) => d.field)).toEqual([name]);
    }
  });

  it("picks the most selective facet to drive a listing, whatever the namespace", () => {
    expect(inDrivingOrder([facet.public, facet.type("series"), facet.genre(6), facet.sub("en"), facet.sub("en")])).toEqual([
      "sub:en",
      "genre:6",
      "type:series",
      "public",
    ]);
    expect(inDrivingOrder(["x:family", "x:country:kr", facet.unlicensed, facet.unhosted])).toEqual([
      "unhosted",
      "unlicensed",
      "x:country:kr",
      "x:family",
    ]);
  });
});
