import { afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { api, createApplication, signedInUser } from "../helpers";
import { createContainer } from "../helpers/catalogue";
import { v3Token } from "../helpers/v3";

/**
 * Client input that used to reach a 500 (docs/decisions.md, "Real clients: a tolerant wire contract"): body keys that are
 * names of Object.prototype (`constructor`, `__proto__`, `toString`), a key with CR/LF that went into the
 * x-ignored-fields header after the write committed, JSON with duplicate keys, and a NUL in the v3 search. Each is sent
 * to every operation it can reach; the answer is a 4xx or the documented tolerant answer, never a 5xx, and nothing is
 * logged at error level.
 */
type Op = { path: string; method: string; json: boolean };

let owner: Awaited<ReturnType<typeof signedInUser>>;
let staff: Awaited<ReturnType<typeof signedInUser>>;
let official: string;
let ops: Op[] = [];
let errors: MockInstance<typeof console.error>;

const PROTOTYPE_KEYS = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"];

beforeAll(async () => {
  [owner, staff] = [await signedInUser(), await signedInUser({ staff: true })];
  official = (await createApplication({ official: true })).wireId;
  const doc = (await (await api("/openapi.json")).json()) as {
    paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
  };
  ops = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ["post", "put", "delete"].includes(method))
      .map(([method, op]) => ({ path, method: method.toUpperCase(), json: Boolean(op.requestBody?.content?.["application/json"]) })),
  );
});

// The Worker logs a crash with console.error at level "error"; a spy per test, restored after it.
beforeEach(() => {
  errors = vi.spyOn(console, "error");
});
afterEach(() => errors.mockRestore());
const errorLines = () =>
  errors.mock.calls.map((args) => String(args[0])).filter((line) => line.includes('"level":"error"') && !line.includes('"event":"job"'));

/** The user's own id in user-scoped paths, "1" elsewhere: the body reaches the deepest validation. */
const fill = (path: string) => path.replace("{user_id}", staff.id).replace(/\{[^}]+\}/g, "1");

async function send(method: string, path: string, body: string, token = staff.token) {
  const url = `${path}${path.includes("?") ? "&" : "?"}app=${official}`;
  const res = await api(url, { method, token, body, headers: { "content-type": "application/json" } });
  await res.arrayBuffer();
  return res;
}

describe("client input never reaches a 500", () => {
  it("body keys named like Object.prototype's, on every operation with a JSON body", { timeout: 120_000 }, async () => {
    const json = ops.filter((op) => op.json);
    expect(json.length).toBeGreaterThan(25);
    for (const { method, path } of json) {
      await Promise.all(
        PROTOTYPE_KEYS.flatMap((key) => [`{"${key}": 1}`, `{"${key}": {"x": 1}}`, `{"titles": {"${key}": "x"}}`]).map(async (body) => {
          const res = await send(method, fill(path), body);
          expect(res.status, `${method} ${path} ${body}`).toBeLessThan(500);
        }),
      );
    }
    expect(errorLines()).toEqual([]);
  });

  it("prototype names in the query and the form body of /oauth/token", async () => {
    for (const key of PROTOTYPE_KEYS) {
      for (const init of [
        { path: `/oauth/token?${key}=x`, body: "" },
        { path: "/oauth/token", body: `${key}=x&grant_type=client_credentials` },
        { path: "/oauth/token", body: `{"${key}": "x"}` },
      ]) {
        const res = await api(init.path, {
          method: "POST",
          body: init.body,
          headers: { "content-type": "application/x-www-form-urlencoded" },
        });
        expect([400, 401], `${init.path} ${init.body}`).toContain(res.status); // an OAuth error, not a crash
        expect(((await res.json()) as { error: string }).error).toMatch(/^(invalid_|unsupported_)/);
      }
    }
    expect(errorLines()).toEqual([]);
  });

  it("a key with CR/LF: the write answers 201 once, the ignored name percent-encoded in x-ignored-fields", async () => {
    const container = await createContainer({ title: "Hostile keys", regions: ["us"] });
    const path = `/v4/users/${owner.id}/subscriptions.json`;
    const res = await api(`${path}?app=${official}`, {
      method: "POST",
      token: owner.token,
      body: `{"resource_id": "${container.id}c", "a\\r\\nSet-Cookie: x=1": 1, "é%": 2}`,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-ignored-fields")).toBe("a%0D%0ASet-Cookie: x=1, %C3%A9%25");
    expect(res.headers.get("set-cookie")).toBeNull();
    // A retry finds the subscription made: 200, not a second one.
    const again = await api(`${path}?app=${official}`, { method: "POST", token: owner.token, json: { resource_id: `${container.id}c` } });
    expect(again.status).toBe(200);
    // Every JSON write names the hostile key rather than crash; /oauth/token too.
    for (const { method, path: p } of ops.filter((op) => op.json)) {
      const r = await send(method, fill(p), `{"bad\\r\\nkey": 1, "\\u0000": 2}`);
      expect(r.status, `${method} ${p}`).toBeLessThan(500);
    }
    const token = await api("/oauth/token", { method: "POST", json: { "x\r\ny": 1 } });
    expect([400, 401]).toContain(token.status);
    expect(token.headers.get("x-ignored-fields")).toBe("x%0D%0Ay");
    expect(errorLines()).toEqual([]);
  });

  it("a very long list of ignored fields is cut, not refused", async () => {
    const body = JSON.stringify(Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`unknown_field_${i}`, i])));
    const res = await api("/oauth/token", { method: "POST", body, headers: { "content-type": "application/json" } });
    expect([400, 401]).toContain(res.status);
    const header = res.headers.get("x-ignored-fields")!;
    expect(header.length).toBeLessThanOrEqual(1030);
    expect(header.endsWith(", ...")).toBe(true);
  });

  it("JSON with duplicate keys on the subscription, marker and notification writes (the last one counts)", async () => {
    const container = await createContainer({ title: "Duplicate keys", regions: ["us"] });
    const id = `${container.id}c`;
    const u = owner.id;
    const writes: Array<[string, string, string]> = [
      ["POST", `/v4/users/${u}/subscriptions.json`, `{"resource_id": "1x", "resource_id": "${id}"}`],
      ["POST", `/v4/users/${u}/subscriptions.json`, `{"resource_id": "${id}", "resource_id": {"a": 1, "a": 2}}`],
      ["DELETE", `/v4/users/${u}/subscriptions/${id}.json`, `{"resource_id": "${id}", "resource_id": "${id}"}`],
      ["POST", `/v4/users/${u}/markers.json`, `{"resource_id": "1x", "resource_id": "${id}"}`],
      ["POST", `/v4/users/${u}/markers.json`, `{"resource_id": ["${id}"], "resource_id": null}`],
      ["DELETE", `/v4/users/${u}/markers/${id}.json`, `{"a": 1, "a": 2}`],
      ["POST", `/v4/users/${u}/notifications.json`, `{"content": "a", "content": "b"}`],
      ["POST", `/v4/notifications.json?container_id=${id}`, `{"content": "a", "content": "b", "content": 3}`],
      ["PUT", `/v4/users/${u}/notifications/1n.json?unread=true&unread=false`, `{"unread": 1, "unread": 2}`],
      ["DELETE", `/v4/users/${u}/notifications/1n.json`, `{"a": 1, "a": 2}`],
    ];
    for (const [method, path, body] of writes) {
      for (const token of [owner.token, staff.token]) {
        const res = await send(method, path, body, token);
        expect(res.status, `${method} ${path} ${body}`).toBeLessThan(500);
      }
    }
    expect(errorLines()).toEqual([]);
  });

  it("control characters in the v3 search query are word breaks: 200 or 400, never an FTS5 syntax error", async () => {
    // With titles in the index (an empty one answered before parsing the match).
    await createContainer({ title: "Searchable alpha", regions: ["us"] });
    const token = await v3Token();
    for (const query of ["%00", "Searchable%00", "a%00b", "%00%00", "%01*", "%22%00", "%0D%0A", "x%7F", "%E2%80%8B"]) {
      const res = await api(`/api/v3/search.json?query=${query}&access_token=${token}`);
      expect([200, 400], query).toContain(res.status);
      await res.arrayBuffer();
    }
    expect(errorLines()).toEqual([]);
  });
});
