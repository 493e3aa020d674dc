// GET /v4/jobs.json (docs/api.md, "Jobs (v4)"): every user's jobs for staff, newest first, filtered by status, type
// and a created_at range, each filter combination one walk of its own index (migrations/0027_jobs_listing.sql).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { jobPageQuery, type JobFilters } from "../../src/db/queries/job-listing";
import { PAGING_CEILING } from "../../src/lib/paging";
import { api, createApplication, db, errorBody, rowsRead, signedInUser } from "../helpers";
import type { JobWire } from "../helpers/jobs";
import { expectRefused } from "../helpers/write-authz";

type Signed = Awaited<ReturnType<typeof signedInUser>>;
type Item = JobWire & { created_at: string };
type List = {
  more: boolean;
  response: Item[] | string[];
  count?: number;
  count_capped?: true;
  pagination?: { previous: string | null; next: string | null };
};

const TYPES = ["completion", "list-edit", "srt-import"] as const;
const STATUSES = ["succeeded", "failed", "queued", "running"] as const;
/** Seeded jobs: enough that a walk which read them all would break every budget below. */
const SEEDED = 3_000;
/** The first seeded job's created_at; job i is created i minutes later. */
const BASE = Math.floor(Date.UTC(2026, 0, 1) / 1000);
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.000Z$/, "Z");

let staff: Signed;
let member: Signed;
let firstId: number;

beforeAll(async () => {
  staff = await signedInUser({ staff: true });
  member = await signedInUser();
  // Job i: type TYPES[i % 3], status STATUSES[i % 4], created i minutes after BASE, started by `member`.
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?1)
     INSERT INTO jobs (type, status, created_by, params, error, created_at, updated_at)
     SELECT CASE i % 3 WHEN 0 THEN 'completion' WHEN 1 THEN 'list-edit' ELSE 'srt-import' END,
            CASE i % 4 WHEN 0 THEN 'succeeded' WHEN 1 THEN 'failed' WHEN 2 THEN 'queued' ELSE 'running' END,
            ?2, '{}', CASE i % 4 WHEN 1 THEN 'boom ' || i END, ?3 + i * 60, ?3 + i * 60 FROM n`,
  )
    .bind(SEEDED, member.user.id, BASE)
    .run();
  firstId = (await env.DB.prepare("SELECT min(id) AS id FROM jobs").first<{ id: number }>())!.id;
}, 60_000);

/** The seeded job i as its wire id. */
const wire = (i: number) => `${firstId + i}j`;
/** Seeded indexes matching a filter, newest first. */
function expected(f: { status?: string; type?: string; from?: number; until?: number }) {
  const out: number[] = [];
  for (let i = SEEDED - 1; i >= 0; i--) {
    const created = BASE + i * 60;
    if (f.status && STATUSES[i % 4] !== f.status) continue;
    if (f.type && TYPES[i % 3] !== f.type) continue;
    if (f.from !== undefined && created < f.from) continue;
    if (f.until !== undefined && created >= f.until) continue;
    out.push(i);
  }
  return out.map(wire);
}

const list = (query: Record<string, string>, token = staff.token) => api("/v4/jobs.json", { token, query });

async function page(query: Record<string, string>) {
  const res = await list(query);
  expect(res.status, await res.clone().text()).toBe(200);
  return { res, body: (await res.json()) as List };
}

describe("GET /v4/jobs.json", () => {
  it("lists every user's jobs newest first, each as GET /v4/jobs/<id>.json shows it", async () => {
    const { res, body } = await page({ per_page: "5" });
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const items = body.response as Item[];
    expect(items.map((j) => j.id)).toEqual(expected({}).slice(0, 5));
    expect(body.more).toBe(true);
    for (const item of items) {
      const one = await api(`/v4/jobs/${item.id}.json`, { token: staff.token });
      expect(((await one.json()) as { job: Item }).job).toEqual(item);
    }
    expect(items[0]).toMatchObject({ type: TYPES[(SEEDED - 1) % 3], status: STATUSES[(SEEDED - 1) % 4] });
    expect(items[0].created_at).toBe(iso(BASE + (SEEDED - 1) * 60));
  });

  it("orders jobs created in the same second by id, newest first", async () => {
    const at = BASE - 3600;
    const ids: number[] = [];
    for (let k = 0; k < 3; k++) {
      const row = await env.DB.prepare("INSERT INTO jobs (type, status, created_at) VALUES ('completion', 'failed', ?1) RETURNING id")
        .bind(at)
        .first<{ id: number }>();
      ids.push(row!.id);
    }
    const { body } = await page({ created_before: String(at + 1), created_after: String(at) });
    expect(body.response.map((j) => (j as Item).id)).toEqual(ids.reverse().map((id) => `${id}j`));
    await env.DB.prepare("DELETE FROM jobs WHERE created_at = ?1").bind(at).run();
  });

  it("filters by status, type and created_at range, alone and together", async () => {
    const from = BASE + 1000 * 60;
    const until = BASE + 1200 * 60;
    const cases: Array<[Record<string, string>, Parameters<typeof expected>[0]]> = [
      [{ status: "failed" }, { status: "failed" }],
      [{ type: "list-edit" }, { type: "list-edit" }],
      [
        { status: "queued", type: "srt-import" },
        { status: "queued", type: "srt-import" },
      ],
      [{ created_after: iso(from) }, { from }],
      [{ created_before: String(until) }, { until }],
      [
        { created_after: String(from), created_before: iso(until) },
        { from, until },
      ],
      [
        { status: "running", type: "completion", created_after: iso(from), created_before: String(until) },
        { status: "running", type: "completion", from, until },
      ],
    ];
    for (const [query, f] of cases) {
      const want = expected(f);
      const { body } = await page({ ...query, per_page: "100", with_paging: "true" });
      const label = JSON.stringify(query);
      expect(
        body.response.map((j) => (j as Item).id),
        label,
      ).toEqual(want.slice(0, 100));
      expect(body.count, label).toBe(want.length);
      expect(body.more, label).toBe(want.length > 100);
    }
    // A time with an offset or without seconds, and a date alone (midnight UTC).
    const { body } = await page({ created_after: "2026-01-02T01:00+01:00", created_before: "2026-01-02T00:10:00Z" });
    expect(body.response.map((j) => (j as Item).id)).toEqual(expected({ from: BASE + 1440 * 60, until: BASE + 1450 * 60 }));
    const day = await page({ created_before: "2026-01-02", only_ids: "true", per_page: "100" });
    expect(day.body.response).toEqual(expected({ until: BASE + 1440 * 60 }).slice(0, 100));
  });

  it("pages like every v4 list: per_page, pages, only_ids, with_paging links, the ceiling", async () => {
    const all = expected({ status: "failed" });
    const second = await page({ status: "failed", per_page: "7", page: "2", with_paging: "true" });
    expect(second.body.response.map((j) => (j as Item).id)).toEqual(all.slice(7, 14));
    const next = new URL(second.body.pagination!.next!);
    expect(next.searchParams.get("page")).toBe("3");
    expect(next.searchParams.get("status")).toBe("failed");
    expect(next.searchParams.has("token")).toBe(false);
    const ids = await page({ status: "failed", only_ids: "true", per_page: "3" });
    expect(ids.body.response).toEqual(all.slice(0, 3));
    const past = await list({ page: String(PAGING_CEILING / 25 + 1) });
    await expectRefused(past, "a page past the ceiling", 400, 5002, "page");
  });

  it("refuses unknown filter values with a 400 naming the field", async () => {
    const bad: Array<[Record<string, string>, string]> = [
      [{ status: "done" }, "status"],
      [{ status: "" }, "status"],
      [{ type: "srt_import" }, "type"],
      [{ created_after: "yesterday" }, "created_after"],
      [{ created_after: "2026-02-30" }, "created_after"],
      [{ created_before: "2026-01-01T24:00:00Z" }, "created_before"],
      [{ created_before: "1.7e9" }, "created_before"],
      [{ created_after: "2026-01-02", created_before: "2026-01-01" }, "created_before"],
      [{ created_after: "1767225600", created_before: "1767225600" }, "created_before"],
    ];
    for (const [query, field] of bad) {
      const res = await list(query);
      await expectRefused(res, JSON.stringify(query), 400, 5002, field);
    }
  });

  it("is for staff only: no token 401, any other user 403, a bad signature 401", async () => {
    await expectRefused(await api("/v4/jobs.json"), "no token", 401, 4500);
    // `member` started every seeded job: still not theirs to list.
    await expectRefused(await list({}, member.token), "a user with jobs", 403, 5403);
    const partner = await createApplication();
    const official = await createApplication({ official: true });
    await expectRefused(
      await api("/v4/jobs.json", { token: member.token, app: official.wireId }),
      "a signed official app, a user",
      403,
      5403,
    );
    const forged = await api("/v4/jobs.json", {
      token: staff.token,
      app: partner.wireId,
      headers: { timestamp: String(Math.floor(Date.now() / 1000)), signature: "0".repeat(40) },
    });
    expect(forged.status).toBe(401);
    expect((await errorBody(forged)).vcode).toBe(4);
    // Staff need no application: the token is the credential, signed or not.
    expect((await api("/v4/jobs.json", { token: staff.token, app: partner.wireId })).status).toBe(200);
    expect((await api("/v4/jobs.json", { token: staff.token, app: partner.wireId, unsigned: true })).status).toBe(200);
  });
});

/** The listing's SQL plan for these filters, one detail per line. */
async function planOf(f: JobFilters) {
  const { sql, params } = jobPageQuery(db(), f, 0, 26).toSQL();
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((r) => r.detail).join("\n");
}

describe("GET /v4/jobs.json: rows read", () => {
  const combos: Array<[string, JobFilters, Record<string, string>]> = [
    ["jobs_created", {}, {}],
    ["jobs_created", { createdFrom: BASE + 600 * 60 }, { created_after: String(BASE + 600 * 60) }],
    ["jobs_status_created", { status: "failed" }, { status: "failed" }],
    ["jobs_type_created", { type: "srt-import" }, { type: "srt-import" }],
    ["jobs_status_type_created", { status: "queued", type: "completion" }, { status: "queued", type: "completion" }],
    [
      "jobs_status_type_created",
      { status: "queued", type: "completion", createdUntil: BASE + 2000 * 60 },
      { status: "queued", type: "completion", created_before: String(BASE + 2000 * 60) },
    ],
  ];

  it("walks the index of its filters in order: no table scan, no sort", async () => {
    for (const [index, f] of combos) {
      const plan = await planOf(f);
      expect(plan, JSON.stringify(f)).toMatch(new RegExp(`^(SCAN|SEARCH) jobs USING INDEX ${index}\\b`));
      expect(plan, JSON.stringify(f)).not.toMatch(/TEMP B-TREE/);
    }
  });

  it(`reads about offset + per_page index entries and the page's rows, of ${SEEDED} jobs`, async () => {
    for (const [, , query] of combos) {
      for (const [p, perPage] of [
        ["1", 25],
        ["8", 25],
        ["1", 100],
      ] as const) {
        const res = await list({ ...query, page: p, per_page: String(perPage) });
        expect(res.status).toBe(200);
        const offset = (Number(p) - 1) * perPage;
        // The walk (offset + per_page + 1 entries, the page's rows read with theirs), the session and its user.
        const budget = offset + perPage + 1 + 4;
        const label = `${JSON.stringify(query)} page ${p} per_page ${perPage}`;
        expect(rowsRead(res), label).toBeLessThanOrEqual(budget);
      }
    }
  });

  it("counts (with_paging=true) from the index alone, up to the matches", async () => {
    const res = await list({ status: "failed", type: "list-edit", with_paging: "true" });
    const matches = expected({ status: "failed", type: "list-edit" }).length;
    expect(((await res.json()) as List).count).toBe(matches);
    expect(rowsRead(res)).toBeLessThanOrEqual(matches + 1 + 26 + 4);
  });
});
