import type { OpenAPIHono } from "@hono/zod-openapi";
import { isV3 } from "./lib/paths";
import type { Guard, Security } from "./lib/route-properties";
import { honoPath, registeredRoutes } from "./lib/route-registry";
import { RESPONSE_HEADERS, type ResponseHeader } from "./lib/schemas";
import type { AppEnv } from "./types";

/**
 * The published OpenAPI document (/openapi.json). Routes declare their contracts (src/routes) and their tag and
 * security (src/lib/route-properties.ts, or their resource router's defaults); what follows from those is filled in
 * here, once for every operation: an operationId, the security schemes and credential parameters, the response
 * headers it sends. A route whose contract says one of these itself keeps its own.
 */

type Requirement = Record<string, string[]>;
type Response = { $ref?: string; description?: string; headers?: Record<string, unknown> };
type Parameter = { name?: string; in?: string; required?: boolean; description?: string; schema?: object; example?: string };
type Operation = {
  operationId?: string;
  tags?: string[];
  security?: Requirement[];
  parameters?: Parameter[];
  responses: Record<string, Response>;
};
type PathItem = Partial<Record<(typeof METHODS)[number], Operation>>;

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

const SECURITY_SCHEMES = {
  app: {
    type: "apiKey",
    in: "query",
    name: "app",
    description: "The calling application's id (`100001a`). Public, as it is in every client's URLs: official applications also sign.",
  },
  token: { type: "apiKey", in: "query", name: "token", description: "A user's session token (`POST /v5/sessions.json`)." },
  bearer: { type: "http", scheme: "bearer", description: "The same session token as `Authorization: Bearer <token>`." },
  signature: {
    type: "apiKey",
    in: "header",
    name: "signature",
    description: 'HMAC-SHA1 of the request with the application\'s secret, hex (docs/api.md, "Signing a request"); with `timestamp`.',
  },
  timestamp: { type: "apiKey", in: "header", name: "timestamp", description: "Unix seconds of a header-signed request." },
  sig: { type: "apiKey", in: "query", name: "sig", description: "The signature in the query instead of the header; with `t`." },
  t: { type: "apiKey", in: "query", name: "t", description: "Unix seconds of a query-signed request." },
  v3AccessToken: {
    type: "apiKey",
    in: "query",
    name: "access_token",
    description: "A v3 access token (`POST /oauth/token`).",
  },
  v3Bearer: { type: "http", scheme: "bearer", description: "The v3 access token as `Authorization: Bearer <token>`." },
};

/** Alternatives (any one will do) within a requirement; each guard adds its own, all of which must be met. */
const USER: Requirement[] = [{ token: [] }, { bearer: [] }];
const SIGNED_APP: Requirement[] = [
  { app: [], signature: [], timestamp: [] },
  { app: [], sig: [], t: [] },
];
const REQUIREMENTS: Record<Guard, Requirement[]> = {
  user: USER,
  staff: USER,
  owner: USER,
  app: [{ app: [] }],
  officialApp: SIGNED_APP,
  signedApp: SIGNED_APP,
  userOrOfficialApp: [...USER, ...SIGNED_APP],
  v3Token: [{ v3AccessToken: [] }, { v3Bearer: [] }],
};

function securityOf(security: Security | undefined): Requirement[] {
  if (security === "optionalUser") return [{}, ...USER];
  if (!security || security === "public" || !security.length) return [];
  // Every guard's requirement at once: one alternative of each, merged.
  const needs = security.map((g) => REQUIREMENTS[g]);
  return needs.reduce((all, alternatives) => all.flatMap((a) => alternatives.map((b) => ({ ...a, ...b }))), [{}] as Requirement[]);
}

/** The demo applications (scripts/demo/users.mjs), as examples: any application will do; the official one signs. */
const EXAMPLE_APP = { any: "100001a", official: "100000a" };
const SIGNING = 'docs/api.md, "Signing a request"';

const queryParameter = (name: string, description: string, schema: object, more: Partial<Parameter> = {}): Parameter => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
  ...more,
});

/**
 * The credentials as the query parameters they also are, so that a client generated from the document can send them
 * (a security scheme names a parameter but declares none). Every v4 and v5 route reads `app`: required where every
 * alternative of its security needs it, with a demo application as example, so "Try it out" in /docs works on the
 * reads any application may make. Routes that take a query signature read `sig`, `t` and `sig_v`; a write whose only
 * credential is the signature must send `sig_v=2` and may add a `nonce` (docs/decisions.md, "Signed requests and
 * replay"). Grant-only routes read none of them: their grant names its application.
 */
function credentialParameters(method: string, path: string, security: Requirement[], declared: Security | undefined) {
  if (!/^\/v[45]\//.test(path)) return [];
  const required = security.length > 0 && security.every((r) => "app" in r);
  const signed = security.some((r) => "sig" in r);
  const example = required ? { example: signed ? EXAMPLE_APP.official : EXAMPLE_APP.any } : {};
  const app = queryParameter("app", "the calling application's id (`100001a`)", { type: "string" }, { required, ...example });
  if (!signed) return [app];
  const signatureOnly = method !== "get" && Array.isArray(declared) && declared.includes("signedApp");
  const sig = queryParameter("sig", `the request's signature, hex HMAC-SHA1 (${SIGNING}); or the \`signature\` header`, {
    type: "string",
    pattern: "^[0-9a-fA-F]{40}$",
  });
  const t = queryParameter("t", "unix seconds of the signed request, within 300 s of the server's clock; with `sig`", { type: "integer" });
  if (!signatureOnly) {
    const version = `the signing version: \`1\` (absent) or \`2\`, which signs the method too (${SIGNING})`;
    return [app, sig, t, queryParameter("sig_v", version, { type: "string", enum: ["1", "2"] })];
  }
  const version = `\`2\`: a write signed by the application alone signs its method too (${SIGNING})`;
  const nonce = "any random text, so that two identical writes in one second sign differently";
  return [
    app,
    sig,
    t,
    queryParameter("sig_v", version, { type: "string", enum: ["2"] }, { required: true, example: "2" }),
    queryParameter("nonce", nonce, { type: "string" }),
  ];
}

/** Adds the parameters the operation does not declare itself (by name, in the query). */
function addParameters(op: Operation, parameters: Parameter[]) {
  const declared = new Set((op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name));
  const missing = parameters.filter((p) => !declared.has(p.name));
  if (missing.length) op.parameters = [...(op.parameters ?? []), ...missing];
}

const TAGS: Record<string, string> = {
  oauth: "v3 access tokens (RFC 6749).",
  v3: "The deprecated, read-only v3 API: every response carries `Deprecation` and a `Link` to its v4 successor.",
  sessions: "v5 logins: a session token for a password or an external credential.",
  users: "Public user profiles.",
  containers: "Films, series, news and artists: reads, listings and (managers, staff) writes.",
  videos: "Videos and the video listings of a container.",
  titles: "Localised titles and descriptions of containers and videos.",
  subtitles: "Subtitle imports, the SubRip download and completion by language.",
  subtitle_tracks: "A video's subtitles per language in every format (SubRip, WebVTT, SBV, SSA/ASS, TTML, JSON).",
  subtitle_versions: "Every change of a track as a version: list, read, compare and restore; cue edits and deleting a language.",
  subtitle_reports: "Reports of wrong subtitles, for staff and the container's managers to list and resolve.",
  playback_streams:
    "A video's DASH and HLS manifests: registered by staff and managers, answered with a playback grant that opens " +
    "the kept manifests and the viewer subtitles.",
  translations: "Subtitle translations: languages, listings and votes.",
  captions: "Captions (subtitle segments) to translate.",
  translation_memory: "Earlier translations of the same or similar lines, from every subtitled segment (translators' tools).",
  timed_comments: "Comments at a time of a video.",
  lists: "Curated lists of containers.",
  search: "Full-text search over the titles of containers and videos, and its autocomplete form.",
  contributions: "Who contributed subtitles, per user and per container.",
  subtitle_histories: "A user's subtitle history.",
  subscriptions: "A user's followed containers.",
  markers: "A user's watch markers.",
  notifications: "Notifications to users (managers and staff send them).",
  threads: "A user's private message threads and unread count.",
  jobs: "Background jobs (SRT imports, list edits): their progress; staff list every job and retry failed ones.",
  webhooks:
    "Signed webhooks: an application's endpoints, their deliveries, redelivery and ping; the events themselves are in " +
    "the `webhooks` section.",
  health: "The state of the Worker's bindings, for operators and load balancers.",
};

/** `getV4UsersByUserIdMarkers`: unique because method + path is, and stable for as long as the path is. */
function operationIdOf(method: string, path: string): string {
  const pascal = (s: string) => s.replace(/(?:^|[_.-])([a-z0-9])/gi, (_, c: string) => c.toUpperCase());
  const words = path
    .split("/")
    .filter(Boolean)
    .map((s) => (s.startsWith("{") ? `By${pascal(s.slice(1, -1))}` : pascal(s)));
  return method + words.join("");
}

const ref = (name: ResponseHeader) => ({ $ref: `#/components/headers/${name}` });

function describeResponses(op: Operation, path: string, cached: boolean) {
  const v3 = isV3(path);
  if (cached && !op.responses["304"]) op.responses["304"] = { description: "not modified: `If-None-Match` matched the ETag" };
  for (const [status, response] of Object.entries(op.responses)) {
    if (response.$ref) continue;
    const names: ResponseHeader[] = ["X-Request-Id", "Server-Timing", "X-D1-Bookmark"];
    if (cached && (status === "200" || status === "304")) names.push("ETag");
    if (status === "429") names.push("Retry-After");
    if (v3) names.push("Deprecation", "Link");
    response.headers = { ...Object.fromEntries(names.map((n) => [n, ref(n)])), ...response.headers };
  }
}

/** Each route as its declaration registered it (src/lib/route-registry.ts), by method and documented path. */
function registeredByPath() {
  const byRoute = new Map(registeredRoutes().map((r) => [`${r.method} ${r.path}`, r]));
  return (method: string, path: string) => byRoute.get(`${method.toUpperCase()} ${honoPath(path)}`);
}

export function openApiDocument(app: OpenAPIHono<AppEnv>, origin: string) {
  const doc = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Media Catalogue Service",
      version: "1.0.0",
      description:
        "Catalogue, users and localisation for a video platform with crowd-sourced subtitles. " +
        "Paths end in `.json` (v3 also `.xml`). Errors: `{error, vcode, details?, request_id}`.",
    },
    servers: [{ url: origin }],
  });
  const routeOf = registeredByPath();
  const paths: Record<string, PathItem> = {};
  const tags = new Set<string>();
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, PathItem>)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const properties = routeOf(method, path)?.properties ?? {};
      op.operationId ??= operationIdOf(method, path);
      op.tags ??= properties.tag ? [properties.tag] : [];
      op.security ??= securityOf(properties.security);
      if (!properties.grantOnly) addParameters(op, credentialParameters(method, path, op.security, properties.security));
      describeResponses(op, path, properties.cache === "public" || "304" in op.responses);
      op.tags.forEach((t) => tags.add(t));
    }
    // `.json` put back, but on a route that names its own file or is called bare (`ownExtension`).
    const own = METHODS.some((m) => item[m] && routeOf(m, path)?.properties.ownExtension);
    paths[own ? path : `${path}.json`] = item;
  }
  // Webhooks are keyed by event type; the router mounts them like paths, with a leading slash.
  const webhooks = Object.fromEntries(Object.entries(doc.webhooks ?? {}).map(([name, item]) => [name.replace(/^\//, ""), item]));
  if (Object.keys(webhooks).length) tags.add("webhooks");
  return {
    ...doc,
    webhooks,
    tags: [...tags].sort().map((name) => ({ name, description: TAGS[name] ?? name })),
    paths,
    components: { ...doc.components, securitySchemes: SECURITY_SCHEMES, headers: RESPONSE_HEADERS },
  };
}
