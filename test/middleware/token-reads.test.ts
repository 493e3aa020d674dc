// A read with a user's token, on a route whose answers the token never changes (`sharedWithUsers`), is answered from
// the edge cache's anonymous copy after its session check (docs/decisions.md, "Token reads from the edge cache").
import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import "../../src/app";
import { registeredRoutes } from "../../src/lib/route-registry";
import { hashToken } from "../../src/lib/tokens";
import { SESSION_REFRESH_SECONDS } from "../../src/services/sessions";
import { ORIGIN, api, createApplication, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { forceFresh, publicReads, type Read, readAll } from "../helpers/public-reads";
import { type WriteScene, writeScene } from "../helpers/write-scene";

type Signed = Awaited<ReturnType<typeof signedInUser>>;

const timing = (res: Response) => res.headers.get("server-timing") ?? "";
const cacheOf = (res: Response) => /cache;desc="(\w+)"/.exec(timing(res))?.[1] ?? null;
const d1Queries = (res: Response) => Number(/d1-queries;desc="(\d+)"/.exec(timing(res))?.[1] ?? 0);
const read = (path: string, init?: RequestInit) => SELF.fetch(`${ORIGIN}${path}`, init);

const SHARED = registeredRoutes().filter((r) => r.properties.sharedWithUsers);

describe("the routes that declare sharedWithUsers", () => {
  let scene: WriteScene;
  let reads: Read[];

  beforeAll(async () => {
    scene = await writeScene();
    // What staff and the manager may see and nobody else: a hidden episode of the series, a hidden series they manage.
    await createVideo(scene.series.id, { number: 3, title: "Hidden episode", state: "pending" });
    await createContainer({ title: "Hidden series", state: "pending", genres: [18], managers: [scene.manager.user.id] });
    const shared = new Set(SHARED.map((r) => `GET ${r.path}`));
    reads = publicReads(scene.targets).filter((r) => shared.has(r.route));
  });

  it("are public GETs, and the scene reads each of them", () => {
    expect(SHARED.length).toBeGreaterThan(5);
    for (const r of SHARED) expect([r.method, r.properties.cache], r.path).toEqual(["GET", "public"]);
    expect(new Set(reads.map((r) => r.route)).size).toBe(SHARED.length);
  });

  it("answer staff, a manager and any user computed afresh exactly as they answer no token", async () => {
    await forceFresh(scene.videoIds);
    const anonymous = await readAll(reads);
    for (const who of [scene.staff, scene.manager, scene.commenter]) {
      // A new generation: nothing is cached, so each user's answer is computed with that user.
      await forceFresh(scene.videoIds);
      const asUser = await readAll(reads.map((r) => ({ ...r, init: { ...r.init, token: who.token } })));
      for (const r of reads) {
        const [a, u] = [anonymous.get(r.path)!, asUser.get(r.path)!];
        expect(u.cache, r.path).toBe("miss");
        if (a.status === 200)
          expect({ status: u.status, body: u.body }, `${r.path} as ${who.user.username}`).toEqual({ status: 200, body: a.body });
      }
    }
  });
});

describe("a token read of a cached answer", () => {
  let user: Signed, manager: Signed;
  let c: string;

  beforeAll(async () => {
    [user, manager] = await Promise.all([signedInUser(), signedInUser()]);
    c = (await createContainer({ title: "Token read", managers: [manager.user.id] })).wireId;
  });

  it("is served from the anonymous copy with a token read's headers; the memo then spares D1", async () => {
    const path = `/v4/containers/${c}.json?k=1`;
    const anonymous = await read(path);
    expect(cacheOf(anonymous)).toBe("miss");
    const body = await anonymous.text();
    for (const init of [{}, { headers: { authorization: `Bearer ${user.token}` } }]) {
      const url = "headers" in init ? path : `${path}&token=${user.token}`;
      const res = await read(url, init);
      expect(res.status).toBe(200);
      expect(cacheOf(res)).toBe("hit");
      expect(await res.text()).toBe(body);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(res.headers.get("etag")).toBeNull();
      expect(res.headers.get("age")).toBeNull();
      expect(res.headers.get("x-token-ignored")).toBeNull();
    }
    // The same session again within SESSION_MEMO_SECONDS: no D1 query at all.
    const again = await read(`${path}&token=${user.token}`);
    expect(cacheOf(again)).toBe("hit");
    expect(d1Queries(again)).toBe(0);
    expect(timing(again)).not.toMatch(/d1/);
  });

  it("reads the session of a token the isolate has not seen (one query) and HEAD has no body", async () => {
    const path = `/v4/containers.json?per_page=3&k=2`;
    await read(path);
    const other = await signedInUser();
    const res = await read(`${path}&token=${other.token}`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(cacheOf(res)).toBe("hit");
    expect(d1Queries(res)).toBe(1);
    expect(await res.text()).toBe("");
  });

  it("says x-token-ignored for a dead, a malformed and an empty token, with the same answer", async () => {
    const path = `/v4/containers/${c}.json?k=3`;
    const body = await (await read(path)).text();
    const dead = "A".repeat(43);
    for (const [token, ignored] of [
      [dead, "invalid"],
      ["None", "invalid"],
      ["", "empty"],
    ]) {
      const res = await read(`${path}&token=${token}`);
      expect(cacheOf(res), token).toBe("hit");
      expect(res.headers.get("x-token-ignored"), token).toBe(ignored);
      expect(await res.text(), token).toBe(body);
    }
  });

  it("stops trusting a session at once when the user's sessions end in this isolate", async () => {
    const leaving = await signedInUser();
    const path = `/v4/containers/${c}.json?k=4`;
    await read(path);
    expect((await read(`${path}&token=${leaving.token}`)).headers.get("x-token-ignored")).toBeNull();
    expect((await api(`/v5/sessions/${leaving.token}.json`, { method: "DELETE" })).status).toBe(204);
    const after = await read(`${path}&token=${leaving.token}`);
    expect(cacheOf(after)).toBe("hit");
    expect(after.headers.get("x-token-ignored")).toBe("invalid");
  });

  it("refreshes a session's last use as the eager check does", async () => {
    const idle = await signedInUser();
    const path = `/v4/containers/${c}.json?k=5`;
    await read(path);
    const hash = await hashToken(idle.token);
    const stale = Math.floor(Date.now() / 1000) - SESSION_REFRESH_SECONDS - 60;
    await env.DB.prepare("UPDATE sessions SET last_used_at = ? WHERE token_hash = ?").bind(stale, hash).run();
    expect(cacheOf(await read(`${path}&token=${idle.token}`))).toBe("hit");
    const lastUsed = async () =>
      (await env.DB.prepare("SELECT last_used_at AS t FROM sessions WHERE token_hash = ?").bind(hash).first<{ t: number }>())?.t;
    await expect.poll(lastUsed).toBeGreaterThan(stale);
  });

  it("never stores what a token read computed, and a manager still sees a hidden container", async () => {
    const path = `/v4/containers/${c}.json?k=6`;
    const first = await read(`${path}&token=${user.token}`);
    expect(cacheOf(first)).toBe("miss");
    expect(cacheOf(await read(path))).toBe("miss");
    const hidden = (await createContainer({ title: "Hidden from all", state: "pending", managers: [manager.user.id] })).wireId;
    expect((await read(`/v4/containers/${hidden}.json`)).status).toBe(404);
    const managed = await read(`/v4/containers/${hidden}.json?token=${manager.token}`);
    expect(managed.status).toBe(200);
    expect(cacheOf(managed)).toBe("miss");
    expect((await read(`/v4/containers/${hidden}.json?token=${user.token}`)).status).toBe(404);
    // Still nobody else's: the manager's answer was not stored.
    expect((await read(`/v4/containers/${hidden}.json`)).status).toBe(404);
  });

  it("is not served from the cache on a route that does not declare sharedWithUsers, nor when signed", async () => {
    const path = `/v4/users/${user.user.id}u.json`;
    await read(path);
    expect(cacheOf(await read(path))).toBe("hit");
    const withToken = await read(`${path}?token=${user.token}`);
    expect(cacheOf(withToken)).toBeNull();
    const containerPath = `/v4/containers/${c}.json?k=7`;
    await read(containerPath);
    const app = await createApplication();
    const signed = await api(containerPath, { token: user.token, app: app.wireId });
    expect(signed.status).toBe(200);
    expect(cacheOf(signed)).toBeNull();
  });
});
