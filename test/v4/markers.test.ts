import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { api, type ApiInit, createApplication, errorBody, rowsRead, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { bulkFollows, followables } from "../helpers/community";

type Json = any;
type Signed = Awaited<ReturnType<typeof signedInUser>>;

let alice: Signed;
let bob: Signed;
let staff: Signed;

beforeAll(async () => {
  [alice, bob, staff] = [await signedInUser(), await signedInUser(), await signedInUser({ staff: true })];
});

const marks = (who: Signed, opts: ApiInit = {}) => ({
  list: (query: Record<string, string> = {}) => api(`/v4/users/${who.id}/markers.json`, { token: who.token, query, ...opts }),
  add: (json: unknown) => api(`/v4/users/${who.id}/markers.json`, { method: "POST", token: who.token, json, ...opts }),
  remove: (id: string) => api(`/v4/users/${who.id}/markers/${id}.json`, { method: "DELETE", token: who.token, ...opts }),
});

describe("markers: happy path", () => {
  it("marks (201, then 200 and unchanged), lists newest first with marked_at, removes", async () => {
    const user = await signedInUser();
    const { container, video, home } = await followables("mark");
    const first = await marks(user).add({ resource_id: video.wireId });
    expect(first.status).toBe(201);
    const body = (await first.json()) as Json;
    expect(body).toMatchObject({ id: video.wireId, type: "movie", container: { id: home.wireId } });
    expect(body.marked_at).toMatch(/Z$/);
    const again = await marks(user).add({ resource_id: video.wireId });
    expect(again.status).toBe(200);
    expect(((await again.json()) as Json).marked_at).toBe(body.marked_at);
    expect((await marks(user).add({ resource_id: container.wireId })).status).toBe(201);

    const list = (await (await marks(user).list({ with_paging: "true" })).json()) as Json;
    expect(list).toMatchObject({ more: false, count: 2 });
    expect(list.response.map((r: Json) => r.id)).toEqual([container.wireId, video.wireId]);
    expect(list.response[0].marked_at).toBeTruthy();
    expect(list.response[0].subscribed_at).toBeUndefined();

    expect((await marks(user).remove(video.wireId)).status).toBe(204);
    expect((await marks(user).remove(video.wireId)).status).toBe(404);
    const after = (await (await marks(user).list({ only_ids: "true" })).json()) as Json;
    expect(after.response).toEqual([container.wireId]);
  });

  it("needs no application, and any application will do", async () => {
    const partner = (await createApplication()).wireId;
    const { container } = await followables("any app");
    expect((await marks(alice, { app: partner }).add({ resource_id: container.wireId })).status).toBe(201);
    expect((await marks(alice, { bearer: true }).list()).status).toBe(200);
  });

  it("markers and subscriptions are separate", async () => {
    const user = await signedInUser();
    const official = (await createApplication({ official: true })).wireId;
    const { container } = await followables("separate");
    await marks(user).add({ resource_id: container.wireId });
    const subs = await api(`/v4/users/${user.id}/subscriptions.json`, { token: user.token, app: official, query: { ids: "true" } });
    expect(await subs.json()).toEqual([]);
  });

  it("leaves a hidden item out of its page; a deleted one's marker goes with it", async () => {
    const user = await signedInUser();
    const { container, video } = await followables("gone");
    await marks(user).add({ resource_id: container.wireId });
    await marks(user).add({ resource_id: video.wireId });
    await env.DB.prepare("UPDATE videos SET state = 'pending' WHERE id = ?").bind(video.id).run();
    await env.DB.prepare("DELETE FROM containers WHERE id = ?").bind(container.id).run();
    const list = (await (await marks(user).list({ with_paging: "true" })).json()) as Json;
    expect(list).toMatchObject({ response: [], count: 1 });
    expect((await marks(user).remove(container.wireId)).status).toBe(404);
    expect((await marks(user).remove(video.wireId)).status).toBe(204);
  });
});

describe("markers: only_count", () => {
  it("answers {count} from the counter row, whatever the number of markers", async () => {
    const user = await signedInUser();
    const { container, video } = await followables("marker count");
    await marks(user).add({ resource_id: container.wireId });
    await marks(user).add({ resource_id: video.wireId });
    const two = await marks(user).list({ only_count: "true" });
    expect(two.status).toBe(200);
    expect(await two.json()).toEqual({ count: 2 });
    expect(await (await marks(user).list({ only_count: "1", page: "3", per_page: "1" })).json()).toEqual({ count: 2 });
    expect(((await (await marks(user).list({ only_count: "false" })).json()) as Json).response).toHaveLength(2);
    // Hidden items are left out of pages but still counted, as with_paging counts them.
    await env.DB.prepare("UPDATE videos SET state = 'pending' WHERE id = ?").bind(video.id).run();
    expect(await (await marks(user).list({ only_count: "true" })).json()).toEqual({ count: 2 });

    await bulkFollows("markers", user.user.id, 500);
    const many = await marks(user).list({ only_count: "true" });
    expect(await many.json()).toEqual({ count: 502 });
    expect(rowsRead(many)).toBeLessThanOrEqual(4); // session, user, one follow_counts row
    expect(await (await marks(await signedInUser()).list({ only_count: "true" })).json()).toEqual({ count: 0 });
  });

  it("refuses an unreadable only_count (400 naming it) and guards the count like the list", async () => {
    const res = await marks(alice).list({ only_count: "maybe" });
    expect(res.status).toBe(400);
    expect((await errorBody(res)).details?.map((d) => d.field)).toContain("only_count");
    const path = `/v4/users/${alice.id}/markers.json`;
    expect((await api(path, { query: { only_count: "true" } })).status).toBe(401);
    expect((await api(path, { token: bob.token, query: { only_count: "true" } })).status).toBe(403);
    expect((await api(path, { token: staff.token, query: { only_count: "true" } })).status).toBe(200);
  });
});

describe("markers: bad input", () => {
  it("refuses a missing, malformed or unknown body field with 400 naming it", async () => {
    const cases: Array<[unknown, string]> = [
      [{}, "resource_id"],
      [{ resource_id: "40x" }, "resource_id"],
      [{ resource_id: "3t" }, "resource_id"],
      [{ resource_id: null }, "resource_id"],
      [{ resource_id: { id: "1v" } }, "resource_id"],
      [{ note: "x" }, "resource_id"],
    ];
    for (const [json, field] of cases) {
      const res = await marks(alice).add(json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect((await errorBody(res)).details?.map((d) => d.field)).toContain(field);
    }
    // An unknown field is ignored, and named in x-ignored-fields.
    const { video } = await followables("marker extra");
    const extra = await marks(alice).add({ resource_id: video.wireId, note: "x" });
    expect(extra.status).toBe(201);
    expect(extra.headers.get("x-ignored-fields")).toBe("note");
    const notJson = await api(`/v4/users/${alice.id}/markers.json`, { method: "POST", token: alice.token });
    expect(notJson.status).toBe(400);
  });

  it("404s, naming resource_id, a resource that does not exist or is hidden", async () => {
    const home = await createContainer({ title: "marker home" });
    const pending = await createVideo(home.id, { state: "pending" });
    for (const id of ["999999999v", "999999999c", pending.wireId]) {
      const res = await marks(alice).add({ resource_id: id });
      expect(res.status, id).toBe(404);
      expect((await errorBody(res)).details?.[0].field).toBe("resource_id");
    }
  });

  it("404s removing a malformed id or one not marked", async () => {
    for (const id of ["x", "1u", "999999999v"]) expect((await marks(alice).remove(id)).status, id).toBe(404);
  });
});

describe("markers: security", () => {
  it("answers the owner and staff; 401 without a token, 403 with another user's", async () => {
    const owner = await signedInUser();
    const { container } = await followables("marker matrix");
    const routes = [
      { name: "list", method: "GET", path: `/v4/users/${owner.id}/markers.json`, json: undefined as unknown },
      { name: "add", method: "POST", path: `/v4/users/${owner.id}/markers.json`, json: { resource_id: container.wireId } },
      { name: "remove", method: "DELETE", path: `/v4/users/${owner.id}/markers/${container.wireId}.json`, json: undefined },
    ];
    for (const r of routes) {
      const anonymous = await api(r.path, { method: r.method, json: r.json });
      expect(anonymous.status, r.name).toBe(401);
      expect((await errorBody(anonymous)).vcode).toBe(4500);
      const other = await api(r.path, { method: r.method, token: bob.token, json: r.json });
      expect(other.status, r.name).toBe(403);
      expect((await errorBody(other)).vcode).toBe(5403);
    }
    for (const who of [owner, staff]) {
      for (const r of routes) {
        const res = await api(r.path, { method: r.method, token: who.token, json: r.json });
        expect(res.status, r.name).toBeLessThan(300);
      }
    }
  });

  it("keeps each user's markers apart: bob's is a 404 through alice's path", async () => {
    const { video } = await followables("marker apart");
    await marks(bob).add({ resource_id: video.wireId });
    expect((await marks(alice).remove(video.wireId)).status).toBe(404);
    const bobs = (await (await marks(bob).list({ only_ids: "true" })).json()) as Json;
    expect(bobs.response).toContain(video.wireId);
  });
});
