import { SELF } from "cloudflare:test";
import type { RegisteredRoute } from "../../src/lib/route-registry";
import { ORIGIN, api, type ApiInit } from ".";
import { fill } from "./public-reads";
import type { EffectfulWrite, WriteScene } from "./write-scene";

type Schema = { $ref?: string; example?: unknown; properties?: Record<string, Schema> };
type Operation = { requestBody?: { content?: Record<string, { schema?: Schema }> }; responses?: Record<string, unknown> };
type OpenApi = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };

/** The OpenAPI document as clients read it. */
export async function openApiDocument(): Promise<OpenApi> {
  return (await (await SELF.fetch(`${ORIGIN}/openapi.json`)).json()) as OpenApi;
}

/** The registry's path (`/v4/things/:id`) as the document writes it, without the `.json` it may carry. */
const registryForm = (documented: string) => documented.replace(/\.json$/, "").replace(/\{([^}]+)\}/g, ":$1");

function operationOf(doc: OpenApi, route: RegisteredRoute): Operation | undefined {
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (registryForm(path) === route.path) return methods[route.method.toLowerCase()];
  }
  return undefined;
}

/** A body from the route's declared examples: the schema's own, else one per property that declares one. */
function exampleBody(doc: OpenApi, schema: Schema | undefined): unknown {
  if (!schema) return undefined;
  const resolved = schema.$ref ? doc.components?.schemas?.[schema.$ref.split("/").at(-1)!] : schema;
  if (!resolved) return undefined;
  if (resolved.example !== undefined) return resolved.example;
  const props = Object.entries(resolved.properties ?? {}).filter(([, p]) => p.example !== undefined);
  return props.length ? Object.fromEntries(props.map(([name, p]) => [name, p.example])) : undefined;
}

/** Who sends it, from the route's declared security: staff for a user's guard, the path's user for `owner`, signed as the official application. */
function senderOf(route: RegisteredRoute, s: WriteScene): ApiInit {
  const guards = Array.isArray(route.properties.security) ? route.properties.security : [];
  const token = guards.includes("owner") ? s.manager.token : s.staff.token;
  const app = guards.some((g) => g === "app" || g === "officialApp" || g === "signedApp") ? s.official : undefined;
  return { token, ...(app ? { app } : {}) };
}

/**
 * The write of a route the table (./write-effects.ts) does not name, made from what the route declares: its path with
 * the scene's ids, the example of its JSON body, its first 2xx status, sent by the caller its security names. A new
 * resource's write is then checked by the after-write test with nothing added to the table. Undefined when the route
 * declares no example body (a write with no body needs its entry in the table).
 */
export function exampleWrite(doc: OpenApi, route: RegisteredRoute): EffectfulWrite | undefined {
  const op = operationOf(doc, route);
  const body = exampleBody(doc, op?.requestBody?.content?.["application/json"]?.schema);
  const ok = Object.keys(op?.responses ?? {}).find((code) => code.startsWith("2"));
  if (body === undefined || !ok) return undefined;
  const label = `${route.method} ${route.path}`;
  return {
    route: label,
    ok: Number(ok),
    write: (s) => api(`${fill(route.path, s.targets)}.json`, { method: route.method, ...senderOf(route, s), json: body }),
  };
}
