import type { z } from "zod";
import { createApp } from "../../src/app";
import { routingPath } from "../../src/lib/paths";

/**
 * The drift check: every 2xx JSON body a test receives through `api()` is parsed with the response schema its route
 * declares (the one /openapi.json publishes), so the document cannot say something the code does not answer.
 * Fields the schema does not name count as drift too: zod would strip them silently.
 */

interface Declared {
  method: string;
  path: string;
  pattern: RegExp;
  params: number;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

let declared: Declared[] | undefined;

function routes(): Declared[] {
  if (declared) return declared;
  const app = createApp();
  declared = app.openAPIRegistry.definitions
    .flatMap((d) => (d.type === "route" ? [d.route] : []))
    .map((r) => {
      const source = r.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
      return {
        method: r.method.toUpperCase(),
        path: r.path,
        pattern: new RegExp(`^${source}$`),
        params: (r.path.match(/\{/g) ?? []).length,
        responses: r.responses as Declared["responses"],
      };
    })
    // A static segment wins over a parameter, as the routers are mounted (`/v4/containers/all` before `{id}`).
    .sort((a, b) => a.params - b.params);
  return declared;
}

/** Routes served as GET too (`alsoAsGet`) are documented once, as their POST. */
function routeOf(method: string, path: string) {
  const all = routes();
  const match = (m: string) => all.find((r) => r.method === m && r.pattern.test(path));
  return match(method) ?? (method === "GET" ? match("POST") : undefined);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Paths present in what was answered but gone from what the schema parsed: fields the contract does not name. */
function undeclared(sent: unknown, parsed: unknown, at: string, out: string[]) {
  if (Array.isArray(sent) && Array.isArray(parsed)) {
    sent.forEach((item, i) => undeclared(item, parsed[i], `${at}${at ? "." : ""}${i}`, out));
  } else if (isObject(sent) && isObject(parsed)) {
    for (const key of Object.keys(sent)) {
      const where = `${at}${at ? "." : ""}${key}`;
      if (!(key in parsed)) out.push(where);
      else undeclared(sent[key], parsed[key], where, out);
    }
  }
  return out;
}

const unmatched = new Set<string>();

export async function checkContract(method: string, url: string, res: Response) {
  if (res.status < 200 || res.status >= 300 || method === "HEAD") return;
  if (!(res.headers.get("content-type") ?? "").includes("application/json")) return;
  const path = routingPath(new Request(url, { method }));
  const route = routeOf(method, path);
  const where = `${method} ${new URL(url).pathname} (route ${route?.path ?? "none"}) answered ${res.status}`;
  if (!route) {
    // Not an OpenAPI route (`/`, `/openapi.json`): nothing declared to drift from.
    if (!unmatched.has(path)) console.warn(`[contract] no declared route for ${method} ${path}`);
    unmatched.add(path);
    return;
  }
  const schema = route.responses[String(res.status)]?.content?.["application/json"]?.schema as z.ZodType | undefined;
  if (!schema) throw new Error(`contract drift: ${where}, a status or content type its route does not declare`);
  const body: unknown = await res.clone().json();
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `  ${i.path.join(".") || "(body)"}: ${i.message}`).join("\n");
    throw new Error(`contract drift: ${where}, a body its declared schema refuses:\n${issues}`);
  }
  const extra = [...new Set(undeclared(body, parsed.data, "", []).map((p) => p.replace(/(^|\.)\d+(?=\.|$)/g, "$1*")))];
  if (extra.length) {
    throw new Error(`contract drift: ${where} with fields its declared schema does not name:\n  ${extra.join("\n  ")}`);
  }
}
