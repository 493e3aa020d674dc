import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { issueV3Token } from "../../src/lib/v3-tokens";
import { routeOf } from "../../src/lib/route-registry";
import { STORED_AT } from "../../src/middleware/cache";
import {
  EDGE_MAX_AGE_SECONDS,
  EDGE_STALE_SECONDS,
  GENERATION_MEMO_MS,
  bumpGenerations,
  edgeKey,
  freshness,
  generations,
  scopesOf,
} from "../../src/services/edge-cache";
import { ORIGIN, api, createApplication, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { waitForJob } from "../helpers/jobs";
import { makeCues, srtOf } from "../helpers/subtitles";

type Signed = Awaited<ReturnType<typeof signedInUser>>;

/** `hit`, `stale`, `miss`, or null when the edge cache was not consulted (a private request). */
const cacheOf = (res: Response) => /cache;desc="(\w+)"/.exec(res.headers.get("server-timing") ?? "")?.[1] ?? null;
const d1Queries = (res: Response) => /d1-queries;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "")?.[1];

/** Reads twice anonymously: the first computes and stores, the second is served from the cache without D1. */
async function expectCached(path: string) {
  const first = await api(path);
  expect(first.status, path).toBe(200);
  expect(cacheOf(first), path).toBe("miss");
  const body = await first.text();
  const second = await api(path);
  expect(cacheOf(second), path).toBe("hit");
  expect(d1Queries(second), path).toBeUndefined();
  expect(second.headers.get("server-timing"), path).not.toMatch(/d1/);
  expect(await second.text(), path).toBe(body);
  expect(second.headers.get("etag"), path).toBe(first.headers.get("etag"));
  expect(second.headers.get("cache-control"), path).toBe(first.headers.get("cache-control"));
  // The isolate tier hands the same stored bytes to every hit: concurrent hits each get all of them.
  const more = await Promise.all([api(path), api(path)]);
  for (const res of more) expect(await res.text(), path).toBe(body);
  return JSON.parse(body);
}

let staff: Signed, manager: Signed, commenter: Signed;
let official: Awaited<ReturnType<typeof createApplication>>;
let container: Awaited<ReturnType<typeof createContainer>>;
let video: Awaited<ReturnType<typeof createVideo>>;
let c: string, v: string;

beforeAll(async () => {
  [staff, manager, commenter] = await Promise.all([signedInUser({ staff: true }), signedInUser(), signedInUser()]);
  official = await createApplication({ official: true });
  container = await createContainer({ title: "Edge original", managers: [manager.user.id] });
  video = await createVideo(container.id, { number: 1, duration: 600 });
  [c, v] = [container.wireId, video.wireId];
});

describe("anonymous public reads are served from the edge cache", () => {
  it("serves a second read of each public catalogue read with no D1 query", async () => {
    for (const path of [
      `/v4/containers/${c}.json`,
      `/v4/series/${c}.json`,
      `/v4/containers.json?type=series&per_page=5`,
      `/v4/containers/${c}/videos.json`,
      `/v4/containers/${c}/episodes.json`,
      `/v4/videos/${v}.json`,
      `/v4/containers/all.json`,
      `/v4/containers/genres.json`,
      `/v4/lists/6l.json`,
      `/v4/videos/${v}/timed_comments/fr.json`,
      `/v4/containers/${c}/contributions.json`,
      `/v4/users/${manager.user.id}u.json`,
      `/v4/users/${manager.user.id}u/contributions.json`,
    ]) {
      await expectCached(path);
    }
  });

  it("answers 304 from the cache to a matching If-None-Match, and HEAD without a body", async () => {
    const path = `/v4/containers/${c}.json?fields=all`;
    const first = await api(path);
    const etag = first.headers.get("etag")!;
    const again = await api(path, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(cacheOf(again)).toBe("hit");
    expect(again.headers.get("etag")).toBe(etag);
    const head = await SELF.fetch(`${ORIGIN}${path}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(cacheOf(head)).toBe("hit");
    expect(await head.text()).toBe("");
  });

  it("keys on the normalised URL: query order and credential parameters do not split it", async () => {
    await expectCached("/v4/containers.json?type=series&sort=title&per_page=7");
    for (const variant of [
      "/v4/containers.json?per_page=7&sort=title&type=series",
      "/v4/containers.json?sort=title&t=1700000000&per_page=7&type=series",
      "/v4/containers.json?access_token=abc&type=series&per_page=7&timestamp=1&sort=title",
    ]) {
      expect(cacheOf(await api(variant)), variant).toBe("hit");
    }
    expect(cacheOf(await api("/v4/containers.json?type=series&sort=title&per_page=8"))).toBe("miss");
  });

  it("keys on the viewer's region, which the views read", async () => {
    const path = `/v4/videos/${v}.json?region-test=1`;
    const inKorea = () => SELF.fetch(`${ORIGIN}${path}`, { cf: { country: "KR" } } as RequestInit);
    expect(cacheOf(await inKorea())).toBe("miss");
    expect(cacheOf(await inKorea())).toBe("hit");
    expect(cacheOf(await SELF.fetch(`${ORIGIN}${path}`, { cf: { country: "FR" } } as RequestInit))).toBe("miss");
  });
});

describe("private answers are never shared", () => {
  const path = () => `/v4/containers/${c}.json?private-test=1`;

  it("never stores a token-bearing, Authorization or signed request's answer, nor serves a signed one", async () => {
    const asUser = await api(`${path()}&token=${manager.token}`);
    expect(asUser.status).toBe(200);
    expect(cacheOf(asUser)).toBe("miss");
    expect(asUser.headers.get("cache-control")).toBe("private, no-store");
    const bearer = await api(path(), { headers: { authorization: `Bearer ${manager.token}` } });
    expect(cacheOf(bearer)).toBe("miss");
    const signed = await api(`${path()}&app=${official.wireId}`);
    expect(signed.status).toBe(200);
    expect(cacheOf(signed)).toBeNull();
    expect(signed.headers.get("cache-control")).toBe("private, no-store");
    // None of them was stored: the first anonymous read computes.
    expect(cacheOf(await api(path()))).toBe("miss");
    // A token read is then answered from the anonymous copy, with a token read's headers (test/middleware/token-reads.test.ts).
    for (const token of [manager.token, "None", ""]) {
      const res = await api(`${path()}&token=${token}`);
      expect(cacheOf(res), token).toBe("hit");
      expect(res.headers.get("cache-control"), token).toBe("private, no-store");
    }
    expect(cacheOf(await api(`${path()}&app=${official.wireId}`))).toBeNull();
  });

  it("shares v3 answers for client-credentials tokens only, keyed without the token", async () => {
    const clientToken = (clientId: number) => issueV3Token(env.V3_TOKEN_SECRET, { clientId });
    const path = "/api/v3/coming_soon.json?per_page=3";
    const first = await api(`${path}&access_token=${await clientToken(1)}`);
    expect(first.status).toBe(200);
    expect(cacheOf(first)).toBe("miss");
    const other = await api(`${path}&access_token=${await clientToken(2)}`);
    expect(cacheOf(other)).toBe("hit");
    expect(other.headers.get("deprecation")).toBe(first.headers.get("deprecation"));
    const withUser = await api(`${path}&access_token=${await issueV3Token(env.V3_TOKEN_SECRET, { clientId: 1, userId: manager.user.id })}`);
    expect(withUser.status).toBe(200);
    expect(cacheOf(withUser)).toBeNull();
    expect(withUser.headers.get("cache-control")).toBe("private, no-store");
    const invalid = await api(`${path}&access_token=forged`);
    expect(invalid.status).toBe(401);
    expect(cacheOf(invalid)).toBeNull();
  });
});

describe("a write makes the next read of what it changed fresh", () => {
  const asStaff = (path: string, method: string, json?: unknown) => api(`${path}?token=${staff.token}`, { method, json });

  it("container edit and title", async () => {
    const path = `/v4/containers/${c}.json`;
    await api(path);
    expect((await asStaff(path, "PUT", { release_date: "2020-02-02" })).status).toBe(200);
    const edited = await api(path);
    expect(cacheOf(edited)).toBe("miss");
    expect(((await edited.json()) as { release_date: string }).release_date).toContain("2020-02-02");
    expect(cacheOf(await api(path))).toBe("hit");
    expect((await asStaff(`/v4/containers/${c}/titles.json`, "POST", { language_code: "en", title: "Edge renamed" })).status).toBe(201);
    expect(((await (await api(path)).json()) as { titles: { en: string } }).titles.en).toBe("Edge renamed");
    expect(JSON.stringify(await (await api("/v4/containers/all.json")).json())).toContain("Edge renamed");
  });

  it("new video and video edit", async () => {
    const path = `/v4/containers/${c}/videos.json`;
    const before = (await (await api(path)).json()) as { response: unknown[] };
    const created = await asStaff(path, "POST", { type: "episode", number: 2, titles: { en: "Second" } });
    expect(created.status).toBe(201);
    const after = (await (await api(path)).json()) as { response: unknown[] };
    expect(after.response.length).toBe(before.response.length + 1);
    expect((await asStaff(`/v4/videos/${v}.json`, "PUT", { state: "blocked" })).status).toBe(200);
    expect((await api(`/v4/videos/${v}.json`)).status).toBe(404);
    expect((await asStaff(`/v4/videos/${v}.json`, "PUT", { state: "normal" })).status).toBe(200);
    expect((await api(`/v4/videos/${v}.json`)).status).toBe(200);
  });

  it("list edit job", async () => {
    const made = await asStaff("/v4/lists.json", "POST", { titles: { en: "Edge picks" } });
    const list = ((await made.json()) as { id: string }).id;
    expect(((await expectCached(`/v4/lists/${list}.json`)) as { response: unknown[] }).response).toEqual([]);
    const edit = await asStaff(`/v4/lists/${list}.json`, "PUT", { videos: [c] });
    expect(edit.status).toBe(202);
    expect((await waitForJob(((await edit.json()) as { job: { id: string } }).job.id, staff.token)).status).toBe("succeeded");
    const fresh = await api(`/v4/lists/${list}.json`);
    expect(cacheOf(fresh)).toBe("miss");
    expect(((await fresh.json()) as { response: unknown[] }).response.length).toBe(1);
  });

  it("timed comment added and deleted", async () => {
    const path = `/v4/videos/${v}/timed_comments/de.json`;
    expect(await expectCached(path)).toEqual([]);
    const posted = await api(`${path}?token=${commenter.token}`, { method: "POST", json: { time: 1000, comment: "edge" } });
    expect(posted.status).toBe(201);
    const after = (await (await api(path)).json()) as Array<{ id: string }>;
    expect(after.map((x) => x.id)).toEqual([((await posted.json()) as { id: string }).id]);
    const del = await api(`/v4/videos/${v}/timed_comments/${after[0].id}.json?token=${commenter.token}`, { method: "DELETE" });
    expect(del.status).toBe(204);
    expect(await (await api(path)).json()).toEqual([]);
    // A comment bumps only its video: the rest of the catalogue stays cached.
    await api(`/v4/containers/${c}.json?scope-test=1`);
    await api(`${path}?token=${commenter.token}`, { method: "POST", json: { time: 2000, comment: "again" } });
    expect(cacheOf(await api(`/v4/containers/${c}.json?scope-test=1`))).toBe("hit");
  });

  it("subtitle import job (contributions)", async () => {
    const path = `/v4/containers/${c}/contributions.json`;
    const before = (await (await api(path)).json()) as unknown[];
    const imported = await api(`/v4/videos/${v}/subtitles/import_srt.json?app=${official.wireId}&token=${manager.token}`, {
      method: "POST",
      json: { language: "it", content: srtOf(makeCues(2, "Ciao")) },
    });
    expect(imported.status).toBe(202);
    expect((await waitForJob(((await imported.json()) as { job: { id: string } }).job.id, manager.token)).status).toBe("succeeded");
    const after = await api(path);
    expect(cacheOf(after)).toBe("miss");
    expect(((await after.json()) as unknown[]).length).toBe(before.length + 1);
  });
});

describe("the generation memo", () => {
  it("a bump is seen at once where it is made; another isolate's bump (KV changed underneath) within GENERATION_MEMO_MS", async () => {
    // Jobs an earlier test queued (an import's completion job) bump the catalogue when they run: let them finish first.
    await expect
      .poll(
        async () =>
          (await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')").first<{ n: number }>())!.n,
        {
          timeout: 10_000,
        },
      )
      .toBe(0);
    const [before] = await generations(env.CACHE, ["catalogue"]);
    await bumpGenerations(env, "catalogue");
    const [mine] = await generations(env.CACHE, ["catalogue"]);
    expect(mine).not.toBe(before);
    await env.CACHE.put("gen:catalogue", "from-another-isolate");
    expect((await generations(env.CACHE, ["catalogue"]))[0]).toBe(mine);
    await new Promise((r) => setTimeout(r, GENERATION_MEMO_MS + 50));
    expect((await generations(env.CACHE, ["catalogue"]))[0]).toBe("from-another-isolate");
  });
});

describe("stale-while-revalidate", () => {
  it("says when an answer is fresh, stale or expired", () => {
    const now = 1_000_000_000;
    expect(freshness(now - EDGE_MAX_AGE_SECONDS * 1000, now)).toBe("fresh");
    expect(freshness(now - (EDGE_MAX_AGE_SECONDS + 1) * 1000, now)).toBe("stale");
    expect(freshness(now - (EDGE_MAX_AGE_SECONDS + EDGE_STALE_SECONDS) * 1000, now)).toBe("stale");
    expect(freshness(now - (EDGE_MAX_AGE_SECONDS + EDGE_STALE_SECONDS + 1) * 1000, now)).toBe("expired");
  });

  /** Puts an answer under the request's key as if it had been stored `ageSeconds` ago. */
  async function storeAged(path: string, body: string, ageSeconds: number, region?: string) {
    const url = `${ORIGIN}${path}`;
    const key = edgeKey(
      url,
      { region },
      await generations(env.CACHE, scopesOf(routeOf("GET", new URL(url).pathname.replace(/\.json$/, "")))),
    );
    const headers = {
      "content-type": "application/json",
      "cache-control": "public, max-age=360",
      [STORED_AT]: String(Date.now() - ageSeconds * 1000),
    };
    await caches.default.put(key, new Response(body, { headers }));
  }

  it("serves a stale answer at once and refreshes it in the background", async () => {
    const path = `/v4/containers/${c}.json?swr=1`;
    await storeAged(path, '{"stale":true}', EDGE_MAX_AGE_SECONDS + 30);
    const stale = await SELF.fetch(`${ORIGIN}${path}`);
    expect(cacheOf(stale)).toBe("stale");
    expect(stale.headers.get("server-timing")).not.toMatch(/d1/);
    expect(await stale.json()).toEqual({ stale: true });
    expect(Number(stale.headers.get("age"))).toBeGreaterThanOrEqual(EDGE_MAX_AGE_SECONDS + 30);
    let refreshed: Response | undefined;
    for (let i = 0; i < 50 && cacheOf((refreshed = await SELF.fetch(`${ORIGIN}${path}`))) !== "hit"; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(cacheOf(refreshed!)).toBe("hit");
    expect(((await refreshed!.json()) as { id: string }).id).toBe(c);
  });

  it("refreshes a stale answer under the viewer's region (the refresh keeps the request's cf)", async () => {
    const path = `/v4/containers/${c}.json?swr=3`;
    await storeAged(path, '{"stale":true}', EDGE_MAX_AGE_SECONDS + 30, "kr");
    const inKorea = () => SELF.fetch(`${ORIGIN}${path}`, { cf: { country: "KR" } } as RequestInit);
    const burst = await Promise.all(Array.from({ length: 5 }, inKorea));
    // Concurrent readers get the stale copy (one refresh runs) or, once it is stored, the fresh one.
    expect(burst.map(cacheOf)).toContain("stale");
    for (const res of burst) expect(["stale", "hit"]).toContain(cacheOf(res));
    let refreshed: Response | undefined;
    for (let i = 0; i < 50 && cacheOf((refreshed = await inKorea())) !== "hit"; i++) await new Promise((r) => setTimeout(r, 50));
    expect(cacheOf(refreshed!)).toBe("hit");
    expect(((await refreshed!.json()) as { id: string }).id).toBe(c);
  });

  it("does not serve an answer older than the stale window", async () => {
    const path = `/v4/containers/${c}.json?swr=2`;
    await storeAged(path, '{"stale":true}', EDGE_MAX_AGE_SECONDS + EDGE_STALE_SECONDS + 5);
    const res = await SELF.fetch(`${ORIGIN}${path}`);
    expect(cacheOf(res)).toBe("miss");
    expect(((await res.json()) as { id: string }).id).toBe(c);
  });
});
