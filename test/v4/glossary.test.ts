// A series' glossary as JSON (src/routes/v4/glossary.ts; docs/api.md, "Glossary"): exact bodies, who may write, the
// limits, hostile input, and the edge cache after a write.
import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { glossaryTerms } from "../../src/db/schema";
import { ORIGIN, type Target, api, db, errorBody, signedInUser, staffManagerOther, type User } from "../helpers";
import { createContainer } from "../helpers/catalogue";
import { openApiDocument } from "../helpers/example-writes";
import { cacheOf } from "../helpers/public-reads";
import { expectRefused, expectStatus } from "../helpers/write-authz";

let staff: User;
let manager: User;
let other: User;
let otherManager: User;
let series: Awaited<ReturnType<typeof createContainer>>;

beforeAll(async () => {
  ({ staff, manager, other } = await staffManagerOther());
  otherManager = await signedInUser();
  series = await createContainer({ title: "Glossary series", managers: [manager.user.id] });
  await createContainer({ title: "Another series", managers: [otherManager.user.id] });
});

const path = (c = series.wireId) => `/v4/containers/${c}/glossary.json`;
const termPath = (id: string, c = series.wireId) => `/v4/containers/${c}/glossary/${id}.json`;
const post = (token: string | undefined, json: unknown, c = series.wireId) => api(path(c), { method: "POST", token, json });
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

async function freshSeries() {
  return createContainer({ title: "Glossary scratch", managers: [manager.user.id] });
}

describe("CRUD", () => {
  it("creates, reads, edits and deletes a term with exact bodies", async () => {
    const c = await freshSeries();
    const res = await post(
      manager.token,
      { term: " 윤세리 ", language: "KO", translations: { en: "Yoon Se-ri", ES: "Yoon Se-ri" } },
      c.wireId,
    );
    expect(res.status).toBe(201);
    const made = (await res.json()) as { id: string };
    // Trimmed, lower-cased and with its defaults, it is the term the OpenAPI document shows as the body's example.
    const documented = (await openApiDocument()).components?.schemas?.GlossaryTermCreate?.example;
    expect(documented).toMatchObject({ term: "윤세리" });
    expect(made).toEqual({ id: expect.stringMatching(/^[1-9][0-9]*k$/), ...(documented as object), created_at: ISO, updated_at: ISO });

    const listed = await api(path(c.wireId));
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({ more: false, response: [made] });

    const edited = await api(termPath(made.id, c.wireId), {
      method: "PATCH",
      token: staff.token,
      json: { status: "do_not_translate", note: "keep", case_sensitive: true, translations: {} },
    });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toEqual({
      ...made,
      status: "do_not_translate",
      note: "keep",
      case_sensitive: true,
      translations: {},
      updated_at: ISO,
    });

    const paged = await api(path(c.wireId), { query: { with_paging: "true", only_ids: "true" } });
    expect(await paged.json()).toMatchObject({ more: false, response: [made.id], count: 1 });

    expect((await api(termPath(made.id, c.wireId), { method: "DELETE", token: manager.token })).status).toBe(204);
    expect((await api(termPath(made.id, c.wireId), { method: "DELETE", token: manager.token })).status).toBe(404);
    expect(await (await api(path(c.wireId))).json()).toEqual({ more: false, response: [] });
    expect(await db().select().from(glossaryTerms).where(eq(glossaryTerms.containerId, c.id)).all()).toEqual([]);
  });

  it("pages oldest first", async () => {
    const c = await freshSeries();
    for (const term of ["a", "b", "c"]) expect((await post(manager.token, { term, language: "en" }, c.wireId)).status).toBe(201);
    const first = (await (await api(path(c.wireId), { query: { per_page: "2" } })).json()) as {
      more: boolean;
      response: { term: string }[];
    };
    expect([first.more, first.response.map((t) => t.term)]).toEqual([true, ["a", "b"]]);
    const second = (await (await api(path(c.wireId), { query: { per_page: "2", page: "2" } })).json()) as typeof first;
    expect([second.more, second.response.map((t) => t.term)]).toEqual([false, ["c"]]);
  });

  it("a duplicate (same term and language) is a 409 naming term; the same term in another language is another term", async () => {
    const c = await freshSeries();
    expect((await post(manager.token, { term: "Seri", language: "en" }, c.wireId)).status).toBe(201);
    const dup = await post(manager.token, { term: "Seri", language: "en" }, c.wireId);
    expect(dup.status).toBe(409);
    expect((await errorBody(dup)).details).toEqual([{ field: "term", message: expect.stringContaining("already") }]);
    expect((await post(manager.token, { term: "Seri", language: "fr" }, c.wireId)).status).toBe(201);
    const second = (await (await post(manager.token, { term: "Other", language: "en" }, c.wireId)).json()) as { id: string };
    const renamed = await api(termPath(second.id, c.wireId), { method: "PATCH", token: manager.token, json: { term: "Seri" } });
    expect(renamed.status).toBe(409);
    expect((await errorBody(renamed)).details?.[0].field).toBe("term");
  });

  it("goes with its container", async () => {
    const c = await freshSeries();
    expect((await post(manager.token, { term: "x", language: "en" }, c.wireId)).status).toBe(201);
    expect((await api(`/v4/containers/${c.wireId}.json`, { method: "DELETE", token: staff.token })).status).toBe(204);
    expect(await db().select().from(glossaryTerms).where(eq(glossaryTerms.containerId, c.id)).all()).toEqual([]);
    expect((await api(path(c.wireId))).status).toBe(404);
  });

  it("a term of another series is not found through this one", async () => {
    const a = await freshSeries();
    const b = await freshSeries();
    const t = (await (await post(manager.token, { term: "x", language: "en" }, a.wireId)).json()) as { id: string };
    expect((await api(termPath(t.id, b.wireId), { method: "PATCH", token: manager.token, json: { note: "n" } })).status).toBe(404);
    expect((await api(termPath(t.id, b.wireId), { method: "DELETE", token: manager.token })).status).toBe(404);
    expect((await api(termPath("12c", a.wireId), { method: "DELETE", token: manager.token })).status).toBe(404);
  });
});

describe("who may write", () => {
  it("anonymous 401; another user 403; a manager of another container 403; staff and the manager may", async () => {
    const body = { term: "권한", language: "ko" };
    expect((await post(undefined, body)).status).toBe(401);
    expect((await post(other.token, body)).status).toBe(403);
    expect((await post(otherManager.token, body)).status).toBe(403);
    const made = (await (await post(manager.token, body)).json()) as { id: string };
    for (const who of [other, otherManager]) {
      expect((await api(termPath(made.id), { method: "PATCH", token: who.token, json: { note: "x" } })).status).toBe(403);
      expect((await api(termPath(made.id), { method: "DELETE", token: who.token })).status).toBe(403);
    }
    expect((await api(termPath(made.id), { method: "PATCH", json: { note: "x" } })).status).toBe(401);
    expect((await api(termPath(made.id), { method: "DELETE", token: staff.token })).status).toBe(204);
    expect(
      await db()
        .select()
        .from(glossaryTerms)
        .where(eq(glossaryTerms.id, Number.parseInt(made.id)))
        .all(),
    ).toEqual([]);
  });

  it("a hidden container's glossary is a 404 to others and readable by its manager", async () => {
    const hidden = await createContainer({ title: "Hidden glossary", state: "pending", managers: [manager.user.id] });
    expect((await api(path(hidden.wireId))).status).toBe(404);
    expect((await api(path(hidden.wireId), { token: other.token })).status).toBe(404);
    expect((await post(other.token, { term: "x", language: "en" }, hidden.wireId)).status).toBe(404);
    expect((await api(path(hidden.wireId), { token: manager.token })).status).toBe(200);
    expect((await api("/v4/containers/999999c/glossary.json")).status).toBe(404);
  });
});

/** A fresh series managed by `manager` (pending when `hidden`) with one term: each caller writes its own. */
async function authzScene(hidden = false) {
  const c = await createContainer({ title: "Glossary authz", managers: [manager.user.id], state: hidden ? "pending" : "normal" });
  const [t] = await db().insert(glossaryTerms).values({ containerId: c.id, term: "권한", language: "ko" }).returning();
  return { container: c.wireId, term: `${t.id}k` };
}
const CSV = "term,language,status,note,case_sensitive\r\nx,en,,,\r\n";
/** The glossary's writes for the authorization check (test/helpers/write-authz.ts reads the `op` of each). */
const WRITE_ROUTES: { op: string; ok: number; target: (s: Awaited<ReturnType<typeof authzScene>>) => Target & { body?: string } }[] = [
  {
    op: "POST /v4/containers/{container_id}/glossary.json",
    ok: 201,
    target: (s) => ({ path: path(s.container), json: { term: "새", language: "ko" } }),
  },
  {
    op: "PATCH /v4/containers/{container_id}/glossary/{term_id}.json",
    ok: 200,
    target: (s) => ({ path: termPath(s.term, s.container), json: { note: "n" } }),
  },
  { op: "DELETE /v4/containers/{container_id}/glossary/{term_id}.json", ok: 204, target: (s) => ({ path: termPath(s.term, s.container) }) },
  {
    op: "POST /v4/containers/{container_id}/glossary.csv",
    ok: 200,
    target: (s) => ({ path: `/v4/containers/${s.container}/glossary.csv`, query: { mode: "merge" }, body: CSV }),
  },
];

describe("the authorization of every glossary write", () => {
  it.each(WRITE_ROUTES)("$op: staff and the container's managers", async (route) => {
    const method = route.op.split(" ")[0];
    const send = async (token: string | undefined, hidden = false) => {
      const { body, ...target } = route.target(await authzScene(hidden));
      return api(target, { method, token, ...(body === undefined ? {} : { body, headers: { "content-type": "text/csv" } }) });
    };
    await expectRefused(await send(undefined), "no token", 401, 4500);
    await expectRefused(await send(other.token), "a user who manages nothing", 403, 5403);
    await expectRefused(await send(otherManager.token), "a manager of another container", 403, 5403);
    await expectRefused(await send(other.token, true), "that user, container hidden", 404, 404);
    await expectStatus(await send(manager.token), "the container's manager", route.ok);
    await expectStatus(await send(manager.token, true), "the manager, container hidden", route.ok);
    await expectStatus(await send(staff.token), "staff", route.ok);
  });
});

describe("limits and hostile input: a 4xx naming the field, never a 5xx", () => {
  const bad: [string, unknown, string][] = [
    ["empty term", { term: "  ", language: "en" }, "term"],
    ["term of 201 characters", { term: "x".repeat(201), language: "en" }, "term"],
    ["note of 1001 characters", { term: "x", language: "en", note: "n".repeat(1001) }, "note"],
    ["bad language", { term: "x", language: "english" }, "language"],
    ["bad status", { term: "x", language: "en", status: "obsolete" }, "status"],
    ["translation key not a language", { term: "x", language: "en", translations: { "'; DROP TABLE x; --": "y" } }, "translations"],
    ["a control character in the term", { term: "a\u0001b", language: "en" }, "term"],
    ["a control character in the note", { term: "x", language: "en", note: "\u0007" }, "note"],
    ["translation too long", { term: "x", language: "en", translations: { en: "y".repeat(201) } }, "translations.en"],
  ];
  it.each(bad)("%s", async (_, json, field) => {
    const res = await post(manager.token, json);
    expect(res.status).toBe(400);
    expect((await errorBody(res)).details?.map((d) => d.field)).toContain(field);
  });

  it("an unknown field is ignored and named, as everywhere", async () => {
    const c = await freshSeries();
    const res = await post(manager.token, { term: "x", language: "en", colour: "red" }, c.wireId);
    expect([res.status, res.headers.get("x-ignored-fields")]).toEqual([201, "colour"]);
  });

  it("FTS- and SQL-looking terms are stored as text", async () => {
    const c = await freshSeries();
    const hostile = ['"NEAR(a b)" OR *', "x'); DROP TABLE glossary_terms; --", "%_\\", "=cmd|' /C calc'!A0", "<script>alert(1)</script>"];
    for (const term of hostile) expect((await post(manager.token, { term, language: "en" }, c.wireId)).status).toBe(201);
    const body = (await (await api(path(c.wireId))).json()) as { response: { term: string }[] };
    expect(body.response.map((t) => t.term)).toEqual(hostile);
  });

  it("a malformed term id or container id is a 404", async () => {
    expect((await api(termPath("abc"), { method: "DELETE", token: staff.token })).status).toBe(404);
    expect((await api("/v4/containers/x/glossary.json")).status).toBe(404);
  });

  it(`at most 2,000 terms a series: the 2,001st is a 409 naming the limit`, { timeout: 60_000 }, async () => {
    const c = await freshSeries();
    const rows = Array.from({ length: 1999 }, (_, i) => ({ containerId: c.id, term: `t${i}`, language: "en" }));
    for (let i = 0; i < rows.length; i += 10)
      await db()
        .insert(glossaryTerms)
        .values(rows.slice(i, i + 10));
    expect((await post(manager.token, { term: "last", language: "en" }, c.wireId)).status).toBe(201);
    const over = await post(manager.token, { term: "one more", language: "en" }, c.wireId);
    expect(over.status).toBe(409);
    const err = await errorBody(over);
    expect(err.error).toContain("at most 2000 glossary terms");
    expect(err.details?.[0].field).toBe("glossary");
    const counted = (await (await api(path(c.wireId), { query: { with_paging: "true", only_ids: "true" } })).json()) as { count: number };
    expect(counted.count).toBe(2000);
  });
});

describe("the edge cache", () => {
  it("a write changes the next anonymous read", async () => {
    const c = await freshSeries();
    const url = `${ORIGIN}${path(c.wireId)}`;
    expect(cacheOf(await SELF.fetch(url))).toBe("miss");
    const warm = await SELF.fetch(url);
    expect([cacheOf(warm), await warm.json()]).toEqual(["hit", { more: false, response: [] }]);
    const made = (await (await post(manager.token, { term: "캐시", language: "ko" }, c.wireId)).json()) as { id: string };
    const after = await SELF.fetch(url);
    expect(((await after.json()) as { response: { id: string }[] }).response.map((t) => t.id)).toEqual([made.id]);
    await api(termPath(made.id, c.wireId), { method: "PATCH", token: manager.token, json: { note: "edited" } });
    expect(((await (await SELF.fetch(url)).json()) as { response: { note: string }[] }).response[0].note).toBe("edited");
    await api(termPath(made.id, c.wireId), { method: "DELETE", token: manager.token });
    expect(await (await SELF.fetch(url)).json()).toEqual({ more: false, response: [] });
  });
});
