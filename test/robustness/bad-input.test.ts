import { beforeAll, describe, expect, it } from "vitest";
import { api, createApplication, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";

/**
 * Hostile input over every operation of the OpenAPI document (docs/decisions.md, "Robustness test"): wrong types, missing and unknown
 * fields, huge and negative numbers, malformed ids, wrong methods and content types, with no token, another user's
 * token and staff. Nothing may answer 5xx, and every error carries the envelope of its API generation.
 */
type Op = { path: string; method: string; op: { requestBody?: { content?: Record<string, { schema?: Schema }> } } };
type Schema = { type?: string | string[]; properties?: Record<string, Schema>; $ref?: string; oneOf?: Schema[]; anyOf?: Schema[] };

// Malformed, overflowing and well-formed-but-missing ids (the suffix of each kind is added by the route's parser).
const MALFORMED_IDS = ["abc", "-1", "99999999999999999999999", "999999999"];
const HOSTILE_VALUES: unknown[] = [{}, [], 1e308, -1, "x".repeat(10_000), null, true, "<script>", "'; DROP TABLE users; --"];

let stranger: Awaited<ReturnType<typeof signedInUser>>;
let staff: Awaited<ReturnType<typeof signedInUser>>;
let official: string;
let ops: Op[] = [];
let doc: { components?: { schemas?: Record<string, Schema> } };

function expectEnvelope(path: string, status: number, body: unknown, what: string) {
  expect(status, what).toBeLessThan(500);
  if (status < 400) return;
  const b = body as Record<string, unknown>;
  if (path.startsWith("/oauth/token")) expect(typeof b.error === "string" && typeof b.error_description === "string", what).toBe(true);
  else if (path.startsWith("/api/v3") || path.startsWith("/v3/"))
    expect(typeof b.message === "string" && typeof b.status === "number", what).toBe(true);
  else expect(typeof b.error === "string" && typeof b.vcode === "number" && typeof b.request_id === "string", what).toBe(true);
}

/** A concrete path: every `{param}` replaced by `value`; the document's paths end in .json (or name their file). */
const fill = (path: string, value: string) => path.replace(/\{[^}]+\}/g, value);

function resolve(schema: Schema | undefined): Schema | undefined {
  if (!schema?.$ref) return schema;
  return doc.components?.schemas?.[schema.$ref.split("/").at(-1)!];
}

async function send(method: string, path: string, init: RequestInit & { json?: unknown } = {}) {
  const res = await api(path, { method, ...init });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // .srt, .xml and 204 bodies are not JSON; only errors are checked for their envelope.
  }
  return { status: res.status, body };
}

beforeAll(async () => {
  [stranger, staff] = [await signedInUser(), await signedInUser({ staff: true })];
  official = (await createApplication({ official: true })).wireId;
  const container = await createContainer({ title: "Robust", regions: ["us"] });
  await createVideo(container.id);
  doc = (await (await api("/openapi.json")).json()) as typeof doc & { paths: Record<string, Record<string, Op["op"]>> };
  const paths = (doc as { paths: Record<string, Record<string, Op["op"]>> }).paths;
  ops = Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ["get", "post", "put", "delete"].includes(method))
      .map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
});

describe("every operation survives hostile input", () => {
  it("covers the whole document", () => {
    expect(ops.length).toBeGreaterThan(100);
  });

  it("malformed and missing ids, with no token, another user's token and staff", { timeout: 120_000 }, async () => {
    for (const { path, method } of ops) {
      if (!path.includes("{")) continue;
      const calls = MALFORMED_IDS.flatMap((id) =>
        [undefined, stranger.token, staff.token].map(async (token) => {
          const url = `${fill(path, id)}?app=${official}${token ? `&token=${token}` : ""}`;
          const { status, body } = await send(method, url, method === "GET" || method === "DELETE" ? {} : { json: {} });
          expectEnvelope(path, status, body, `${method} ${url}`);
        }),
      );
      await Promise.all(calls);
    }
  });

  it("wrong types, huge and negative numbers, unknown fields and bodies that are not JSON", { timeout: 120_000 }, async () => {
    for (const { path, method, op } of ops) {
      if (method === "GET" || method === "DELETE") continue;
      const schema = resolve(op.requestBody?.content?.["application/json"]?.schema);
      const fields = Object.keys(resolve(schema)?.properties ?? {});
      const url = (token: string) => `${fill(path, "1")}?app=${official}&token=${token}`;
      const bodies: Array<RequestInit & { json?: unknown }> = [
        { json: {} },
        { json: { unknown_field: 1, ...Object.fromEntries(fields.map((f) => [f, "x"])) } },
        { body: "not json at all {", headers: { "content-type": "application/json" } },
        { body: "\u0000\u0001binary", headers: { "content-type": "application/octet-stream" } },
        { body: "a=1&a=2&b[c]=3", headers: { "content-type": "application/x-www-form-urlencoded" } },
        { json: [1, 2, 3] },
      ];
      // Staff get past every ownership check, so hostile values reach the deepest validation.
      const hostile: Array<RequestInit & { json?: unknown }> = fields.flatMap((f) => HOSTILE_VALUES.map((v) => ({ json: { [f]: v } })));
      await Promise.all(
        [
          ...bodies.map((init) => [init, stranger.token] as const),
          ...[...bodies, ...hostile].map((init) => [init, staff.token] as const),
        ].map(async ([init, token]) => {
          const { status, body } = await send(method, url(token), init);
          expectEnvelope(path, status, body, `${method} ${url("…")} ${JSON.stringify(init.json ?? init.body).slice(0, 60)}`);
        }),
      );
    }
  });

  it("wrong methods and hostile query values", async () => {
    for (const { path, method } of ops) {
      const url = `${fill(path, "1")}?page=-5&per_page=1e308&sort=%27&type=%00&direction=up&only_ids=maybe&with_paging=2&token=None&app=x`;
      const { status, body } = await send(method, url);
      expectEnvelope(path, status, body, `${method} ${url}`);
      for (const wrong of ["PATCH", "PUT", "DELETE"].filter((m) => m !== method)) {
        const res = await send(wrong, fill(path, "1"));
        expectEnvelope(path, res.status, res.body, `${wrong} ${path}`);
      }
    }
  });
});
