import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createDb } from "../../src/db/client";
import { applications, users } from "../../src/db/schema";
import { hashPassword } from "../../src/lib/password";

export const ORIGIN = "https://api.test";
export const db = () => createDb(env.DB);

/** A random client address (198.18.0.0/15, the benchmarking range). */
export const randomAddress = () => {
  const [a, b, c] = crypto.getRandomValues(new Uint8Array(3));
  return `198.${18 + (a & 1)}.${b}.${c}`;
};

/**
 * Calls the Worker over HTTPS (login refuses plain HTTP outside development). Each call comes from a random
 * CF-Connecting-IP unless the test sets one, so the per-address login limit (20 a minute) only bites tests
 * that mean it to.
 */
export function api(path: string, init: RequestInit & { json?: unknown } = {}) {
  const { json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined) headers.set("content-type", "application/json");
  if (!headers.has("cf-connecting-ip")) headers.set("cf-connecting-ip", randomAddress());
  return SELF.fetch(path.startsWith("http") ? path : `${ORIGIN}${path}`, {
    ...rest,
    headers,
    body: json !== undefined ? JSON.stringify(json) : rest.body,
  });
}

let seq = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(seq++).toString(36)}`;

/** A user whose password is `<username>-password`; hashed cheaply, as only logins test the real cost. */
export async function createUser(opts: { username?: string; staff?: boolean } = {}) {
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
  return { ...app, wireId: `${app.id}a` };
}

/** D1 rows read by a response, from its Server-Timing header. */
export function rowsRead(res: Response): number {
  const m = /d1-rows-read;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "");
  if (!m) throw new Error("no d1-rows-read in Server-Timing");
  return Number(m[1]);
}

export async function errorBody(res: Response) {
  return (await res.json()) as { error: string; vcode: number; details?: { field: string; message: string }[] };
}
