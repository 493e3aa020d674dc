import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/lib/tokens";
import { listItems, lists, titles } from "../../src/db/schema";
import { addTimedComment, shardDbs } from "../helpers/shards";
import { createHistories } from "../helpers/localisation";
import { api, db, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { issueV3Token } from "../../src/lib/v3-tokens";
import { v3Token } from "../helpers/v3";

/**
 * docs/decisions.md, "One round trip per read": every catalogue read is one D1 statement or one batch, counted by the
 * `d1-queries` entry of Server-Timing (a batch counts its statements, so the figure is the statements of one trip).
 * What is asserted is the number of round trips: `trips` counts a batch once.
 */
const queries = (res: Response) => Number(/d1-queries;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "")?.[1]);
const trips = (res: Response) => Number(/d1-trips;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "")?.[1]);

/**
 * Reads of rows that live on a shard (docs/decisions.md, "Shards"): one catalogue round trip (the resource, its
 * visibility and the shard its container is on, with the session check), then one to that shard.
 */
const SHARD_READS = new Set([
  "timed comments",
  "timed comments, episodes alias",
  "contributors of a container",
  "contributors of a container, plural",
]);
/**
 * Reads across containers ask every shard in parallel (docs/decisions.md, "Subtitles on the shards"): one round trip
 * of wall time, counted here once per shard. A user's contributions: the catalogue batch (the user and the shard map),
 * then the shards, then the page's containers from the catalogue; their count: the catalogue batch, then the shards.
 */
const SHARDS = shardDbs().length;
const ACROSS_SHARDS: Record<string, number> = {
  "contributions of a user": 1 + SHARDS + 1,
  "contribution count of a user": 1 + SHARDS,
};
const budget = (name: string) => ACROSS_SHARDS[name] ?? (SHARD_READS.has(name) ? 2 : 1);

let member: Awaited<ReturnType<typeof signedInUser>>;
let manager: Awaited<ReturnType<typeof signedInUser>>;
let v3: string;
/** A password-grant v3 token (it names a user): never shared by the edge cache, so always read from D1. */
let v3User: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  member = await signedInUser();
  manager = await signedInUser();
  v3 = await v3Token();
  v3User = await issueV3Token(env.V3_TOKEN_SECRET, { clientId: 1, userId: member.user.id });
  const series = await createContainer({ title: "Trip Series", genres: [6], onAir: true, managers: [manager.user.id] });
  const film = await createContainer({ type: "film", title: "Trip Film", genres: [18], upcoming: true });
  const pending = await createContainer({ title: "Trip Pending", state: "pending", managers: [manager.user.id] });
  const episode = await createVideo(series.id, { number: 1, title: "Trip 1" });
  await createVideo(series.id, { number: 2, state: "pending" });
  const movie = await createVideo(film.id, { type: "movie", title: "Trip movie" });
  await addTimedComment({ videoId: episode.id, language: "en", userId: member.user.id, timeMs: 10, comment: "hi" });
  // The member's contributions, so that their list names a container (read back from the catalogue).
  await createHistories([{ userId: member.user.id, videoId: episode.id, containerId: series.id }]);
  const [list] = await db().insert(lists).values({}).returning();
  await db().insert(titles).values({ resourceKind: "l", resourceId: list.id, language: "en", text: "Trips" });
  await db()
    .insert(listItems)
    .values([
      { listId: list.id, position: 1, resourceKind: "c", resourceId: film.id },
      { listId: list.id, position: 2, resourceKind: "v", resourceId: episode.id },
      { listId: list.id, position: 3, resourceKind: "v", resourceId: movie.id },
    ]);
  Object.assign(ids, {
    series: series.wireId,
    film: film.wireId,
    pending: pending.wireId,
    episode: episode.wireId,
    movie: movie.wireId,
    list: `${list.id}l`,
    seriesN: String(series.id),
    movieN: String(movie.id),
    member: member.id,
  });
});

/** Anonymous catalogue reads: [name, path]; each must be one round trip. */
const anonymous = (): Array<[string, string]> => [
  ["one container", `/v4/containers/${ids.series}.json`],
  ["one container, pseudo path", `/v4/series/${ids.series}.json`],
  ["one video", `/v4/videos/${ids.episode}.json`],
  ["listing", "/v4/containers.json"],
  ["listing, filters", "/v4/containers.json?genre=6g&type=series&sort=views_recent"],
  ["listing, with_paging", "/v4/containers.json?genre=6g&with_paging=true"],
  ["listing, only_ids with_paging", "/v4/containers.json?with_paging=true&only_ids=true"],
  ["pseudo listing, with_paging", "/v4/series.json?with_paging=true"],
  ["bulk ids=", `/v4/containers.json?ids=${ids.series},${ids.film},${ids.pending}`],
  ["container videos", `/v4/containers/${ids.series}/videos.json`],
  ["container videos, with_paging", `/v4/containers/${ids.series}/videos.json?with_paging=true`],
  ["episodes", `/v4/containers/${ids.series}/episodes.json?with_paging=true`],
  ["series episodes", `/v4/series/${ids.series}/episodes.json`],
  ["list, curated", `/v4/lists/${ids.list}.json`],
  ["list, curated, filters, with_paging", `/v4/lists/${ids.list}.json?type=series&genre=6g&with_paging=true`],
  ["list, curated, only_ids", `/v4/lists/${ids.list}.json?only_ids=true&with_paging=true`],
  ["list 2l", "/v4/lists/2l.json"],
  ["list 6l, with_paging", "/v4/lists/6l.json?with_paging=true&type=film"],
  ["genres", "/v4/containers/genres.json"],
  ["all.json", "/v4/containers/all.json"],
  ["timed comments", `/v4/videos/${ids.episode}/timed_comments/en.json`],
  ["contributors of a container", `/v4/container/${ids.series}/contributions.json`],
  ["contributions of a user", `/v4/users/${ids.member}/contributions.json`],
  ["contribution count of a user", `/v4/users/${ids.member}/contributions/count.json`],
];

/** Every v3 read with `token`: a v3 token is checked without D1, so the read is its data's one batch. */
const v3Reads = (token: string): Array<[string, string]> => [
  ["v3 coming soon", `/api/v3/coming_soon.json?access_token=${token}`],
  ["v3 coming soon movies, language", `/api/v3/coming_soon/movies.xml?language=fr&access_token=${token}`],
  ["v3 movies", `/api/v3/movies.json?access_token=${token}`],
  ["v3 movies, old path", `/v3/movies.json?per_page=1&page=2&access_token=${token}`],
  ["v3 one movie", `/api/v3/movies/${ids.movieN}.json?access_token=${token}`],
  ["v3 one series", `/api/v3/series/${ids.seriesN}.json?access_token=${token}`],
  ["v3 episodes", `/api/v3/series/${ids.seriesN}/episodes.json?access_token=${token}`],
  ["v3 genres", `/api/v3/genres/series.json?access_token=${token}`],
  ["v3 genres, filtered", `/api/v3/genres/series.json?origin_country=kr&access_token=${token}`],
  ["v3 search", `/api/v3/search.json?query=trip&access_token=${token}`],
  ["v3 search, watchable_in", `/api/v3/search.json?query=trip&watchable_in=us&platform=web&access_token=${token}`],
];

describe("anonymous catalogue reads", () => {
  it("are one D1 round trip each (one statement or one batch)", async () => {
    for (const [name, path] of anonymous()) {
      const res = await api(fresh(path));
      expect(res.status, name).toBe(200);
      await res.arrayBuffer();
      expect(trips(res), `${name}: ${queries(res)} statements`).toBe(budget(name));
    }
  });
});

describe("v3 reads", () => {
  it("are one D1 round trip each, with a client-credentials token and with a password-grant one", async () => {
    for (const [kind, token] of [
      ["client credentials", v3],
      ["password grant", v3User],
    ]) {
      for (const [name, path] of v3Reads(token)) {
        const res = await api(fresh(path));
        expect(res.status, `${name} (${kind})`).toBe(200);
        await res.arrayBuffer();
        expect(trips(res), `${name} (${kind}): ${queries(res)} statements`).toBe(1);
      }
    }
  });
});

/**
 * A parameter no route reads, unique per request: the edge cache (docs/decisions.md, "Edge cache") keys on the whole query, so the
 * read reaches the Worker's D1 path, which is what is counted here.
 */
const fresh = (path: string) => `${path}${path.includes("?") ? "&" : "?"}rt=${crypto.randomUUID()}`;

const withToken = (path: string, token: string) => `${path}${path.includes("?") ? "&" : "?"}token=${token}`;

/** The public reads carry the session check in their data batch. */
const carried = (): Array<[string, string]> => [
  ["one container", `/v4/containers/${ids.series}.json`],
  ["one container, pseudo path", `/v4/series/${ids.series}.json`],
  ["listing, with_paging", "/v4/containers.json?genre=6g&with_paging=true"],
  ["bulk ids=", `/v4/containers.json?ids=${ids.series},${ids.film}`],
  ["list, curated, with_paging", `/v4/lists/${ids.list}.json?with_paging=true`],
  ["list 2l", "/v4/lists/2l.json"],
  ["one video", `/v4/videos/${ids.episode}.json`],
  ["container videos", `/v4/containers/${ids.series}/videos.json`],
  ["container videos, with_paging", `/v4/containers/${ids.series}/videos.json?with_paging=true&direction=desc`],
  ["episodes", `/v4/containers/${ids.series}/episodes.json?with_paging=true`],
  ["series episodes", `/v4/series/${ids.series}/episodes.json`],
  ["film movies", `/v4/films/${ids.film}/movies.json`],
  ["timed comments", `/v4/videos/${ids.episode}/timed_comments/en.json`],
  ["timed comments, episodes alias", `/v4/episodes/${ids.episode}/timed_comments/en.json`],
  ["contributors of a container", `/v4/container/${ids.series}/contributions.json`],
  ["contributors of a container, plural", `/v4/containers/${ids.series}/contributions.json?type=subtitles`],
  ["contributions of a user", `/v4/users/${ids.member}/contributions.json`],
  ["contribution count of a user", `/v4/users/${ids.member}/contributions/count.json`],
];

const sessionRow = async (token: string) =>
  (await env.DB.prepare("SELECT last_used_at FROM sessions WHERE token_hash = ?")
    .bind(await hashToken(token))
    .first<{ last_used_at: number }>()) ?? null;

describe("token-bearing reads", () => {
  it("carry the session check in the data's batch: one round trip, the user known", async () => {
    for (const [name, path] of carried()) {
      const res = await api(withToken(path, member.token));
      expect(res.status, name).toBe(200);
      await res.arrayBuffer();
      expect(trips(res), name).toBe(budget(name));
      expect(res.headers.get("x-token-ignored"), name).toBeNull();
      expect(res.headers.get("cache-control"), name).toBe("private, no-store");
    }
  });

  it("ignore a dead token on those reads, saying so, still in one round trip", async () => {
    const dead = "A".repeat(43);
    for (const [name, path] of carried()) {
      const res = await api(withToken(path, dead));
      expect(res.status, name).toBe(200);
      await res.arrayBuffer();
      expect(trips(res), name).toBe(budget(name));
      expect(res.headers.get("x-token-ignored"), name).toBe("invalid");
    }
  });

  it("show a manager their hidden container (the manager lookup is a second trip) and hide it from others", async () => {
    const path = `/v4/containers/${ids.pending}.json`;
    const mine = await api(withToken(path, manager.token));
    expect(mine.status).toBe(200);
    expect(trips(mine)).toBe(2);
    expect((await api(withToken(path, member.token))).status).toBe(404);
    expect((await api(fresh(path))).status).toBe(404);
  });

  it("know the user after the batch: managers see what only they may (a manager lookup then is a second trip)", async () => {
    const pendingVideos = `/v4/containers/${ids.series}/videos.json?state=pending`;
    const mine = await api(withToken(pendingVideos, manager.token));
    expect(mine.status).toBe(200);
    expect(((await mine.json()) as { response: unknown[] }).response).toHaveLength(1);
    expect(trips(mine)).toBe(2);
    expect((await api(withToken(pendingVideos, member.token))).status).toBe(403);
    expect((await api(withToken(pendingVideos, "A".repeat(43)))).status).toBe(401);
    expect((await api(fresh(pendingVideos))).status).toBe(401);

    // The contributors then read the container's shard: catalogue batch, manager lookup, then the shard.
    for (const [path, expected] of [
      [`/v4/containers/${ids.pending}/videos.json`, 2],
      [`/v4/container/${ids.pending}/contributions.json`, 3],
    ] as const) {
      const managed = await api(withToken(path, manager.token));
      expect(managed.status, path).toBe(200);
      await managed.arrayBuffer();
      expect(trips(managed), path).toBe(expected);
      expect((await api(withToken(path, member.token))).status, path).toBe(404);
    }
  });

  it("say a token was ignored when the request ends before its read", async () => {
    const res = await api(withToken("/v4/containers/nope.json", "A".repeat(43)));
    expect(res.status).toBe(404);
    expect(res.headers.get("x-token-ignored")).toBe("invalid");
  });

  it("refresh a stale session and drop an expired one, as the eager check does", async () => {
    const u = await signedInUser();
    const hash = await hashToken(u.token);
    const stale = Math.floor(Date.now() / 1000) - 2 * 24 * 3600;
    await env.DB.prepare("UPDATE sessions SET last_used_at = ? WHERE token_hash = ?").bind(stale, hash).run();
    const fresh = await api(withToken(`/v4/containers/${ids.series}.json`, u.token));
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("x-token-ignored")).toBeNull();
    await expect.poll(async () => (await sessionRow(u.token))?.last_used_at).toBeGreaterThan(stale);

    await env.DB.prepare("UPDATE sessions SET expires_at = 1 WHERE token_hash = ?").bind(hash).run();
    const expired = await api(withToken(`/v4/videos/${ids.episode}/timed_comments/en.json`, u.token));
    expect(expired.status).toBe(200);
    expect(expired.headers.get("x-token-ignored")).toBe("invalid");
    await expect.poll(() => sessionRow(u.token)).toBeNull();
  });

  it("other reads check the session first, as before: user routes still answer 401 for a dead token", async () => {
    const res = await api(withToken(`/v4/users/${ids.member}.json`, member.token));
    expect(res.status).toBe(200);
    expect(trips(res)).toBe(2);
    expect((await api(withToken("/v4/notifications.json", "A".repeat(43)))).status).toBe(401);
  });

  it("a timed comment write: the session, one catalogue batch (video, container, placement), then the shard's insert", async () => {
    const res = await api(`/v4/videos/${ids.episode}/timed_comments/en.json`, {
      method: "POST",
      headers: { authorization: `Bearer ${member.token}`, "content-type": "application/json" },
      body: JSON.stringify({ time: 1000, comment: "three trips" }),
    });
    expect(res.status).toBe(201);
    expect(trips(res)).toBe(3);
  });
});
