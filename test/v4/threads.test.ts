import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { api, type ApiInit, errorBody, rowsRead, signedInUser } from "../helpers";

type Json = any;
type Signed = Awaited<ReturnType<typeof signedInUser>>;

let staff: Signed;
beforeAll(async () => {
  staff = await signedInUser({ staff: true });
});

/** Calls on `who`'s own paths with their token (or `opts.token`). */
const as = (who: Signed, opts: ApiInit = {}) => {
  const base = `/v4/users/${who.id}`;
  const o = (extra: ApiInit) => ({ token: who.token, ...opts, ...extra });
  return {
    list: (query: Record<string, string> = {}) => api(`${base}/threads.json`, o({ query })),
    start: (json: unknown) => api(`${base}/threads.json`, { method: "POST", ...o({ json }) }),
    read: (t: string) => api(`${base}/threads/${t}.json`, o({})),
    reply: (t: string, json: unknown) => api(`${base}/threads/${t}/messages.json`, { method: "POST", ...o({ json }) }),
    mark: (t: string, query: Record<string, string>) => api(`${base}/threads/${t}.json`, { method: "PUT", ...o({ query }) }),
    remove: (t: string) => api(`${base}/threads/${t}.json`, { method: "DELETE", ...o({}) }),
    alerts: (query: Record<string, string> = {}) => api(`${base}/alerts.json`, o({ query })),
  };
};

async function start(from: Signed, to: Signed, content = "hello") {
  const res = await as(from).start({ to: to.id, content });
  expect(res.status).toBe(201);
  return (await res.json()) as Json;
}
const ids = async (res: Response) => ((await res.json()) as Json).response.map((t: Json) => t.id);
const count = async (res: Response) => ((await res.json()) as Json).count;

describe("threads: happy path", () => {
  it("starts a thread: read and in Sent for the sender, unread and in the Inbox for the recipient", async () => {
    const [alice, bob] = [await signedInUser(), await signedInUser()];
    const thread = await start(alice, bob, "  Hi Bob!  ");
    expect(thread.id).toMatch(/^\d+t$/);
    expect(thread.participants).toEqual([
      { id: alice.id, username: alice.user.username },
      { id: bob.id, username: bob.user.username },
    ]);
    expect(thread).toMatchObject({ unread: false, more_messages: false });
    expect(thread.last_message).toMatchObject({ content: "Hi Bob!", sender: { id: alice.id, username: alice.user.username } });
    expect(thread.last_message.id).toMatch(/^\d+m$/);
    expect(thread.messages).toEqual([thread.last_message]);
    expect(thread.created_at).toMatch(/Z$/);

    expect(await ids(await as(bob).list())).toEqual([thread.id]);
    expect(await ids(await as(bob).list({ type: "inbox", unread: "true" }))).toEqual([thread.id]);
    expect(await ids(await as(bob).list({ type: "sent" }))).toEqual([]);
    expect(await ids(await as(alice).list())).toEqual([]);
    const sent = (await (await as(alice).list({ type: "sent" })).json()) as Json;
    expect(sent.response.map((t: Json) => [t.id, t.unread])).toEqual([[thread.id, false]]);
    const bobsView = (await (await as(bob).list()).json()) as Json;
    expect(bobsView.response[0]).toMatchObject({ unread: true, last_message: { content: "Hi Bob!" } });
    expect(bobsView.response[0].messages).toBeUndefined();
  });

  it("follows the read-flag state table: unread=false reads, unread=true unreads; GET changes nothing", async () => {
    const [alice, bob] = [await signedInUser(), await signedInUser()];
    const t = await start(alice, bob);
    expect(((await (await as(bob).read(t.id)).json()) as Json).unread).toBe(true);
    const read = await as(bob).mark(t.id, { unread: "false" });
    expect(read.status).toBe(200);
    expect(((await read.json()) as Json).unread).toBe(false);
    expect(await ids(await as(bob).list({ unread: "true" }))).toEqual([]);
    expect(await ids(await as(bob).list())).toEqual([t.id]);
    expect((await as(bob).mark(t.id, { unread: "false" })).status).toBe(200); // read stays read
    const unread = await as(bob).mark(t.id, { unread: "true" });
    expect(((await unread.json()) as Json).unread).toBe(true);
    expect(await ids(await as(bob).list({ unread: "true" }))).toEqual([t.id]);
    expect(((await (await as(bob).mark(t.id, { unread: "0" })).json()) as Json).unread).toBe(false);
  });

  it("a reply makes the recipient's copy unread and in their Inbox, the sender's read and in Sent", async () => {
    const [alice, bob] = [await signedInUser(), await signedInUser()];
    const t = await start(alice, bob, "first");
    await as(bob).mark(t.id, { unread: "false" });
    const res = await as(bob).reply(t.id, { content: "answer" });
    expect(res.status).toBe(201);
    const message = (await res.json()) as Json;
    expect(message).toMatchObject({ content: "answer", sender: { id: bob.id, username: bob.user.username } });
    expect(message.id).toMatch(/^\d+m$/);

    const alicesInbox = (await (await as(alice).list({ unread: "true" })).json()) as Json;
    expect(alicesInbox.response.map((x: Json) => x.id)).toEqual([t.id]);
    expect(alicesInbox.response[0].last_message).toEqual(message);
    expect(await ids(await as(alice).list({ type: "sent" }))).toEqual([t.id]);
    expect(await ids(await as(bob).list({ type: "sent" }))).toEqual([t.id]);
    const bobs = (await (await as(bob).read(t.id)).json()) as Json;
    expect(bobs.unread).toBe(false);
    expect(bobs.messages.map((m: Json) => m.content)).toEqual(["first", "answer"]);

    // And back: alice answers, bob's copy is unread again.
    await as(alice).reply(t.id, { content: "thanks" });
    expect(((await (await as(bob).read(t.id)).json()) as Json).unread).toBe(true);
    expect(((await (await as(alice).read(t.id)).json()) as Json).unread).toBe(false);
  });

  it("orders folders by the last message, newest first", async () => {
    const [alice, bob, carol] = [await signedInUser(), await signedInUser(), await signedInUser()];
    const older = await start(bob, alice, "older");
    const newer = await start(carol, alice, "newer");
    expect(await ids(await as(alice).list())).toEqual([newer.id, older.id]);
    await as(bob).reply(older.id, { content: "bump" });
    expect(await ids(await as(alice).list())).toEqual([older.id, newer.id]);
    const page = (await (await as(alice).list({ per_page: "1", with_paging: "true" })).json()) as Json;
    expect(page).toMatchObject({ more: true, count: 2 });
    expect(page.response.map((t: Json) => t.id)).toEqual([older.id]);
    const idsOnly = (await (await as(alice).list({ only_ids: "true" })).json()) as Json;
    expect(idsOnly.response).toEqual([older.id, newer.id]);
  });

  it("only_count counts each folder", async () => {
    const [alice, bob, carol] = [await signedInUser(), await signedInUser(), await signedInUser()];
    const a = await start(bob, alice);
    await start(carol, alice);
    await start(alice, carol);
    await as(alice).mark(a.id, { unread: "false" });
    expect(await count(await as(alice).list({ only_count: "true" }))).toBe(2);
    expect(await count(await as(alice).list({ only_count: "true", unread: "true" }))).toBe(1);
    expect(await count(await as(alice).list({ only_count: "true", type: "sent" }))).toBe(1);
    expect(await count(await as(alice).list({ with_paging: "true" }))).toBe(2);
  });

  it("alerts are the unread messages: counted without notifications, listed like the unread inbox", async () => {
    const [alice, bob, carol, dave] = [await signedInUser(), await signedInUser(), await signedInUser(), await signedInUser()];
    const read = await start(bob, alice);
    const first = await start(carol, alice);
    const second = await start(dave, alice);
    await start(alice, carol); // in Sent only: never an alert
    await as(alice).mark(read.id, { unread: "false" });
    // Unread notifications have their own count; they are not messages.
    await env.DB.prepare("INSERT INTO notifications (user_id, content, unread) VALUES (?, 'n1', 1), (?, 'n2', 1), (?, 'n3', 0)")
      .bind(alice.user.id, alice.user.id, alice.user.id)
      .run();

    const counted = await as(alice).alerts({ unread: "true", only_count: "true" });
    expect(counted.status).toBe(200);
    expect(await counted.json()).toEqual({ count: 2 });
    expect(rowsRead(counted)).toBeLessThanOrEqual(5); // session, user, one thread_counts row
    expect(await (await as(alice).alerts({ only_count: "1" })).json()).toEqual({ count: 2 });
    const notes = await api(`/v4/users/${alice.id}/notifications.json`, {
      token: alice.token,
      query: { unread: "true", only_count: "true" },
    });
    expect(await notes.json()).toEqual({ count: 2 });

    // Without only_count: the same threads as threads.json?type=inbox&unread=true, paged the same way.
    const listed = (await (await as(alice).alerts({ unread: "true" })).json()) as Json;
    const inbox = (await (await as(alice).list({ type: "inbox", unread: "true" })).json()) as Json;
    expect(listed).toEqual(inbox);
    expect(listed.response.map((t: Json) => t.id)).toEqual([second.id, first.id]);
    const paged = (await (await as(alice).alerts({ per_page: "1", with_paging: "true" })).json()) as Json;
    expect(paged).toMatchObject({ more: true, count: 2 });
    expect(paged.response.map((t: Json) => t.id)).toEqual([second.id]);
    expect(((await (await as(alice).alerts({ only_ids: "true" })).json()) as Json).response).toEqual([second.id, first.id]);

    // Reading one clears it from both answers.
    await as(alice).mark(second.id, { unread: "false" });
    expect(await (await as(alice).alerts({ only_count: "true" })).json()).toEqual({ count: 1 });
    expect(await ids(await as(alice).alerts())).toEqual([first.id]);
    expect(await (await as(bob).alerts({ only_count: "true" })).json()).toEqual({ count: 0 });
    expect(await ids(await as(bob).alerts())).toEqual([]);
  });

  it("deletes for the owner only; a reply brings it back; deleted by both, it is purged", async () => {
    const [alice, bob] = [await signedInUser(), await signedInUser()];
    const t = await start(alice, bob, "one");
    await as(bob).reply(t.id, { content: "two" });
    expect((await as(alice).remove(t.id)).status).toBe(204);
    expect((await as(alice).read(t.id)).status).toBe(404);
    expect((await as(alice).remove(t.id)).status).toBe(404);
    expect((await as(alice).mark(t.id, { unread: "true" })).status).toBe(404);
    expect((await as(alice).reply(t.id, { content: "x" })).status).toBe(404);
    expect(await ids(await as(alice).list())).toEqual([]);
    expect(await ids(await as(alice).list({ type: "sent" }))).toEqual([]);
    expect(await count(await as(alice).list({ only_count: "true" }))).toBe(0);
    const bobs = (await (await as(bob).read(t.id)).json()) as Json;
    expect(bobs.messages.map((m: Json) => m.content)).toEqual(["one", "two"]);

    await as(bob).reply(t.id, { content: "three" });
    const back = (await (await as(alice).list({ unread: "true" })).json()) as Json;
    expect(back.response.map((x: Json) => x.id)).toEqual([t.id]);
    expect(((await (await as(alice).read(t.id)).json()) as Json).messages).toHaveLength(3);

    expect((await as(alice).remove(t.id)).status).toBe(204);
    expect((await as(bob).remove(t.id)).status).toBe(204);
    const left = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM threads WHERE id = ?1) + (SELECT count(*) FROM messages WHERE thread_id = ?1) + (SELECT count(*) FROM thread_participants WHERE thread_id = ?1) AS n",
    )
      .bind(Number.parseInt(t.id, 10))
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
    expect(await count(await as(bob).list({ only_count: "true", type: "sent" }))).toBe(0);
  });

  it(`answers the last 500 messages oldest first, and says there are more`, async () => {
    const [alice, bob] = [await signedInUser(), await signedInUser()];
    const t = await start(alice, bob, "m0");
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
       INSERT INTO messages (thread_id, sender_id, content) SELECT ?, ?, 'm' || i FROM n`,
    )
      .bind(Number.parseInt(t.id, 10), bob.user.id)
      .run();
    const body = (await (await as(alice).read(t.id)).json()) as Json;
    expect(body.more_messages).toBe(true);
    expect(body.messages).toHaveLength(500);
    expect(body.messages[0].content).toBe("m1");
    expect(body.messages[499]).toMatchObject({ content: "m500", sender: { id: bob.id } });
  });
});

describe("threads: bad input", () => {
  let alice: Signed;
  let bob: Signed;
  let thread: Json;
  beforeAll(async () => {
    [alice, bob] = [await signedInUser(), await signedInUser()];
    thread = await start(alice, bob);
  });

  const expectField = async (res: Response, status: number, field: string) => {
    expect(res.status).toBe(status);
    const err = await errorBody(res);
    expect(err.details?.map((d) => d.field)).toContain(field);
  };

  it("refuses sending to oneself (400), to a malformed id (400) and to a missing user (404), naming `to`", async () => {
    await expectField(await as(alice).start({ to: alice.id, content: "me" }), 400, "to");
    await expectField(await as(alice).start({ to: "bob", content: "x" }), 400, "to");
    await expectField(await as(alice).start({ content: "x" }), 400, "to");
    const missing = await as(alice).start({ to: "999999999u", content: "x" });
    await expectField(missing, 404, "to");
  });

  it("holds content to 1..5,000 characters and ignores unknown fields, naming them in x-ignored-fields", async () => {
    // A fresh sender: these starts would pass the 10-a-minute thread limit (docs/api.md, "Write limits") with alice's.
    const sender = await signedInUser();
    await expectField(await as(sender).start({ to: bob.id, content: "" }), 400, "content");
    await expectField(await as(sender).start({ to: bob.id, content: "   " }), 400, "content");
    await expectField(await as(sender).start({ to: bob.id, content: "x".repeat(5001) }), 400, "content");
    await expectField(await as(sender).start({ to: bob.id }), 400, "content");
    await expectField(await as(sender).start({ to: bob.id, content: { text: "x" } }), 400, "content");
    await expectField(await as(sender).start({ to: bob.id, subject: "s" }), 400, "content");
    const withSubject = await as(sender).start({ to: bob.id, content: "x", subject: "s" });
    expect(withSubject.status).toBe(201);
    expect(withSubject.headers.get("x-ignored-fields")).toBe("subject");
    expect((await as(sender).start({ to: bob.id, content: "x".repeat(5000) })).status).toBe(201);
    await expectField(await as(alice).reply(thread.id, { content: "" }), 400, "content");
    await expectField(await as(alice).reply(thread.id, { content: "x".repeat(5001) }), 400, "content");
    await expectField(await as(alice).reply(thread.id, { to: bob.id }), 400, "content");
    const replyTo = await as(alice).reply(thread.id, { content: "x", to: bob.id });
    expect(replyTo.status).toBe(201);
    expect(replyTo.headers.get("x-ignored-fields")).toBe("to");
  });

  it("needs unread=true|false on PUT", async () => {
    await expectField(await as(bob).mark(thread.id, {}), 400, "unread");
    await expectField(await as(bob).mark(thread.id, { unread: "maybe" }), 400, "unread");
  });

  it("refuses unknown folders, unread with type=sent, and alerts of read items", async () => {
    await expectField(await as(alice).list({ type: "trash" }), 400, "type");
    await expectField(await as(alice).list({ type: "sent", unread: "true" }), 400, "unread");
    await expectField(await as(alice).alerts({ unread: "false" }), 400, "unread");
    await expectField(await as(alice).alerts({ unread: "yes" }), 400, "unread");
    await expectField(await as(alice).alerts({ only_count: "maybe" }), 400, "only_count");
  });

  it("404s malformed and unknown thread ids on every thread route", async () => {
    for (const t of ["abc", "3", "3u", "999999999t"]) {
      expect((await as(alice).read(t)).status, t).toBe(404);
      expect((await as(alice).mark(t, { unread: "true" })).status, t).toBe(404);
      expect((await as(alice).reply(t, { content: "x" })).status, t).toBe(404);
      expect((await as(alice).remove(t)).status, t).toBe(404);
    }
  });
});

describe("threads: security", () => {
  /** Every thread route on `owner`'s path, DELETE last (it ends the thread for the owner). */
  const routes = (owner: Signed, t: string, to: Signed) => [
    { name: "list", method: "GET", path: `/v4/users/${owner.id}/threads.json`, json: undefined as unknown },
    { name: "count", method: "GET", path: `/v4/users/${owner.id}/threads.json?only_count=true`, json: undefined },
    { name: "start", method: "POST", path: `/v4/users/${owner.id}/threads.json`, json: { to: to.id, content: "hi" } },
    { name: "read", method: "GET", path: `/v4/users/${owner.id}/threads/${t}.json`, json: undefined },
    { name: "reply", method: "POST", path: `/v4/users/${owner.id}/threads/${t}/messages.json`, json: { content: "re" } },
    { name: "mark", method: "PUT", path: `/v4/users/${owner.id}/threads/${t}.json?unread=false`, json: undefined },
    { name: "alerts", method: "GET", path: `/v4/users/${owner.id}/alerts.json?unread=true&only_count=true`, json: undefined },
    { name: "delete", method: "DELETE", path: `/v4/users/${owner.id}/threads/${t}.json`, json: undefined },
  ];

  it("answers the owner and staff; 401 without a token, 403 with another user's", async () => {
    const [owner, peer, stranger] = [await signedInUser(), await signedInUser(), await signedInUser()];
    const t = await start(peer, owner);
    for (const r of routes(owner, t.id, peer)) {
      const anonymous = await api(r.path, { method: r.method, json: r.json });
      expect(anonymous.status, r.name).toBe(401);
      expect((await errorBody(anonymous)).vcode).toBe(4500);
      for (const intruder of [stranger, peer]) {
        const other = await api(r.path, { method: r.method, token: intruder.token, json: r.json });
        expect(other.status, r.name).toBe(403);
        expect((await errorBody(other)).vcode).toBe(5403);
      }
    }
    for (const who of [owner, staff]) {
      const fresh = await start(peer, owner);
      for (const r of routes(owner, fresh.id, peer)) {
        const res = await api(r.path, { method: r.method, token: who.token, json: r.json });
        expect(res.status, `${r.name} as ${who === owner ? "owner" : "staff"}`).toBeLessThan(300);
      }
    }
  });

  it("404s a thread of others read through the owner's path, for the owner and for staff", async () => {
    const [alice, bob, carol] = [await signedInUser(), await signedInUser(), await signedInUser()];
    const bobs = await start(bob, carol, "private");
    for (const token of [alice.token, staff.token]) {
      for (const r of routes(alice, bobs.id, carol).filter((x) => ["read", "reply", "mark", "delete"].includes(x.name))) {
        const res = await api(r.path, { method: r.method, token, json: r.json });
        expect(res.status, r.name).toBe(404);
      }
    }
    // Untouched: carol's copy is still unread with its one message, bob's still there.
    const carols = (await (await as(carol).read(bobs.id)).json()) as Json;
    expect(carols).toMatchObject({ unread: true, last_message: { content: "private" } });
    expect(carols.messages).toHaveLength(1);
    expect((await as(bob).read(bobs.id)).status).toBe(200);
  });

  it("a thread the owner deleted is theirs no longer, even for staff on their path", async () => {
    const [alice, bob] = [await signedInUser(), await signedInUser()];
    const t = await start(alice, bob);
    await as(alice).remove(t.id);
    expect((await as(alice, { token: staff.token }).read(t.id)).status).toBe(404);
    expect((await as(bob, { token: staff.token }).read(t.id)).status).toBe(200);
  });
});
