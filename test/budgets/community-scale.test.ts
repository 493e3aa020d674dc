// Rows-read budgets (docs/spec/limits.md, "Rows-read budgets") for users with 10,000 threads, subscriptions and markers.
// A thread list page reads at most 100 rows; subscription and marker pages keep the same bound. Counts read
// trigger-kept counter rows; `ids=true` reads every subscription by necessity. The figures are printed at the end.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createApplication, rowsRead, signedInUser } from "../helpers";
import { bulkFollows, bulkThreads, videosInOwnContainers } from "../helpers/community";

type Json = any;
type Signed = Awaited<ReturnType<typeof signedInUser>>;

const PAGE_BUDGET = 100;
const N = 10_000;
const measured: Array<{ what: string; rows: number; budget: number | string }> = [];

async function measure(what: string, res: Response, budget: number | string = "-") {
  expect(res.status, what).toBe(200);
  const rows = rowsRead(res);
  measured.push({ what, rows, budget });
  return { rows, body: (await res.json()) as Json };
}

afterAll(() => {
  const lines = measured.map((m) => `| ${m.what} | ${m.rows} | ${m.budget} |`);
  console.log(["| read (user with 10,000 items) | rows read | budget |", "|---|---|---|", ...lines].join("\n"));
});

describe.each(["subscriptions", "markers"] as const)("%s of a user with 10,000", (table) => {
  let official: string;
  let heavy: Signed;
  let newest: string[];
  const list = (query: Record<string, string> = {}) =>
    api(`/v4/users/${heavy.id}/${table}.json`, { token: heavy.token, app: official, query });

  beforeAll(async () => {
    official = (await createApplication({ official: true })).wireId;
    heavy = await signedInUser();
    // The newest page is all videos of distinct containers: the costliest page to render. Added through the
    // API first (the bulk rows are older), since the subscription limit would refuse them afterwards.
    const videos = await videosInOwnContainers(26, `scale ${table}`);
    for (const v of videos) {
      const res = await api(`/v4/users/${heavy.id}/${table}.json`, {
        method: "POST",
        token: heavy.token,
        app: official,
        json: { resource_id: v.wireId },
      });
      expect(res.status).toBe(201);
    }
    newest = videos.map((v) => v.wireId).reverse();
    await bulkFollows(table, heavy.user.id, N - videos.length);
  }, 120_000);

  it(`reads at most ${PAGE_BUDGET} rows for a page of 25, and one more for its count`, async () => {
    const page = await measure(`${table}: page 1 (25 videos in 25 containers)`, await list(), PAGE_BUDGET);
    expect(page.body.more).toBe(true);
    expect(page.body.response.map((r: Json) => r.id)).toEqual(newest.slice(0, 25));
    expect(page.rows).toBeLessThanOrEqual(PAGE_BUDGET);
    const counted = await measure(`${table}: page 1 with_paging=true`, await list({ with_paging: "true" }), PAGE_BUDGET + 1);
    expect(counted.body.count).toBe(N);
    expect(counted.rows).toBeLessThanOrEqual(PAGE_BUDGET + 1);
  });

  it("pays for its offset on a deep page (offset paging)", async () => {
    const deep = await measure(`${table}: page 40 (offset 975; bulk ids name no resource)`, await list({ page: "40" }));
    expect(deep.rows).toBeLessThanOrEqual(40 * 25 + 2 * 25 + 10);
  });

  if (table === "subscriptions") {
    it("ids=true reads every subscription, by necessity, and little else", async () => {
      const all = await measure("subscriptions: ids=true (10,000 ids)", await list({ ids: "true" }), N + 10);
      expect(all.body).toHaveLength(N);
      expect(all.body.slice(0, 26)).toEqual(newest);
      expect(all.rows).toBeLessThanOrEqual(N + 10);
    });
  }
});

describe("threads of a user with 10,000", () => {
  let owner: Signed;
  let peer: Signed;
  let range: { from: number; to: number };
  const on = (who: Signed, path: string, query: Record<string, string> = {}) =>
    api(`/v4/users/${who.id}/${path}`, { token: who.token, query });

  beforeAll(async () => {
    [owner, peer] = [await signedInUser(), await signedInUser()];
    range = await bulkThreads(owner.user.id, peer.user.id, N);
  }, 120_000);

  it(`reads at most ${PAGE_BUDGET} rows for a page of 25 in every folder`, async () => {
    const inbox = await measure("threads: inbox page 1", await on(owner, "threads.json"), PAGE_BUDGET);
    expect(inbox.body.more).toBe(true);
    expect(inbox.body.response).toHaveLength(25);
    expect(inbox.body.response[0]).toMatchObject({ id: `${range.to}t`, last_message: { content: `bulk message ${range.to}` } });
    expect(inbox.rows).toBeLessThanOrEqual(PAGE_BUDGET);

    const unread = await measure("threads: unread inbox page 1", await on(owner, "threads.json", { unread: "true" }), PAGE_BUDGET);
    expect(unread.body.response.every((t: Json) => t.unread)).toBe(true);
    expect(unread.rows).toBeLessThanOrEqual(PAGE_BUDGET);

    const sent = await measure("threads: sent page 1 (the peer's)", await on(peer, "threads.json", { type: "sent" }), PAGE_BUDGET);
    expect(sent.body.response).toHaveLength(25);
    expect(sent.rows).toBeLessThanOrEqual(PAGE_BUDGET);

    const counted = await measure(
      "threads: inbox page 1 with_paging=true",
      await on(owner, "threads.json", { with_paging: "true" }),
      PAGE_BUDGET + 1,
    );
    expect(counted.body.count).toBe(N);
    expect(counted.rows).toBeLessThanOrEqual(PAGE_BUDGET + 1);
    // Offset paging: a deeper page also reads the index entries it skips, one row each.
    const deep = await measure("threads: inbox page 4 (offset 75)", await on(owner, "threads.json", { page: "4" }), 75 + PAGE_BUDGET);
    expect(deep.body.response[0].id).toBe(`${range.to - 75}t`);
    expect(deep.rows).toBeLessThanOrEqual(75 + PAGE_BUDGET);
  });

  it("counts from one counter row: only_count and alerts", async () => {
    const cases = [
      ["threads: only_count inbox", "threads.json", { only_count: "true" }, N],
      ["threads: only_count unread", "threads.json", { only_count: "true", unread: "true" }, N / 2],
      ["threads: only_count sent (the peer's)", "threads.json", { only_count: "true", type: "sent" }, N],
      ["alerts: unread=true&only_count=true", "alerts.json", { unread: "true", only_count: "true" }, N / 2],
    ] as const;
    for (const [what, path, query, expected] of cases) {
      const who = what.includes("peer") ? peer : owner;
      const res = await measure(what, await on(who, path, query), 5);
      expect(res.body, what).toEqual({ count: expected });
      expect(res.rows, what).toBeLessThanOrEqual(5);
    }
  });

  it("reads one thread in a handful of rows", async () => {
    const one = await measure("threads: one thread with its message", await on(owner, `threads/${range.from}t.json`), 10);
    expect(one.body.messages).toHaveLength(1);
    expect(one.rows).toBeLessThanOrEqual(10);
  });
});
