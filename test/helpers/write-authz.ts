/// <reference types="vite/client" />
import { expect } from "vitest";
import { api, errorBody } from ".";

/** A refusal with its status and vcode (and the field it names, when given); `what` labels the failure. */
export async function expectRefused(res: Response, what: string, status: number, vcode: number, field?: string) {
  const body = await errorBody(res);
  expect({ status: res.status, vcode: body.vcode }, `${what}: ${JSON.stringify(body)}`).toEqual({ status, vcode });
  if (field)
    expect(
      body.details?.map((d) => d.field),
      `${what}: the field named`,
    ).toContain(field);
}

export async function expectStatus(res: Response, what: string, status: number) {
  expect(res.status, `${what}: ${res.status === status ? "" : await res.clone().text()}`).toBe(status);
}

/** `METHOD path` of every write operation of /openapi.json, as the document spells the path. */
export async function documentedWrites() {
  const doc = (await (await api("/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => ["post", "put", "patch", "delete"].includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
}

/**
 * The write operations the test files cover, read from the source of every `.test.ts` file under `test/` so that a
 * route counts wherever its authorization cases are written, with no second list to keep: `op: "METHOD path"` entries
 * (the access-writes files, or a resource's own test file), and the user-scoped rows of access-matrix.test.ts
 * (`method: "POST", path: (u) => \`${base(u)}/...\``), as `METHOD path` with every parameter written `{}`.
 */
export function coveredWrites(): { declared: string[]; normalised: Set<string> } {
  const sources = Object.values(import.meta.glob<string>("../**/*.test.ts", { query: "?raw", import: "default", eager: true }));
  const declared = sources.flatMap((s) => [...s.matchAll(/\bop: "((?:POST|PUT|PATCH|DELETE) \/[^"]+)"/g)].map((m) => m[1]));
  const matrix = sources.flatMap((s) =>
    [...s.matchAll(/method: "(POST|PUT|PATCH|DELETE)",\s*path: \(u\) => `\$\{base\(u\)\}([^`]*)`/g)].map(
      (m) => `${m[1]} /v4/users/{}${m[2].replace(/\$\{[^}]+\}/g, "{}")}`,
    ),
  );
  return { declared, normalised: new Set([...declared.map(normaliseOp), ...matrix]) };
}

/** `{user_id}` and `{}` alike: operations compared by shape. */
export const normaliseOp = (op: string) => op.replace(/\{[^}]*\}/g, "{}");
