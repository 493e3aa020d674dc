import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { videos } from "../../src/db/schema";
import { contributions, subtitleHistories } from "../../src/db/shard-schema";
import { allocateShardIdsStatement, firstAllocatedId } from "../../src/db/queries/shard-rows";
import { runBatch } from "../../src/db/raw-batch";
import { drainShardCleanups } from "../../src/services/shard-cleanups";
import { api, createUser, db, errorBody, rowsRead, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { createHistories } from "../helpers/localisation";
import { shardOf } from "../helpers/shards";
import { env } from "cloudflare:workers";

type Made = Awaited<ReturnType<typeof createUser>>;
type Contributor = { user: { id: string; username: string; url: { api: string } }; segments: number; subtitles: number };
type Contribution = {
  container: { id: string; type: string; titles: Record<string, string>; url: { api: string } };
  segments: number;
  subtitles: number;
};

/** `n` history rows of one kind by a user on a video (and so its container), on the container's shard. */
async function history(user: Made, video: { id: number; containerId: number }, kind: "segment" | "subtitle", n: number) {
  const rows = Array.from({ length: n }, () => ({ kind, userId: user.user.id, videoId: video.id, containerId: video.containerId }));
  await createHistories(rows);
}

const summary = (list: Contributor[]) => list.map((c) => [c.user.username, c.segments, c.subtitles]);

let timer: Made, translator: Made, helper: Made, idle: Made;
let drama: Awaited<ReturnType<typeof createContainer>>;
let film: Awaited<ReturnType<typeof createContainer>>;
let hidden: Awaited<ReturnType<typeof createContainer>>;
let dramaVideo: Awaited<ReturnType<typeof createVideo>>;
let manager: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  [timer, translator, helper, idle] = await Promise.all([createUser(), createUser(), createUser(), createUser()]);
  manager = await signedInUser();
  drama = await createContainer({ title: "Contrib Drama" });
  film = await createContainer({ type: "film", title: "Contrib Film" });
  hidden = await createContainer({ title: "Contrib Hidden", state: "blocked", managers: [manager.user.id] });
  dramaVideo = await createVideo(drama.id, { number: 1 });
  const dramaVideo2 = await createVideo(drama.id, { number: 2 });
  const filmVideo = await createVideo(film.id, { type: "movie" });
  const hiddenVideo = await createVideo(hidden.id, { number: 1 });
  // drama: translator 7 subtitles; timer 3 segments + 2 subtitles (over two videos); helper 1 segment.
  await history(translator, dramaVideo, "subtitle", 7);
  await history(timer, dramaVideo, "segment", 3);
  await history(timer, dramaVideo2, "subtitle", 2);
  await history(helper, dramaVideo2, "segment", 1);
  // film: timer 1 subtitle; hidden: timer 4 segments.
  await history(timer, filmVideo, "subtitle", 1);
  await history(timer, hiddenVideo, "segment", 4);
});

describe("GET /v4/container/<id>/contributions.json", () => {
  it("lists the contributors as a bare array, most contributions first; public and cacheable", async () => {
    const res = await api(`/v4/container/${drama.wireId}/contributions.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("public");
    const body = (await res.json()) as Contributor[];
    expect(Array.isArray(body)).toBe(true);
    expect(summary(body)).toEqual([
      [translator.user.username, 0, 7],
      [timer.user.username, 3, 2],
      [helper.user.username, 1, 0],
    ]);
    expect(body[0].user).toEqual({
      id: translator.id,
      username: translator.user.username,
      url: { api: `https://api.test/v4/users/${translator.id}.json` },
    });
  });

  it("answers the same under the plural alias /v4/containers/<id>/contributions.json", async () => {
    const singular = await (await api(`/v4/container/${drama.wireId}/contributions.json?type=segments`)).json();
    const plural = await (await api(`/v4/containers/${drama.wireId}/contributions.json?type=segments`)).json();
    expect(plural).toEqual(singular);
  });

  it("type limits to people with that kind of contribution; other values are 400 naming type", async () => {
    const segments = (await (await api(`/v4/container/${drama.wireId}/contributions.json?type=segments`)).json()) as Contributor[];
    expect(summary(segments)).toEqual([
      [timer.user.username, 3, 2],
      [helper.user.username, 1, 0],
    ]);
    const subtitles = (await (await api(`/v4/container/${drama.wireId}/contributions.json?type=subtitles`)).json()) as Contributor[];
    expect(summary(subtitles).map((r) => r[0])).toEqual([translator.user.username, timer.user.username]);
    for (const type of ["segment", "all", ""]) {
      const res = await api(`/v4/container/${drama.wireId}/contributions.json?type=${type}`);
      expect(res.status, type).toBe(400);
      expect((await errorBody(res)).details?.map((d) => d.field)).toEqual(["type"]);
    }
  });

  it("pages with page and per_page (clamped, never refused)", async () => {
    const page2 = (await (await api(`/v4/container/${drama.wireId}/contributions.json?per_page=1&page=2`)).json()) as Contributor[];
    expect(summary(page2)).toEqual([[timer.user.username, 3, 2]]);
    const past = await (await api(`/v4/container/${drama.wireId}/contributions.json?per_page=2&page=3`)).json();
    expect(past).toEqual([]);
    expect(((await (await api(`/v4/container/${drama.wireId}/contributions.json?per_page=500`)).json()) as unknown[]).length).toBe(3);
    // page=0 is page 1, as on every list.
    const first = await api(`/v4/container/${drama.wireId}/contributions.json?page=0&per_page=1`);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual(await (await api(`/v4/container/${drama.wireId}/contributions.json?per_page=1`)).json());
  });

  it("404s missing and malformed containers, and hidden ones except to their managers", async () => {
    for (const id of ["999999999c", "12v", "abc"]) {
      expect((await api(`/v4/container/${id}/contributions.json`)).status, id).toBe(404);
    }
    expect((await api(`/v4/container/${hidden.wireId}/contributions.json`)).status).toBe(404);
    const asManager = await api(`/v4/container/${hidden.wireId}/contributions.json?token=${manager.token}`);
    expect(asManager.status).toBe(200);
    expect(asManager.headers.get("cache-control")).toBe("private, no-store");
    expect(summary((await asManager.json()) as Contributor[])).toEqual([[timer.user.username, 4, 0]]);
  });
});

describe("GET /v4/users/<id>/contributions.json and count.json", () => {
  it("lists the containers a user contributed to, most first, leaving out hidden containers", async () => {
    const res = await api(`/v4/users/${timer.id}/contributions.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("public");
    const body = (await res.json()) as Contribution[];
    expect(body).toEqual([
      {
        container: {
          id: drama.wireId,
          type: "series",
          titles: { en: "Contrib Drama" },
          url: { api: `https://api.test/v4/series/${drama.wireId}.json` },
        },
        segments: 3,
        subtitles: 2,
      },
      {
        container: {
          id: film.wireId,
          type: "film",
          titles: { en: "Contrib Film" },
          url: { api: `https://api.test/v4/films/${film.wireId}.json` },
        },
        segments: 0,
        subtitles: 1,
      },
    ]);
    const segments = (await (await api(`/v4/users/${timer.id}/contributions.json?type=segments`)).json()) as Contribution[];
    expect(segments.map((c) => c.container.id)).toEqual([drama.wireId]);
    const paged = (await (await api(`/v4/users/${timer.id}/contributions.json?per_page=1&page=2`)).json()) as Contribution[];
    expect(paged.map((c) => c.container.id)).toEqual([film.wireId]);
    expect(await (await api(`/v4/users/${idle.id}/contributions.json`)).json()).toEqual([]);
    expect((await api(`/v4/users/${timer.id}/contributions.json?type=bogus`)).status).toBe(400);
  });

  it("counts a user's contributions: every segment and subtitle history row, all containers", async () => {
    expect(await (await api(`/v4/users/${timer.id}/contributions/count.json`)).json()).toEqual({ count: 3 + 2 + 1 + 4 });
    expect(await (await api(`/v4/users/${timer.id}/contributions/count.json?type=segments`)).json()).toEqual({ count: 7 });
    expect(await (await api(`/v4/users/${timer.id}/contributions/count.json?type=subtitles`)).json()).toEqual({ count: 3 });
    expect(await (await api(`/v4/users/${idle.id}/contributions/count.json`)).json()).toEqual({ count: 0 });
    expect((await api(`/v4/users/${timer.id}/contributions/count.json?type=x`)).status).toBe(400);
  });

  it("404s missing and malformed users", async () => {
    for (const path of ["999999999u/contributions.json", "abc/contributions.json", "999999999u/contributions/count.json"]) {
      expect((await api(`/v4/users/${path}`)).status, path).toBe(404);
    }
  });
});

describe("derivation from subtitle histories", () => {
  it("follows history inserts, deletions and deleted videos, never typed by hand", async () => {
    const author = await createUser();
    const show = await createContainer({ title: "Derived Show" });
    const v1 = await createVideo(show.id, { number: 1 });
    const v2 = await createVideo(show.id, { number: 2 });
    const { db: shard } = await shardOf(show.id);
    const stored = () =>
      shard
        .select()
        .from(contributions)
        .where(and(eq(contributions.containerId, show.id), eq(contributions.userId, author.user.id)))
        .get();
    await history(author, v1, "segment", 2);
    await history(author, v2, "subtitle", 3);
    expect(await stored()).toEqual({
      containerId: show.id,
      userId: author.user.id,
      username: author.user.username,
      segments: 2,
      subtitles: 3,
      total: 5,
    });

    const [one] = await shard.select().from(subtitleHistories).where(eq(subtitleHistories.videoId, v2.id)).limit(1);
    await shard.delete(subtitleHistories).where(eq(subtitleHistories.id, one.id));
    expect(await stored()).toMatchObject({ segments: 2, subtitles: 2, total: 4 });

    // A history row corrected to the other kind moves between the counts.
    const [seg] = await shard.select().from(subtitleHistories).where(eq(subtitleHistories.videoId, v1.id)).limit(1);
    await shard.update(subtitleHistories).set({ kind: "subtitle" }).where(eq(subtitleHistories.id, seg.id));
    expect(await stored()).toMatchObject({ segments: 1, subtitles: 3, total: 4 });

    // Deleting the videos takes their histories (through the shard cleanup outbox), and the contribution goes with them.
    await db().delete(videos).where(eq(videos.containerId, show.id));
    await drainShardCleanups({ db: db(), env });
    expect(await stored()).toBeUndefined();
    expect(await (await api(`/v4/container/${show.wireId}/contributions.json`)).json()).toEqual([]);
  });
});

describe("across shards", () => {
  it("merges a user's containers from every shard, most first, and sums the count", async () => {
    const author = await createUser();
    // Containers are placed on the shard holding the fewest: made until both test shards hold two of them.
    const made: Array<{ c: Awaited<ReturnType<typeof createContainer>>; v: Awaited<ReturnType<typeof createVideo>> }> = [];
    const held = new Map<number, number>();
    while (made.length < 4) {
      const c = await createContainer({ title: `Spread ${made.length}` });
      const { shard } = await shardOf(c.id);
      if ((held.get(shard) ?? 0) >= 2) continue;
      held.set(shard, (held.get(shard) ?? 0) + 1);
      made.push({ c, v: await createVideo(c.id, { number: 1 }) });
    }
    for (const [i, m] of made.entries()) await history(author, m.v, "subtitle", [3, 5, 1, 4][i]);
    const body = (await (await api(`/v4/users/${author.id}/contributions.json`)).json()) as Contribution[];
    expect(body.map((r) => [r.container.id, r.subtitles])).toEqual([1, 3, 0, 2].map((i) => [made[i].c.wireId, [3, 5, 1, 4][i]]));
    const page = (await (await api(`/v4/users/${author.id}/contributions.json?per_page=2&page=2`)).json()) as Contribution[];
    expect(page.map((r) => r.container.id)).toEqual([made[0].c.wireId, made[2].c.wireId]);
    expect(await (await api(`/v4/users/${author.id}/contributions/count.json`)).json()).toEqual({ count: 13 });
  });
});

describe("cost", () => {
  it("a page of a popular container's contributors reads a page of rows, not its histories", async () => {
    const popular = await createContainer({ title: "Popular" });
    const video = await createVideo(popular.id, { number: 1 });
    // 300 contributors with 1..300 subtitle edits each (45,150 history rows), plus segments for every third one.
    const tag = `pop${popular.id}x`;
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
       INSERT INTO users (username, email, password_hash) SELECT ?1 || i, ?1 || i || '@example.com', 'x' FROM n`,
    )
      .bind(tag)
      .run();
    const authors = (
      await env.DB.prepare(
        "SELECT id, username, CAST(substr(username, length(?1) + 1) AS INTEGER) AS k FROM users WHERE username LIKE ?1 || '%'",
      )
        .bind(tag)
        .all<{ id: number; username: string; k: number }>()
    ).results;
    // On the container's shard, ids from its range (45,150 of them, allocated in the inserting batch).
    const { shard, db: shardDb } = await shardOf(popular.id);
    const rows = (300 * 301) / 2;
    await runBatch(shardDb, [
      allocateShardIdsStatement(shardDb, shard, rows).getSQL(),
      sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300),
        u AS (SELECT json_extract(value, '$.id') AS id, json_extract(value, '$.username') AS username,
          json_extract(value, '$.k') AS k FROM json_each(${JSON.stringify(authors)}))
        INSERT INTO subtitle_histories (id, kind, user_id, username, video_id, container_id)
        SELECT ${firstAllocatedId(shard, rows)} + row_number() OVER () - 1,
          CASE WHEN n.i % 3 = 0 AND n.i < u.k THEN 'segment' ELSE 'subtitle' END, u.id, u.username, ${video.id}, ${popular.id}
        FROM u JOIN n ON n.i <= u.k`,
    ]);
    const figures: Record<string, number> = {};
    const measure = async (name: string, path: string) => {
      const res = await api(path);
      expect(res.status, name).toBe(200);
      figures[name] = rowsRead(res);
      return res.json();
    };
    const top = (await measure("contributors page 1", `/v4/container/${popular.wireId}/contributions.json`)) as Contributor[];
    expect(top.map((c) => c.segments + c.subtitles)).toEqual(Array.from({ length: 25 }, (_, i) => 300 - i));
    await measure("contributors type=segments", `/v4/container/${popular.wireId}/contributions.json?type=segments`);
    await measure("contributors page 10", `/v4/container/${popular.wireId}/contributions.json?page=10`);
    const heavy = top[0].user.id;
    await measure("user contributions", `/v4/users/${heavy}/contributions.json`);
    await measure("user count", `/v4/users/${heavy}/contributions/count.json`);
    console.log("contributions rows read (300 contributors, 45,150 histories):", JSON.stringify(figures));
    // The catalogue's rows (container, placement, shard map, the page's containers) plus the shards'.
    expect(figures["contributors page 1"]).toBeLessThanOrEqual(100);
    expect(figures["contributors type=segments"]).toBeLessThanOrEqual(150);
    expect(figures["user contributions"]).toBeLessThanOrEqual(20);
    expect(figures["user count"]).toBeLessThanOrEqual(10);
  });
});
