import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { findJob } from "../../src/db/queries/jobs";
import { notificationCounts, notifications } from "../../src/db/schema";
import { MAX_NOTIFICATION_LENGTH } from "../../src/services/notifications";
import { api, db, errorBody, rowsRead, signedInUser } from "../helpers";
import { createContainer } from "../helpers/catalogue";

type SignedIn = Awaited<ReturnType<typeof signedInUser>>;
type Notification = {
  id: string;
  content: string;
  unread: boolean;
  container: { id: string; type: string; titles: Record<string, string>; url: { api: string } } | null;
  sender: { id: string; username: string } | null;
  created_at: string;
};
type Envelope = { more: boolean; response: Notification[] | string[]; count?: number; pagination?: unknown };

let manager: SignedIn, otherManager: SignedIn, plain: SignedIn, staff: SignedIn, alice: SignedIn, bob: SignedIn;
let channel: Awaited<ReturnType<typeof createContainer>>;
let otherChannel: Awaited<ReturnType<typeof createContainer>>;

/** Notifications put straight into an inbox (the fan-out job has its own tests); oldest first. */
async function deliverTo(
  userId: number,
  contents: string[],
  containerId: number | null = channel.id,
  senderId: number | null = manager.user.id,
) {
  const rows = await db()
    .insert(notifications)
    .values(contents.map((content) => ({ userId, containerId, senderId, content })))
    .returning();
  return rows.map((r) => `${r.id}n`);
}

beforeAll(async () => {
  [manager, otherManager, plain, staff, alice, bob] = await Promise.all([
    signedInUser(),
    signedInUser(),
    signedInUser(),
    signedInUser({ staff: true }),
    signedInUser(),
    signedInUser(),
  ]);
  channel = await createContainer({ title: "Notify Channel", managers: [manager.user.id] });
  otherChannel = await createContainer({ title: "Other Channel", managers: [otherManager.user.id] });
});

describe("POST /v4/users/<id>/notifications.json?container_id=", () => {
  it("queues a notification-fanout job for a manager of the container: 202 with the job", async () => {
    const res = await api(`/v4/users/${manager.id}/notifications.json?container_id=${channel.wireId}`, {
      method: "POST",
      json: { content: "  Episode 5 is up!  " },
      token: manager.token,
    });
    expect(res.status).toBe(202);
    const { job } = (await res.json()) as { job: { id: string; type: string; status: string; url: { api: string } } };
    expect(job).toMatchObject({ type: "notification-fanout", status: "queued" });
    expect(job.url.api).toBe(`https://api.test/v4/jobs/${job.id}.json`);
    const row = await findJob(db(), Number.parseInt(job.id, 10));
    expect(row?.params).toEqual({ containerId: channel.id, senderId: manager.user.id, content: "Episode 5 is up!" });
    expect(row?.createdBy).toBe(manager.user.id);
  });

  it("serves the alias /v4/notifications.json?container_id= as the token's user", async () => {
    const res = await api(`/v4/notifications.json?container_id=${channel.wireId}`, {
      method: "POST",
      json: { content: "alias" },
      token: manager.token,
    });
    expect(res.status).toBe(202);
    const { job } = (await res.json()) as { job: { id: string } };
    expect((await findJob(db(), Number.parseInt(job.id, 10)))?.params).toMatchObject({ senderId: manager.user.id, content: "alias" });
    const anonymous = await api(`/v4/notifications.json?container_id=${channel.wireId}`, { method: "POST", json: { content: "x" } });
    expect(anonymous.status).toBe(401);
    const notManager = await api(`/v4/notifications.json?container_id=${channel.wireId}`, {
      method: "POST",
      json: { content: "x" },
      token: plain.token,
    });
    expect(notManager.status).toBe(403);
  });

  it("refuses everyone but a manager of that very container, sending as themself", async () => {
    const path = (u: SignedIn) => `/v4/users/${u.id}/notifications.json?container_id=${channel.wireId}`;
    const anonymous = await api(path(manager), { method: "POST", json: { content: "x" } });
    expect(anonymous.status).toBe(401);
    expect((await errorBody(anonymous)).vcode).toBe(4500);
    for (const [who, res] of [
      [
        "manager of another container",
        await api(path(otherManager), { method: "POST", json: { content: "x" }, token: otherManager.token }),
      ],
      ["plain user", await api(path(plain), { method: "POST", json: { content: "x" }, token: plain.token })],
      ["staff, not a manager", await api(path(staff), { method: "POST", json: { content: "x" }, token: staff.token })],
      ["path user is not the token's", await api(path(manager), { method: "POST", json: { content: "x" }, token: plain.token })],
      ["staff on a manager's path", await api(path(manager), { method: "POST", json: { content: "x" }, token: staff.token })],
    ] as const) {
      expect(res.status, who).toBe(403);
      expect((await errorBody(res)).vcode, who).toBe(5403);
    }
  });

  it("400s a missing or malformed container_id and bad content, naming the field; 404s a missing container", async () => {
    const base = `/v4/users/${manager.id}/notifications.json`;
    const missing = await api(base, { method: "POST", json: { content: "x" }, token: manager.token });
    expect(missing.status).toBe(400);
    expect((await errorBody(missing)).details?.map((d) => d.field)).toEqual(["container_id"]);
    const malformed = await api(`${base}?container_id=abc`, { method: "POST", json: { content: "x" }, token: manager.token });
    expect((await errorBody(malformed)).details?.map((d) => d.field)).toEqual(["container_id"]);

    const q = `${base}?container_id=${channel.wireId}`;
    for (const json of [
      {},
      { content: "" },
      { content: "   " },
      { content: { text: "x" } },
      { content: "x".repeat(MAX_NOTIFICATION_LENGTH + 1) },
    ]) {
      const res = await api(q, { method: "POST", json, token: manager.token });
      expect(res.status, JSON.stringify(json).slice(0, 40)).toBe(400);
      expect((await errorBody(res)).details?.map((d) => d.field)).toEqual(["content"]);
    }
    // An unknown field is ignored and named in x-ignored-fields; a number is read as its text.
    const extra = await api(q, { method: "POST", json: { content: 5, to: "1u" }, token: manager.token });
    expect(extra.status).toBe(202);
    expect(extra.headers.get("x-ignored-fields")).toBe("to");
    const { job } = (await extra.json()) as { job: { id: string } };
    expect((await findJob(db(), Number.parseInt(job.id, 10)))?.params).toEqual({
      containerId: channel.id,
      senderId: manager.user.id,
      content: "5",
    });
    expect((await api(q, { method: "POST", json: { content: "x".repeat(MAX_NOTIFICATION_LENGTH) }, token: manager.token })).status).toBe(
      202,
    );

    const gone = await api(`${base}?container_id=999999999c`, { method: "POST", json: { content: "x" }, token: manager.token });
    expect(gone.status).toBe(404);
  });
});

describe("inbox", () => {
  let ids: string[];

  beforeAll(async () => {
    ids = await deliverTo(alice.user.id, ["first", "second", "third", "fourth"]);
    await deliverTo(alice.user.id, ["orphan"], null, null);
    await deliverTo(bob.user.id, ["bob's own"]);
    // Two read ones.
    await db().update(notifications).set({ unread: false }).where(eq(notifications.content, "first"));
    await db().update(notifications).set({ unread: false }).where(eq(notifications.content, "third"));
  });

  it("lists newest first, with the container and sender", async () => {
    const res = await api(`/v4/users/${alice.id}/notifications.json`, { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const body = (await res.json()) as Envelope;
    const list = body.response as Notification[];
    expect(body.more).toBe(false);
    expect(list.map((n) => n.content)).toEqual(["orphan", "fourth", "third", "second", "first"]);
    expect(list[1]).toEqual({
      id: ids[3],
      content: "fourth",
      unread: true,
      container: {
        id: channel.wireId,
        type: "series",
        titles: { en: "Notify Channel" },
        url: { api: `https://api.test/v4/series/${channel.wireId}.json` },
      },
      sender: { id: manager.id, username: manager.user.username, url: { api: `https://api.test/v4/users/${manager.id}.json` } },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    expect(list[0]).toMatchObject({ content: "orphan", container: null, sender: null });
  });

  it("pages, counts and answers ids", async () => {
    const page2 = (await (
      await api(`/v4/users/${alice.id}/notifications.json?per_page=2&page=2&with_paging=true`, { token: alice.token })
    ).json()) as Envelope;
    expect((page2.response as Notification[]).map((n) => n.content)).toEqual(["third", "second"]);
    expect(page2).toMatchObject({ more: true, count: 5 });
    const onlyIds = (await (
      await api(`/v4/users/${alice.id}/notifications.json?only_ids=true&unread=true`, { token: alice.token })
    ).json()) as Envelope;
    expect(onlyIds.response).toEqual([expect.stringMatching(/^\d+n$/), ids[3], ids[1]]);
  });

  it("unread=true keeps the unread ones; only_count answers {count}", async () => {
    const unread = (await (await api(`/v4/users/${alice.id}/notifications.json?unread=true`, { token: alice.token })).json()) as Envelope;
    expect((unread.response as Notification[]).map((n) => n.content)).toEqual(["orphan", "fourth", "second"]);
    expect(
      await (await api(`/v4/users/${alice.id}/notifications.json?unread=true&only_count=true`, { token: alice.token })).json(),
    ).toEqual({
      count: 3,
    });
    expect(await (await api(`/v4/users/${alice.id}/notifications.json?only_count=true`, { token: alice.token })).json()).toEqual({
      count: 5,
    });
    expect(await (await api(`/v4/notifications.json?unread=true&only_count=true`, { token: alice.token })).json()).toEqual({ count: 3 });
    const bad = await api(`/v4/users/${alice.id}/notifications.json?unread=maybe`, { token: alice.token });
    expect(bad.status).toBe(400);
    expect((await errorBody(bad)).details?.map((d) => d.field)).toEqual(["unread"]);
  });

  it("answers the owner and staff only", async () => {
    const path = `/v4/users/${alice.id}/notifications.json`;
    expect((await api(path)).status).toBe(401);
    expect((await api(path, { token: bob.token })).status).toBe(403);
    expect((await api(`${path}?only_count=true`, { token: bob.token })).status).toBe(403);
    expect((await api(path, { token: staff.token })).status).toBe(200);
    expect((await api("/v4/notifications.json")).status).toBe(401);
    const alias = (await (await api("/v4/notifications.json", { token: bob.token })).json()) as Envelope;
    expect((alias.response as Notification[]).map((n) => n.content)).toEqual(["bob's own"]);
  });
});

describe("one notification: read, mark, delete", () => {
  it("reads one; another user's id or a malformed one is 404", async () => {
    const [id] = await deliverTo(alice.user.id, ["read me"]);
    const [bobs] = await deliverTo(bob.user.id, ["bob's"]);
    const one = await api(`/v4/users/${alice.id}/notifications/${id}.json`, { token: alice.token });
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({ id, content: "read me", unread: true, container: { id: channel.wireId } });
    // Reading does not mark it read.
    expect(await (await api(`/v4/users/${alice.id}/notifications/${id}.json`, { token: alice.token })).json()).toMatchObject({
      unread: true,
    });
    expect((await api(`/v4/users/${alice.id}/notifications/${bobs}.json`, { token: alice.token })).status).toBe(404);
    expect((await api(`/v4/users/${alice.id}/notifications/${bobs}.json`, { token: staff.token })).status).toBe(404);
    expect((await api(`/v4/users/${alice.id}/notifications/12x.json`, { token: alice.token })).status).toBe(404);
    expect((await api(`/v4/users/${alice.id}/notifications/${id}.json`)).status).toBe(401);
    expect((await api(`/v4/users/${alice.id}/notifications/${id}.json`, { token: bob.token })).status).toBe(403);
    expect((await api(`/v4/users/${alice.id}/notifications/${id}.json`, { token: staff.token })).status).toBe(200);
  });

  it("PUT ?unread=false marks it read and ?unread=true unread again, idempotently; counts follow", async () => {
    const [id] = await deliverTo(bob.user.id, ["mark me"]);
    const path = `/v4/users/${bob.id}/notifications/${id}.json`;
    const unreadCount = async () =>
      (
        (await (await api(`/v4/users/${bob.id}/notifications.json?unread=true&only_count=true`, { token: bob.token })).json()) as {
          count: number;
        }
      ).count;
    const before = await unreadCount();
    for (const [flag, unread, count] of [
      ["false", false, before - 1],
      ["false", false, before - 1],
      ["true", true, before],
      ["true", true, before],
      ["0", false, before - 1],
    ] as const) {
      const res = await api(`${path}?unread=${flag}`, { method: "PUT", token: bob.token });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id, unread });
      expect(await unreadCount()).toBe(count);
    }
  });

  it("PUT refuses a missing or bad flag (400), other users' ids (404), no token (401) and other users (403)", async () => {
    const [id] = await deliverTo(bob.user.id, ["guarded"]);
    const [alices] = await deliverTo(alice.user.id, ["alice's"]);
    const path = `/v4/users/${bob.id}/notifications/${id}.json`;
    for (const q of ["", "?unread=maybe"]) {
      const res = await api(`${path}${q}`, { method: "PUT", token: bob.token });
      expect(res.status).toBe(400);
      expect((await errorBody(res)).details?.map((d) => d.field)).toEqual(["unread"]);
    }
    expect((await api(`/v4/users/${bob.id}/notifications/${alices}.json?unread=false`, { method: "PUT", token: bob.token })).status).toBe(
      404,
    );
    expect((await api(`${path}?unread=false`, { method: "PUT" })).status).toBe(401);
    expect((await api(`${path}?unread=false`, { method: "PUT", token: alice.token })).status).toBe(403);
    expect(
      (
        await db()
          .select()
          .from(notifications)
          .where(eq(notifications.id, Number.parseInt(id, 10)))
          .get()
      )?.unread,
    ).toBe(true);
    // Staff act on a user's path, as on every user-scoped route.
    const asStaff = await api(`${path}?unread=false`, { method: "PUT", token: staff.token });
    expect(asStaff.status).toBe(200);
    expect(await asStaff.json()).toMatchObject({ id, unread: false });
    expect((await api(`/v4/users/${bob.id}/notifications/${alices}.json?unread=false`, { method: "PUT", token: staff.token })).status).toBe(
      404,
    );
  });

  it("DELETE answers 204, then the notification is gone (404); counts follow", async () => {
    const [id] = await deliverTo(bob.user.id, ["delete me"]);
    const path = `/v4/users/${bob.id}/notifications/${id}.json`;
    const counts = () => db().select().from(notificationCounts).where(eq(notificationCounts.userId, bob.user.id)).get();
    const before = await counts();
    expect((await api(path, { method: "DELETE" })).status).toBe(401);
    expect((await api(path, { method: "DELETE", token: alice.token })).status).toBe(403);
    expect((await api(`/v4/users/${alice.id}/notifications/${id}.json`, { method: "DELETE", token: alice.token })).status).toBe(404);
    const res = await api(path, { method: "DELETE", token: bob.token });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect((await api(path, { token: bob.token })).status).toBe(404);
    expect((await api(path, { method: "DELETE", token: bob.token })).status).toBe(404);
    expect(await counts()).toEqual({ userId: bob.user.id, total: before!.total - 1, unread: before!.unread - 1 });
    const [other] = await deliverTo(bob.user.id, ["moderated"]);
    expect((await api(`/v4/users/${bob.id}/notifications/${other}.json`, { method: "DELETE", token: staff.token })).status).toBe(204);
  });
});

describe("authorization matrix (docs/spec/design.md#user-scoped-routes)", () => {
  it("walks every notification route: no token 401, another user's 403, the owner 2xx, someone else's id 404", async () => {
    const [mine, toDelete] = await deliverTo(manager.user.id, ["matrix", "matrix delete"]);
    const [bobs] = await deliverTo(bob.user.id, ["not manager's"]);
    const u = `/v4/users/${manager.id}`;
    const routes: Array<{ name: string; method: string; path: string; json?: unknown; ok: number }> = [
      { name: "send", method: "POST", path: `${u}/notifications.json?container_id=${channel.wireId}`, json: { content: "m" }, ok: 202 },
      { name: "inbox", method: "GET", path: `${u}/notifications.json`, ok: 200 },
      { name: "unread", method: "GET", path: `${u}/notifications.json?unread=true`, ok: 200 },
      { name: "count", method: "GET", path: `${u}/notifications.json?unread=true&only_count=true`, ok: 200 },
      { name: "read one", method: "GET", path: `${u}/notifications/${mine}.json`, ok: 200 },
      { name: "mark", method: "PUT", path: `${u}/notifications/${mine}.json?unread=false`, ok: 200 },
      { name: "delete", method: "DELETE", path: `${u}/notifications/${toDelete}.json`, ok: 204 },
    ];
    for (const r of routes) {
      const anonymous = await api(r.path, { method: r.method, json: r.json });
      expect(anonymous.status, r.name).toBe(401);
      expect((await errorBody(anonymous)).vcode, r.name).toBe(4500);
      const other = await api(r.path, { method: r.method, json: r.json, token: plain.token });
      expect(other.status, r.name).toBe(403);
      expect((await errorBody(other)).vcode, r.name).toBe(5403);
      expect((await api(r.path, { method: r.method, json: r.json, token: manager.token })).status, r.name).toBe(r.ok);
    }
    // Bob's notification through the manager's path: not found, for the manager and for staff.
    for (const method of ["GET", "PUT", "DELETE"]) {
      const path = `${u}/notifications/${bobs}.json${method === "PUT" ? "?unread=false" : ""}`;
      for (const token of [manager.token, staff.token]) {
        expect((await api(path, { method, token })).status, method).toBe(404);
      }
    }
    expect(
      (
        await db()
          .select()
          .from(notifications)
          .where(eq(notifications.id, Number.parseInt(bobs, 10)))
          .get()
      )?.unread,
    ).toBe(true);
  });
});

describe("scale: a user with 10,000 notifications", () => {
  it("keeps the inbox page, the unread subset and the counts within budget", async () => {
    const heavy = await signedInUser();
    const senders = [manager.user.id, otherManager.user.id];
    // 10,000 notifications from two channels, every third one read; the counters follow by trigger.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
       INSERT INTO notifications (user_id, container_id, sender_id, content, unread)
       SELECT ?1, CASE WHEN i % 2 = 0 THEN ?2 ELSE ?3 END, CASE WHEN i % 2 = 0 THEN ?4 ELSE ?5 END, 'bulk ' || i, i % 3 <> 0 FROM n`,
    )
      .bind(heavy.user.id, channel.id, otherChannel.id, senders[0], senders[1])
      .run();
    const path = `/v4/users/${heavy.id}/notifications.json`;
    const figures: Record<string, number> = {};
    const measure = async (name: string, query: string) => {
      const res = await api(`${path}${query}`, { token: heavy.token });
      expect(res.status, name).toBe(200);
      figures[name] = rowsRead(res);
      return res.json();
    };

    const page = (await measure("page 1 (25)", "")) as Envelope;
    expect((page.response as Notification[]).map((n) => n.content).slice(0, 2)).toEqual(["bulk 10000", "bulk 9999"]);
    expect(page.more).toBe(true);
    const unread = (await measure("unread page 1 (25)", "?unread=true")) as Envelope;
    expect((unread.response as Notification[]).every((n) => n.unread)).toBe(true);
    await measure("page 1 (100)", "?per_page=100");
    expect(await measure("unread count", "?unread=true&only_count=true")).toEqual({ count: 6667 });
    expect(await measure("count", "?only_count=true")).toEqual({ count: 10000 });
    expect((await measure("page 1 with_paging", "?with_paging=true")) as Envelope).toMatchObject({ count: 10000 });
    await measure("page 40 (25)", "?page=40");
    console.log("notification rows read, user with 10,000:", JSON.stringify(figures));

    for (const name of ["page 1 (25)", "unread page 1 (25)", "page 1 with_paging"]) expect(figures[name], name).toBeLessThanOrEqual(100);
    expect(figures["unread count"]).toBeLessThanOrEqual(5);
    expect(figures["count"]).toBeLessThanOrEqual(5);
    expect(
      (
        await db()
          .select()
          .from(notificationCounts)
          .where(and(eq(notificationCounts.userId, heavy.user.id)))
          .get()
      )?.unread,
    ).toBe(6667);
  });
});
