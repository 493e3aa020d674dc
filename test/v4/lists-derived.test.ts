import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { containers, jobs, listItems, subtitleCompletions } from "../../src/db/schema";
import { api, db, errorBody, rowsRead, signedInUser } from "../helpers";
import { bulkSpec, insertCatalogue, type ModelContainer } from "../helpers/bulk-catalogue";
import { catalogueChanged, createContainer } from "../helpers/catalogue";

type Details = {
  id: string;
  titles: Record<string, string>;
  source: string;
  editable: boolean;
  updated_at: string | null;
  url: { api: string };
};
type Envelope = {
  more: boolean;
  response: Array<{ id: string; type: string; flags: { on_air: boolean; upcoming: boolean } }>;
  details: Details;
  count?: number;
  pagination?: { previous: string | null; next: string | null };
};

const queries = (res: Response) => Number(/d1-queries;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "")?.[1]);

async function read(list: "2l" | "6l", query = "") {
  const res = await api(`/v4/lists/${list}.json${query}`);
  expect(res.status, `${list}${query}`).toBe(200);
  return (await res.json()) as Envelope;
}
const idsOf = (body: { response: Array<{ id: string } | string> }) => body.response.map((i) => (typeof i === "string" ? i : i.id));
const setFlags = async (id: number, set: Partial<typeof containers.$inferInsert>) => {
  await db().update(containers).set(set).where(eq(containers.id, id));
  await catalogueChanged();
};

let staff: Awaited<ReturnType<typeof signedInUser>>;
let member: Awaited<ReturnType<typeof signedInUser>>;
const c: Record<string, { id: number; wireId: string }> = {};

beforeAll(async () => {
  staff = await signedInUser({ staff: true });
  member = await signedInUser();
  // On air, by recent views: hot film 900, then the 500 tie (newer id first), then 100.
  c.airA = await createContainer({ title: "Air A", onAir: true, viewsRecent: 500, genres: [6], originCountry: "kr" });
  c.airB = await createContainer({ title: "Air B", type: "film", onAir: true, viewsRecent: 900, genres: [18], originCountry: "jp" });
  c.airC = await createContainer({ title: "Air C", onAir: true, viewsRecent: 100, genres: [6], originCountry: "kr" });
  c.airTie = await createContainer({ title: "Air Tie", onAir: true, viewsRecent: 500, originCountry: "kr" });
  c.airPending = await createContainer({ title: "Air Pending", onAir: true, viewsRecent: 10_000, state: "pending" });
  c.airFan = await createContainer({ title: "Air Fan", onAir: true, viewsRecent: 10_000, hosted: false });
  c.airUnlicensed = await createContainer({ title: "Air Unlicensed", onAir: true, viewsRecent: 10_000, licensed: false });
  c.plain = await createContainer({ title: "Plain", viewsRecent: 5_000 });
  // Upcoming, soonest release first, undated first (the v3 coming-soon order).
  c.upLate = await createContainer({ title: "Up Late", type: "film", upcoming: true, releaseDate: "2027-03-01", genres: [18] });
  c.upSoon = await createContainer({ title: "Up Soon", upcoming: true, releaseDate: "2026-12-01", genres: [6] });
  c.upUndated = await createContainer({ title: "Up Undated", upcoming: true, releaseDate: null });
  c.upBlocked = await createContainer({ title: "Up Blocked", upcoming: true, releaseDate: "2026-11-20", state: "blocked" });
  await db()
    .insert(subtitleCompletions)
    .values([
      { resourceKind: "c", resourceId: c.airA.id, language: "en", percent: 80 },
      { resourceKind: "c", resourceId: c.airC.id, language: "en", percent: 49 },
      { resourceKind: "c", resourceId: c.upSoon.id, language: "pt-br", percent: 50 },
    ]);
});

const ON_AIR = () => [c.airB.wireId, c.airTie.wireId, c.airA.wireId, c.airC.wireId];
const UPCOMING = () => [c.upUndated.wireId, c.upSoon.wireId, c.upLate.wireId];

describe("GET /v4/lists/2l.json and 6l.json: derived from the container flags", () => {
  it("2l holds the normal, public containers flagged on air, most recent views first, with its details", async () => {
    const res = await api("/v4/lists/2l.json");
    expect(res.status).toBe(200);
    const body = (await res.json()) as Envelope;
    expect(idsOf(body)).toEqual(ON_AIR());
    expect(body.more).toBe(false);
    expect(body.response[0]).toMatchObject({ id: c.airB.wireId, type: "film", titles: { en: "Air B" }, flags: { on_air: true } });
    expect(body.details).toEqual({
      id: "2l",
      titles: { en: "On Air" },
      source: "on_air",
      editable: false,
      created_at: expect.stringMatching(/Z$/),
      updated_at: null,
      url: { api: "https://api.test/v4/lists/2l.json" },
    });
    expect(res.headers.get("cache-control")).toBe("public, max-age=60, stale-while-revalidate=300");
    // One batch of two statements: the head (list row, one title) and the facet walk joined to its containers.
    expect(queries(res)).toBe(2);
    expect(rowsRead(res)).toBeLessThanOrEqual(12);
  });

  it("6l holds the upcoming ones, soonest release first and undated first", async () => {
    const body = await read("6l");
    expect(idsOf(body)).toEqual(UPCOMING());
    expect(body.details).toMatchObject({ id: "6l", titles: { en: "Upcoming" }, source: "upcoming", editable: false });
  });

  it("follows a flag set or cleared through the API on the next read, with no job and no list edit", async () => {
    const put = (id: string, flags: Record<string, boolean>) =>
      api(`/v4/containers/${id}.json?token=${staff.token}`, { method: "PUT", json: { flags } });
    expect((await put(c.plain.wireId, { on_air: true })).status).toBe(200);
    expect(idsOf(await read("2l"))).toEqual([c.plain.wireId, ...ON_AIR()]);
    expect((await put(c.plain.wireId, { on_air: false, upcoming: true })).status).toBe(200);
    expect(idsOf(await read("2l"))).toEqual(ON_AIR());
    // Undated sorts first; the tie with the other undated one goes by id (plain was made first).
    expect(idsOf(await read("6l"))).toEqual([c.plain.wireId, c.upUndated.wireId, c.upSoon.wireId, c.upLate.wireId]);
    expect((await put(c.plain.wireId, { upcoming: false })).status).toBe(200);
    expect(idsOf(await read("6l"))).toEqual(UPCOMING());
    expect(
      await db()
        .select()
        .from(listItems)
        .where(sql`${listItems.listId} IN (2, 6)`)
        .all(),
    ).toEqual([]);
    expect(await db().select().from(jobs).all()).toEqual([]);
  });

  it("follows writes from any writer (an operator's SQL) and re-sorts when the sort key moves", async () => {
    await setFlags(c.airC.id, { viewsRecent: 1_000 });
    expect(idsOf(await read("2l"))[0]).toBe(c.airC.wireId);
    await setFlags(c.airC.id, { viewsRecent: 100 });
    await setFlags(c.upLate.id, { releaseDate: "2026-11-30" });
    expect(idsOf(await read("6l"))).toEqual([c.upUndated.wireId, c.upLate.wireId, c.upSoon.wireId]);
    await setFlags(c.upLate.id, { releaseDate: "2027-03-01" });
    expect(idsOf(await read("6l"))).toEqual(UPCOMING());
  });

  it("never holds containers that are not normal or not public, and drops one that stops being either", async () => {
    for (const list of ["2l", "6l"] as const) {
      const ids = idsOf(await read(list, "?per_page=100"));
      for (const hidden of [c.airPending, c.airFan, c.airUnlicensed, c.upBlocked]) expect(ids).not.toContain(hidden.wireId);
    }
    await setFlags(c.airB.id, { state: "blocked" });
    await setFlags(c.upSoon.id, { licensed: false });
    expect(idsOf(await read("2l"))).not.toContain(c.airB.wireId);
    expect(idsOf(await read("6l"))).not.toContain(c.upSoon.wireId);
    await setFlags(c.airB.id, { state: "normal" });
    await setFlags(c.upSoon.id, { licensed: true });
    expect(idsOf(await read("2l"))).toEqual(ON_AIR());
    expect(idsOf(await read("6l"))).toEqual(UPCOMING());
  });

  it("takes the list filters: type, genre, origin country and subtitle completion (at least 50%)", async () => {
    expect(idsOf(await read("2l", "?type=film"))).toEqual([c.airB.wireId]);
    expect(idsOf(await read("2l", "?type=series"))).toEqual([c.airTie.wireId, c.airA.wireId, c.airC.wireId]);
    // Derived lists hold containers only: a video type keeps nothing.
    expect(idsOf(await read("2l", "?type=episode"))).toEqual([]);
    expect(idsOf(await read("2l", "?genre=6g"))).toEqual([c.airA.wireId, c.airC.wireId]);
    expect(idsOf(await read("2l", "?origin_country=JP"))).toEqual([c.airB.wireId]);
    expect(idsOf(await read("2l", "?subtitle_completion=en"))).toEqual([c.airA.wireId]);
    expect(idsOf(await read("2l", "?genre=6&origin_country=kr&type=series"))).toEqual([c.airA.wireId, c.airC.wireId]);
    expect(idsOf(await read("6l", "?type=film&genre=18"))).toEqual([c.upLate.wireId]);
    expect(idsOf(await read("6l", "?subtitle_completion=PT-BR"))).toEqual([c.upSoon.wireId]);
    const none = await read("6l", "?origin_country=zz&with_paging=true");
    expect(none).toMatchObject({ more: false, response: [], count: 0, details: { id: "6l" } });
  });

  it("pages, counts and answers ids only", async () => {
    const first = await read("2l", "?per_page=3&with_paging=true");
    expect(idsOf(first)).toEqual(ON_AIR().slice(0, 3));
    expect(first).toMatchObject({ more: true, count: 4 });
    expect(first.pagination).toEqual({ previous: null, next: "https://api.test/v4/lists/2l.json?per_page=3&with_paging=true&page=2" });
    const second = await read("2l", "?per_page=3&page=2&with_paging=true");
    expect(idsOf(second)).toEqual(ON_AIR().slice(3));
    expect(second).toMatchObject({ more: false, count: 4, pagination: { next: null } });
    expect((await read("2l", "?per_page=3&page=3")).response).toEqual([]);
    const onlyIds = (await (await api("/v4/lists/2l.json?only_ids=true&per_page=2")).json()) as Envelope;
    expect(onlyIds.response).toEqual(ON_AIR().slice(0, 2));
    expect(onlyIds.more).toBe(true);
    expect(onlyIds.details.id).toBe("2l");
    const counted = await read("2l", "?only_ids=true&with_paging=true&genre=6g");
    expect(counted).toMatchObject({ response: [c.airA.wireId, c.airC.wireId], count: 2, more: false });
  });

  it("refuses bad filters with 400 naming the parameter", async () => {
    for (const [query, field] of [
      ["type=show", "type"],
      ["genre=1;DROP", "genre"],
      ["origin_country=kor", "origin_country"],
      ["subtitle_completion=%27%20OR%201", "subtitle_completion"],
    ]) {
      const res = await api(`/v4/lists/2l.json?${query}`);
      expect(res.status, query).toBe(400);
      expect((await errorBody(res)).details?.map((d) => d.field)).toContain(field);
    }
  });
});

describe("the contract", () => {
  it("documents `details` and the derived lists in /openapi.json", async () => {
    type Schema = { properties?: Record<string, { $ref?: string; enum?: string[] }>; required?: string[] };
    const doc = (await (await api("/openapi.json")).json()) as {
      paths: Record<string, Record<string, { description?: string; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, Schema> };
    };
    const items = doc.components.schemas.ListItems;
    expect(items.required).toContain("details");
    expect(items.properties?.details?.$ref).toBe("#/components/schemas/ListDetails");
    expect(doc.components.schemas.ListDetails.properties?.source?.enum).toEqual(["curated", "on_air", "upcoming"]);
    const path = doc.paths["/v4/lists/{list_id}.json"];
    expect(path.get.description).toContain("`2l`");
    expect(Object.keys(path.put.responses)).toContain("409");
  });
});

describe("PUT /v4/lists/2l.json and 6l.json", () => {
  it("refuses staff with 409 naming the list, queueing nothing; others still get 401/403", async () => {
    for (const list of ["2l", "6l"]) {
      const res = await api(`/v4/lists/${list}.json?token=${staff.token}`, { method: "PUT", json: { videos: [c.plain.wireId] } });
      expect(res.status).toBe(409);
      const err = await errorBody(res);
      expect(err.vcode).toBe(5409);
      expect(err.error).toContain(`list ${list} is derived from the catalogue`);
      expect((await api(`/v4/lists/${list}.json`, { method: "PUT", json: { videos: [] } })).status).toBe(401);
      expect((await api(`/v4/lists/${list}.json?token=${member.token}`, { method: "PUT", json: { videos: [] } })).status).toBe(403);
    }
    expect(await db().select().from(jobs).all()).toEqual([]);
    expect(idsOf(await read("2l"))).toEqual(ON_AIR());
  });
});

describe("a derived list over a larger catalogue", () => {
  let model: Array<ModelContainer & { onAir: boolean; upcoming: boolean }>;

  beforeAll(async () => {
    const made = await insertCatalogue(Array.from({ length: 300 }, (_, i) => bulkSpec(i, "derived")));
    model = made.map((m, i) => ({ ...m, onAir: i % 4 === 1, upcoming: i % 5 === 2 }));
    await db().run(
      sql`UPDATE containers SET on_air = 1 WHERE id IN (${sql.join(
        model.filter((m) => m.onAir).map((m) => sql`${m.id}`),
        sql`, `,
      )})`,
    );
    await db().run(
      sql`UPDATE containers SET upcoming = 1 WHERE id IN (${sql.join(
        model.filter((m) => m.upcoming).map((m) => sql`${m.id}`),
        sql`, `,
      )})`,
    );
  });

  const listed = (m: ModelContainer) => m.state === "normal" && m.hosted && m.licensed;
  const cmp = (a: number | string, b: number | string) => (a < b ? -1 : a > b ? 1 : 0);

  it("matches the model page by page, reading about one row per item walked", async () => {
    const fixtures = new Set(Object.values(c).map((f) => f.wireId));
    const own = (ids: string[]) => ids.filter((id) => !fixtures.has(id));
    const onAir = model
      .filter((m) => m.onAir && listed(m))
      .sort((a, b) => cmp(b.viewsRecent, a.viewsRecent) || b.id - a.id)
      .map((m) => `${m.id}c`);
    const upcoming = model
      .filter((m) => m.upcoming && listed(m))
      .sort((a, b) => cmp(a.releaseDate ?? "", b.releaseDate ?? "") || a.id - b.id)
      .map((m) => `${m.id}c`);
    for (const [list, expected, extra] of [
      ["2l", onAir, ON_AIR().length],
      ["6l", upcoming, UPCOMING().length],
    ] as const) {
      const all: string[] = [];
      for (let page = 1; ; page++) {
        const res = await api(`/v4/lists/${list}.json?per_page=20&page=${page}`);
        const body = (await res.json()) as Envelope;
        // The index walk reads one row per item skipped or answered (+1 for `more`), the head three (list row,
        // title probe, title): the rows outside the list (240 of 300 here) are never read.
        expect(rowsRead(res), `${list} page ${page}`).toBeLessThanOrEqual(page * 20 + 4);
        all.push(...idsOf(body));
        if (!body.more) break;
      }
      expect(own(all)).toEqual(expected);
      expect(all).toHaveLength(expected.length + extra);
    }
    // The count walks the list's members once: well inside the 200-row page budget.
    const counted = await api("/v4/lists/2l.json?with_paging=true");
    const body = (await counted.json()) as Envelope;
    expect(body.count).toBe(onAir.length + ON_AIR().length);
    expect(queries(counted)).toBe(3);
    expect(rowsRead(counted)).toBeLessThanOrEqual(26 + body.count! + 3);
    // A filter is read off the walked row: no probe rows.
    const filtered = await api("/v4/lists/6l.json?genre=3g&subtitle_completion=en&type=film");
    expect(rowsRead(filtered)).toBeLessThanOrEqual(upcoming.length + UPCOMING().length + 3);
  });
});
