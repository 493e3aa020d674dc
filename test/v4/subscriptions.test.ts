import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { api, type ApiInit, createApplication, errorBody, rowsRead, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { bulkFollows, followables } from "../helpers/community";

type Json = any;
type Signed = Awaited<ReturnType<typeof signedInUser>>;

let official: string;
let partner: string;
let alice: Signed;
let bob: Signed;
let staff: Signed;

beforeAll(async () => {
  official = (await createApplication({ official: true })).wireId;
  partner = (await createApplication()).wireId;
  [alice, bob, staff] = [await signedInUser(), await signedInUser(), await signedInUser({ staff: true })];
});

const subs = (who: Signed, opts: ApiInit = {}) => ({
  list: (query: Record<string, string> = {}) =>
    api(`/v4/users/${who.id}/subscriptions.json`, { token: who.token, app: official, query, ...opts }),
  add: (json: unknown) => api(`/v4/users/${who.id}/subscriptions.json`, { method: "POST", token: who.token, app: official, json, ...opts }),
  remove: (id: string) =>
    api(`/v4/users/${who.id}/subscriptions/${id}.json`, { method: "DELETE", token: who.token, app: official, ...opts }),
});

describe("subscriptions: happy path", () => {
  it("subscribes (201, then 200 and unchanged), lists newest first with subscribed_at, unsubscribes", async () => {
    const user = await signedInUser();
    const { container, video, home } = await followables("happy");
    const first = await subs(user).add({ resource_id: container.wireId });
    expect(first.status).toBe(201);
    const body = (await first.json()) as Json;
    expect(body).toMatchObject({ id: container.wireId, type: "series", titles: { en: "happy container" } });
    expect(body.subscribed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const again = await subs(user).add({ resource_id: container.wireId });
    expect(again.status).toBe(200);
    expect(((await again.json()) as Json).subscribed_at).toBe(body.subscribed_at);

    expect((await subs(user).add({ resource_id: video.wireId })).status).toBe(201);
    const list = (await (await subs(user).list()).json()) as Json;
    expect(list.more).toBe(false);
    expect(list.response.map((r: Json) => r.id)).toEqual([video.wireId, container.wireId]);
    expect(list.response[0]).toMatchObject({ type: "movie", container: { id: home.wireId } });
    expect(list.response[0].subscribed_at).toBeTruthy();

    const removed = await subs(user).remove(container.wireId);
    expect(removed.status).toBe(204);
    expect((await subs(user).remove(container.wireId)).status).toBe(404);
    const after = (await (await subs(user).list()).json()) as Json;
    expect(after.response.map((r: Json) => r.id)).toEqual([video.wireId]);
  });

  it("ids=true answers every id as a bare array, newest first, ignoring paging", async () => {
    const user = await signedInUser();
    const { container, video } = await followables("ids");
    await subs(user).add({ resource_id: container.wireId });
    await subs(user).add({ resource_id: video.wireId });
    const res = await subs(user).list({ ids: "true", per_page: "1", page: "2" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([video.wireId, container.wireId]);
  });

  it("pages with more, with_paging counts and only_ids", async () => {
    const user = await signedInUser();
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createContainer({ title: `paged ${i}` }));
    for (const c of made) await subs(user).add({ resource_id: c.wireId });
    const p1 = (await (await subs(user).list({ per_page: "2", with_paging: "true" })).json()) as Json;
    expect(p1.more).toBe(true);
    expect(p1.count).toBe(3);
    expect(p1.response.map((r: Json) => r.id)).toEqual([made[2].wireId, made[1].wireId]);
    expect(p1.pagination.next).toContain("page=2");
    const p2 = (await (await subs(user).list({ per_page: "2", page: "2" })).json()) as Json;
    expect(p2).toMatchObject({ more: false });
    expect(p2.response.map((r: Json) => r.id)).toEqual([made[0].wireId]);
    const ids = (await (await subs(user).list({ only_ids: "true" })).json()) as Json;
    expect(ids.response).toEqual(made.map((c) => c.wireId).reverse());
  });

  it("accepts the token as Authorization: Bearer", async () => {
    const { container } = await followables("bearer");
    expect((await subs(alice, { bearer: true }).add({ resource_id: container.wireId })).status).toBe(201);
  });

  it("leaves items no longer in the normal state out of the page; ids=true and unsubscribing still see them", async () => {
    const user = await signedInUser();
    const { container, video } = await followables("hidden-later");
    await subs(user).add({ resource_id: container.wireId });
    await subs(user).add({ resource_id: video.wireId });
    await env.DB.prepare("UPDATE containers SET state = 'blocked' WHERE id = ?").bind(container.id).run();
    const list = (await (await subs(user).list()).json()) as Json;
    expect(list.response.map((r: Json) => r.id)).toEqual([video.wireId]);
    expect(await (await subs(user).list({ ids: "true" })).json()).toEqual([video.wireId, container.wireId]);
    expect((await subs(user).remove(container.wireId)).status).toBe(204);
  });

  it("drops subscriptions of a deleted container and keeps the count right", async () => {
    const user = await signedInUser();
    const { container, video } = await followables("deleted");
    await subs(user).add({ resource_id: container.wireId });
    await subs(user).add({ resource_id: video.wireId });
    await env.DB.prepare("DELETE FROM containers WHERE id = ?").bind(container.id).run();
    const list = (await (await subs(user).list({ with_paging: "true" })).json()) as Json;
    expect(list.count).toBe(1);
    expect(list.response.map((r: Json) => r.id)).toEqual([video.wireId]);
  });
});

describe("subscriptions: only_count", () => {
  it("answers {count} from the counter row, whatever the number of subscriptions", async () => {
    const user = await signedInUser();
    const { container, video } = await followables("sub count");
    await subs(user).add({ resource_id: container.wireId });
    await subs(user).add({ resource_id: video.wireId });
    const two = await subs(user).list({ only_count: "true" });
    expect(two.status).toBe(200);
    expect(await two.json()).toEqual({ count: 2 });
    await subs(user).remove(container.wireId);
    expect(await (await subs(user).list({ only_count: "1", per_page: "1", page: "9" })).json()).toEqual({ count: 1 });

    await bulkFollows("subscriptions", user.user.id, 500);
    const many = await subs(user).list({ only_count: "true" });
    expect(await many.json()).toEqual({ count: 501 });
    expect(rowsRead(many)).toBeLessThanOrEqual(5); // application, session, user, one follow_counts row
    expect(await (await subs(await signedInUser()).list({ only_count: "true" })).json()).toEqual({ count: 0 });
  });

  it("refuses only_count with ids=true, or unreadable, naming only_count; guards as the list does", async () => {
    for (const query of [{ only_count: "true", ids: "true" }, { only_count: "yes" }] as Record<string, string>[]) {
      const res = await subs(alice).list(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect((await errorBody(res)).details?.map((d) => d.field)).toContain("only_count");
    }
    expect(await (await subs(alice).list({ only_count: "true", ids: "false" })).json()).toMatchObject({ count: expect.any(Number) });
    const path = `/v4/users/${alice.id}/subscriptions.json`;
    expect((await api(path, { token: alice.token, query: { only_count: "true" } })).status).toBe(400); // no app
    expect((await api(path, { token: alice.token, app: partner, query: { only_count: "true" } })).status).toBe(403);
    expect((await api(path, { app: official, query: { only_count: "true" } })).status).toBe(401);
    expect((await api(path, { token: bob.token, app: official, query: { only_count: "true" } })).status).toBe(403);
  });
});

describe("subscriptions: bad input", () => {
  it("refuses a missing, malformed or unknown body field with 400 naming it", async () => {
    const cases: Array<[unknown, string]> = [
      [{}, "resource_id"],
      [{ resource_id: "12x" }, "resource_id"],
      [{ resource_id: "12u" }, "resource_id"],
      [{ resource_id: "012c" }, "resource_id"],
      [{ resource_id: 12 }, "resource_id"],
      [{ resource_id: ["1c"] }, "resource_id"],
      [{ extra: true }, "resource_id"],
    ];
    for (const [json, field] of cases) {
      const res = await subs(alice).add(json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      const err = await errorBody(res);
      expect(err.vcode).toBe(5002);
      expect(err.details?.map((d) => d.field)).toContain(field);
    }
    // An unknown field is ignored, and named in x-ignored-fields.
    const { container } = await followables("subscription extra");
    const extra = await subs(alice).add({ resource_id: container.wireId, extra: true });
    expect(extra.status).toBe(201);
    expect(extra.headers.get("x-ignored-fields")).toBe("extra");
  });

  it("404s, naming resource_id, a resource that does not exist or is not in the normal state", async () => {
    const pending = await createContainer({ title: "pending", state: "pending" });
    const blockedHome = await createContainer({ title: "blocked home", state: "blocked" });
    const inBlocked = await createVideo(blockedHome.id, { title: "in blocked" });
    const normalHome = await createContainer({ title: "normal home" });
    const blockedVideo = await createVideo(normalHome.id, { title: "blocked video", state: "blocked" });
    for (const id of ["999999999c", "999999999v", pending.wireId, inBlocked.wireId, blockedVideo.wireId]) {
      const res = await subs(alice).add({ resource_id: id });
      expect(res.status, id).toBe(404);
      const err = await errorBody(res);
      expect(err.vcode).toBe(404);
      expect(err.details).toEqual([{ field: "resource_id", message: expect.stringContaining(id) }]);
    }
  });

  it("404s unsubscribing from a malformed id or something not subscribed", async () => {
    for (const id of ["abc", "12u", "999999999c"]) expect((await subs(alice).remove(id)).status, id).toBe(404);
  });

  it(`stops at the subscription limit with 400 naming resource_id`, async () => {
    const user = await signedInUser();
    const { container, video } = await followables("limit");
    await subs(user).add({ resource_id: container.wireId });
    await bulkFollows("subscriptions", user.user.id, 9_999);
    const over = await subs(user).add({ resource_id: video.wireId });
    expect(over.status).toBe(400);
    expect((await errorBody(over)).details?.[0]).toMatchObject({ field: "resource_id", message: expect.stringContaining("10000") });
    // Subscribing again to what is already there stays harmless at the limit.
    expect((await subs(user).add({ resource_id: container.wireId })).status).toBe(200);
    expect((await subs(user).remove(container.wireId)).status).toBe(204);
    expect((await subs(user).add({ resource_id: video.wireId })).status).toBe(201);
  });
});

describe("subscriptions: security", () => {
  const routes = (owner: Signed, target: string) => [
    { name: "list", method: "GET", path: `/v4/users/${owner.id}/subscriptions.json`, json: undefined },
    { name: "ids", method: "GET", path: `/v4/users/${owner.id}/subscriptions.json?ids=true`, json: undefined },
    { name: "add", method: "POST", path: `/v4/users/${owner.id}/subscriptions.json`, json: { resource_id: target } },
    { name: "remove", method: "DELETE", path: `/v4/users/${owner.id}/subscriptions/${target}.json`, json: undefined },
  ];

  it("answers the owner and staff; 401 without a token, 403 with another user's", async () => {
    const owner = await signedInUser();
    const { container } = await followables("matrix");
    for (const r of routes(owner, container.wireId)) {
      const anonymous = await api(r.path, { method: r.method, app: official, json: r.json });
      expect(anonymous.status, r.name).toBe(401);
      expect((await errorBody(anonymous)).vcode).toBe(4500);
      const other = await api(r.path, { method: r.method, app: official, token: bob.token, json: r.json });
      expect(other.status, r.name).toBe(403);
      expect((await errorBody(other)).vcode).toBe(5403);
    }
    for (const who of [owner, staff]) {
      for (const r of routes(owner, container.wireId)) {
        const res = await api(r.path, { method: r.method, app: official, token: who.token, json: r.json });
        expect(res.status, `${r.name} as ${who === owner ? "owner" : "staff"}`).toBeLessThan(300);
      }
    }
  });

  it("needs an official application: none is 400 naming app, another 403", async () => {
    const { container } = await followables("apps");
    for (const r of routes(alice, container.wireId)) {
      const none = await api(r.path, { method: r.method, token: alice.token, json: r.json });
      expect(none.status, r.name).toBe(400);
      expect((await errorBody(none)).details?.[0].field).toBe("app");
      const other = await api(r.path, { method: r.method, app: partner, token: alice.token, json: r.json });
      expect(other.status, r.name).toBe(403);
      expect((await errorBody(other)).vcode).toBe(5403);
    }
  });

  it("keeps each user's subscriptions apart: bob's is a 404 through alice's path", async () => {
    const { container } = await followables("apart");
    await subs(bob).add({ resource_id: container.wireId });
    expect((await subs(alice).remove(container.wireId)).status).toBe(404);
    const aliceIds = (await (await subs(alice).list({ ids: "true" })).json()) as string[];
    expect(aliceIds).not.toContain(container.wireId);
    expect(await (await subs(bob).list({ ids: "true" })).json()).toContain(container.wireId);
  });

  it("404s a user that does not exist for staff; a dead token is 401 vcode 11", async () => {
    expect((await api("/v4/users/999999999u/subscriptions.json", { app: official, token: staff.token })).status).toBe(404);
    const dead = await api(`/v4/users/${alice.id}/subscriptions.json`, { app: official, token: "not-a-session" });
    expect(dead.status).toBe(401);
    expect((await errorBody(dead)).vcode).toBe(11);
  });
});
