// docs/spec/design.md, "User-scoped routes", for every user-scoped route of the community: no token 401, another user's token 403,
// the owner 2xx, and an object id that is not the owner's 404 even through the owner's own path.
import { notifications } from "../../src/db/schema";
import { api, db, signedInUser } from "../helpers";
import { followables } from "../helpers/community";
import { describe, expect, test, type Signed } from "../helpers/fixtures";
interface Route {
  name: string;
  method: string;
  path: (owner: Signed) => string;
  json?: unknown;
  query?: Record<string, string>;
  official?: boolean;
  ok: number;
}

// alice is the `user` fixture (the owner), carol the `otherUser`; bob is the third party of her threads.
let bob: Signed;
const ids: Record<string, string> = {};

async function startThread(from: Signed, to: Signed) {
  const res = await api(`/v4/users/${from.id}/threads.json`, { method: "POST", token: from.token, json: { to: to.id, content: "hello" } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function notify(user: Signed) {
  const [row] = await db().insert(notifications).values({ userId: user.user.id, content: "news" }).returning();
  return `${row.id}n`;
}

test.beforeAll(async ({ user: alice, otherUser: carol, officialApp }) => {
  bob = await signedInUser();
  const a = await followables("matrix-a");
  const b = await followables("matrix-b");
  Object.assign(ids, { follow: a.container.wireId, unfollow: b.container.wireId, mark: a.video.wireId, unmark: b.video.wireId });
  await api(`/v4/users/${alice.id}/subscriptions.json`, {
    method: "POST",
    token: alice.token,
    app: officialApp,
    json: { resource_id: ids.unfollow },
  });
  await api(`/v4/users/${alice.id}/markers.json`, { method: "POST", token: alice.token, json: { resource_id: ids.unmark } });
  ids.thread = await startThread(alice, bob);
  ids.threadToDelete = await startThread(bob, alice);
  ids.foreignThread = await startThread(bob, carol);
  ids.notification = await notify(alice);
  ids.notificationToDelete = await notify(alice);
  ids.foreignNotification = await notify(bob);
});

const base = (u: Signed) => `/v4/users/${u.id}`;
const ROUTES: Route[] = [
  { name: "list subscriptions", method: "GET", path: (u) => `${base(u)}/subscriptions.json`, official: true, ok: 200 },
  {
    name: "subscription ids",
    method: "GET",
    path: (u) => `${base(u)}/subscriptions.json`,
    query: { ids: "true" },
    official: true,
    ok: 200,
  },
  {
    name: "subscribe",
    method: "POST",
    path: (u) => `${base(u)}/subscriptions.json`,
    json: { resource_id: "FOLLOW" },
    official: true,
    ok: 201,
  },
  { name: "unsubscribe", method: "DELETE", path: (u) => `${base(u)}/subscriptions/${ids.unfollow}.json`, official: true, ok: 204 },
  { name: "list markers", method: "GET", path: (u) => `${base(u)}/markers.json`, ok: 200 },
  { name: "add marker", method: "POST", path: (u) => `${base(u)}/markers.json`, json: { resource_id: "MARK" }, ok: 201 },
  { name: "delete marker", method: "DELETE", path: (u) => `${base(u)}/markers/${ids.unmark}.json`, ok: 204 },
  { name: "inbox", method: "GET", path: (u) => `${base(u)}/threads.json`, query: { type: "inbox" }, ok: 200 },
  { name: "unread inbox", method: "GET", path: (u) => `${base(u)}/threads.json`, query: { type: "inbox", unread: "true" }, ok: 200 },
  { name: "sent", method: "GET", path: (u) => `${base(u)}/threads.json`, query: { type: "sent" }, ok: 200 },
  { name: "start thread", method: "POST", path: (u) => `${base(u)}/threads.json`, json: { to: "BOB", content: "hi" }, ok: 201 },
  { name: "read thread", method: "GET", path: (u) => `${base(u)}/threads/${ids.thread}.json`, ok: 200 },
  { name: "reply", method: "POST", path: (u) => `${base(u)}/threads/${ids.thread}/messages.json`, json: { content: "re" }, ok: 201 },
  { name: "mark thread unread", method: "PUT", path: (u) => `${base(u)}/threads/${ids.thread}.json`, query: { unread: "true" }, ok: 200 },
  { name: "delete thread", method: "DELETE", path: (u) => `${base(u)}/threads/${ids.threadToDelete}.json`, ok: 204 },
  { name: "alerts count", method: "GET", path: (u) => `${base(u)}/alerts.json`, query: { unread: "true", only_count: "true" }, ok: 200 },
  { name: "notifications", method: "GET", path: (u) => `${base(u)}/notifications.json`, ok: 200 },
  {
    name: "unread notification count",
    method: "GET",
    path: (u) => `${base(u)}/notifications.json`,
    query: { unread: "true", only_count: "true" },
    ok: 200,
  },
  { name: "read notification", method: "GET", path: (u) => `${base(u)}/notifications/${ids.notification}.json`, ok: 200 },
  {
    name: "mark notification read",
    method: "PUT",
    path: (u) => `${base(u)}/notifications/${ids.notification}.json`,
    query: { unread: "false" },
    ok: 200,
  },
  { name: "delete notification", method: "DELETE", path: (u) => `${base(u)}/notifications/${ids.notificationToDelete}.json`, ok: 204 },
];

const resolve = (json: unknown) =>
  json &&
  JSON.parse(
    JSON.stringify(json).replace('"FOLLOW"', `"${ids.follow}"`).replace('"MARK"', `"${ids.mark}"`).replace('"BOB"', `"${bob.id}"`),
  );

describe("authorization matrix of the user-scoped community routes", () => {
  for (const route of ROUTES) {
    test(`${route.method} ${route.name}: 401 without a token, 403 for another user, ${route.ok} for the owner`, async ({
      anonymous: nobody,
      user: alice,
      otherUser: carol,
      officialApp,
    }) => {
      const opts = { json: resolve(route.json), query: route.query, app: route.official ? officialApp : undefined };
      const anonymous = await api(route.path(alice), { method: route.method, ...opts, token: nobody.token });
      expect(anonymous.status, "no token").toBe(401);
      expect(((await anonymous.json()) as { vcode: number }).vcode).toBe(4500);
      const other = await api(route.path(alice), { method: route.method, ...opts, token: carol.token });
      expect(other.status, "another user's token").toBe(403);
      expect(((await other.json()) as { vcode: number }).vcode).toBe(5403);
      const owner = await api(route.path(alice), { method: route.method, ...opts, token: alice.token });
      expect(owner.status, `owner: ${await owner.clone().text()}`).toBe(route.ok);
    });
  }

  const FOREIGN: Array<[string, string, (u: Signed) => string, Record<string, string>?, unknown?]> = [
    ["read bob's thread", "GET", (u) => `${base(u)}/threads/${ids.foreignThread}.json`],
    ["reply to bob's thread", "POST", (u) => `${base(u)}/threads/${ids.foreignThread}/messages.json`, undefined, { content: "x" }],
    ["mark bob's thread", "PUT", (u) => `${base(u)}/threads/${ids.foreignThread}.json`, { unread: "false" }],
    ["delete bob's thread", "DELETE", (u) => `${base(u)}/threads/${ids.foreignThread}.json`],
    ["read bob's notification", "GET", (u) => `${base(u)}/notifications/${ids.foreignNotification}.json`],
    ["mark bob's notification", "PUT", (u) => `${base(u)}/notifications/${ids.foreignNotification}.json`, { unread: "false" }],
    ["delete bob's notification", "DELETE", (u) => `${base(u)}/notifications/${ids.foreignNotification}.json`],
  ];
  for (const [name, method, path, query, json] of FOREIGN) {
    test(`${name} through alice's own path is 404`, async ({ user: alice }) => {
      const res = await api(path(alice), { method, token: alice.token, query, json });
      expect(res.status).toBe(404);
    });
  }

  test("bob still has his thread and notification afterwards", async () => {
    expect((await api(`${base(bob)}/threads/${ids.foreignThread}.json`, { token: bob.token })).status).toBe(200);
    expect((await api(`${base(bob)}/notifications/${ids.foreignNotification}.json`, { token: bob.token })).status).toBe(200);
  });
});
