import { SELF } from "cloudflare:test";
import { expect } from "vitest";
import { env } from "cloudflare:workers";
import { createDb } from "../../src/db/client";
import { applications, users } from "../../src/db/schema";
import { hashPassword } from "../../src/lib/password";
import { hmacSha1Hex, signedMessageBytes } from "../../src/lib/signature";
import { checkContract } from "./contracts";

export const ORIGIN = "https://api.test";
export const db = () => createDb(env.DB);

/** A random client address (198.18.0.0/15, the benchmarking range). */
export const randomAddress = () => {
  const [a, b, c] = crypto.getRandomValues(new Uint8Array(3));
  return `198.${18 + (a & 1)}.${b}.${c}`;
};

/** Secrets of the applications tests create, so `api()` can sign as they would. */
const SECRETS = new Map<string, string>();

/** A body's bytes when they can be known before sending (what a client signs); undefined for streams and forms. */
function bodyBytes(body: BodyInit | null | undefined): Uint8Array | undefined {
  if (body === undefined || body === null) return new Uint8Array();
  if (typeof body === "string") return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return undefined;
}

/**
 * Signs like a real application client (the `timestamp`/`signature` headers) when the URL names an application a
 * test created and the test did not sign, or ask not to sign, itself: official-only routes need a signature. Writes
 * to the webhook routes, where the signature is the only credential, sign their method (`sig_v=2`) with a `nonce`,
 * as docs/api.md ("Signed requests") tells clients; `signVersion` chooses otherwise. Returns the URL to send.
 */
async function signAsClient(url: string, method: string, headers: Headers, body: BodyInit | null | undefined, signVersion?: 1 | 2) {
  const u = new URL(url);
  const secret = SECRETS.get(u.searchParams.get("app") ?? "");
  if (!secret || u.searchParams.has("sig") || headers.has("signature")) return url;
  const write = method !== "GET" && method !== "HEAD";
  const bytes = write ? bodyBytes(body) : new Uint8Array();
  if (!bytes) return url;
  const version = signVersion ?? (write && u.pathname.startsWith("/v4/webhooks") ? 2 : 1);
  if (version === 2) {
    u.searchParams.set("sig_v", "2");
    u.searchParams.set("nonce", crypto.randomUUID());
    url = u.href;
  }
  const t = String(Math.floor(Date.now() / 1000));
  headers.set("timestamp", t);
  headers.set("signature", await hmacSha1Hex(secret, signedMessageBytes(url, bytes, t, { version, method })));
  return url;
}

/** What `api()` takes besides fetch's own init: the body as JSON, and who is calling, written as a client would. */
export interface ApiInit extends RequestInit {
  json?: unknown;
  /** A session token, sent as `token=` (or as `Authorization: Bearer` with `bearer`). */
  token?: string;
  bearer?: boolean;
  /** An application's id, sent as `app=`; the request is then signed as it, unless `unsigned`. */
  app?: string;
  unsigned?: boolean;
  /** The signing version `api()` signs with (default: 2 for webhook writes, else 1). */
  signVersion?: 1 | 2;
  /** Query parameters added to the path's own. */
  query?: Record<string, string>;
}

/**
 * A request's path with what it sends, for tests that build a request before they know who sends it (the
 * authorization tables send one target as each caller in turn).
 */
export interface Target extends Pick<ApiInit, "json" | "query"> {
  path: string;
}

/** Who sends a request, as `api()` takes it. */
export type Sender = Pick<ApiInit, "token" | "app" | "unsigned">;

/** The URL with `query`, `token=` and `app=` added, in that order; untouched (not re-encoded) when there are none. */
function withParams(url: string, { token, bearer, app, query }: ApiInit) {
  if (!query && !app && (!token || bearer)) return url;
  const u = new URL(url);
  for (const [k, v] of Object.entries(query ?? {})) u.searchParams.set(k, v);
  if (token && !bearer) u.searchParams.set("token", token);
  if (app) u.searchParams.set("app", app);
  return u.href;
}

/**
 * Calls the Worker over HTTPS (login refuses plain HTTP outside development): the one way tests make a request.
 * Each call comes from a random CF-Connecting-IP unless the test sets one, so the per-address login limit
 * (20 a minute) only bites tests that mean it to. Requests naming an application a test created are signed with
 * its secret unless `unsigned` is set. Every 2xx JSON answer is checked against its route's declared schema
 * (./contracts.ts).
 */
export async function api(target: string | Target, init: ApiInit = {}) {
  const { path, ...sent } = typeof target === "string" ? { path: target } : target;
  const { json, unsigned, signVersion, token, bearer, app, query, ...rest } = { ...sent, ...init };
  const headers = new Headers(rest.headers);
  if (json !== undefined) headers.set("content-type", "application/json");
  if (!headers.has("cf-connecting-ip")) headers.set("cf-connecting-ip", randomAddress());
  if (token && bearer) headers.set("authorization", `Bearer ${token}`);
  const unsignedUrl = withParams(path.startsWith("http") ? path : `${ORIGIN}${path}`, { token, bearer, app, query });
  const body = json !== undefined ? JSON.stringify(json) : rest.body;
  const url = unsigned ? unsignedUrl : await signAsClient(unsignedUrl, (rest.method ?? "GET").toUpperCase(), headers, body, signVersion);
  const res = await SELF.fetch(url, { ...rest, headers, body });
  await checkContract((rest.method ?? "GET").toUpperCase(), url, res);
  return res;
}

/** A request that must answer 200 (the target named if not): its JSON body. */
export async function okJson(target: string | Target, init: ApiInit = {}) {
  const res = await api(target, init);
  expect(res.status, typeof target === "string" ? target : target.path).toBe(200);
  return res.json();
}

let seq = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(seq++).toString(36)}`;

/** A user whose password is `<username>-password`; hashed cheaply, as only logins test the real cost. */
export async function createUser(opts: { username?: string; staff?: boolean; emailVerified?: boolean } = {}) {
  const username = opts.username ?? unique("user");
  const password = `${username}-password`;
  const [user] = await db()
    .insert(users)
    .values({
      username,
      email: `${username}@example.com`,
      name: username,
      passwordHash: await hashPassword(password, 1000),
      staff: opts.staff ?? false,
      emailVerified: opts.emailVerified ?? false,
    })
    .returning();
  return { user, password, id: `${user.id}u` };
}

export async function login(username: string, password = `${username}-password`) {
  const res = await api("/v5/sessions.json", { method: "POST", json: { username, password } });
  if (res.status !== 201) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** A user with an open session: `token` authenticates as them. */
export async function signedInUser(opts: { staff?: boolean } = {}) {
  const u = await createUser(opts);
  return { ...u, token: await login(u.user.username, u.password) };
}

export type User = Awaited<ReturnType<typeof signedInUser>>;

/** The callers a catalogue-write test sends as: staff, the manager of what it writes, and a user with no part in it. */
export async function staffManagerOther() {
  const [staff, manager, other] = await Promise.all([signedInUser({ staff: true }), signedInUser(), signedInUser()]);
  return { staff, manager, other };
}

export async function createApplication(opts: { official?: boolean; unhosted?: boolean; secret?: string } = {}) {
  const [app] = await db()
    .insert(applications)
    .values({
      name: unique("app"),
      official: opts.official ?? false,
      unhostedAccess: opts.unhosted ?? false,
      secret: opts.secret ?? unique("secret"),
    })
    .returning();
  SECRETS.set(`${app.id}a`, app.secret);
  return { ...app, wireId: `${app.id}a` };
}

/** D1 rows read by a response, from its Server-Timing header. */
export function rowsRead(res: Response): number {
  const m = /d1-rows-read;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "");
  if (!m) throw new Error("no d1-rows-read in Server-Timing");
  return Number(m[1]);
}

/**
 * The error body of a response, after checking that it names the request (`request_id` equals `x-request-id`);
 * returned without `request_id`, so tests compare the rest exactly.
 */
export async function errorBody(res: Response) {
  const { request_id, ...body } = (await res.json()) as {
    error: string;
    vcode: number;
    request_id?: string;
    details?: { field: string; message: string }[];
  };
  expect(request_id, "error bodies carry the request id").toBe(res.headers.get("x-request-id"));
  return body;
}
