import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { ApiError } from "../lib/errors";
import { type Defer, pendingSession, sessionUser } from "../services/sessions";
import type { AppEnv } from "../types";

type TokenSource = { req: { query(k: string): string | undefined; header(k: string): string | undefined } };

/** `token=` (the interface's form) or `Authorization: Bearer` (what newer clients send). */
export function requestToken(c: TokenSource) {
  const query = c.req.query("token");
  if (query) return query;
  const auth = c.req.header("authorization");
  const m = auth ? /^Bearer\s+(\S+)$/i.exec(auth) : null;
  return m?.[1];
}

/** Says on a public read that the user token sent was not used (docs/api.md, "What the API tolerates"). */
const TOKEN_IGNORED_HEADER = "x-token-ignored";

/** `waitUntil` of the request when the runtime gives one (Hono's getter throws otherwise): work after the response. */
export function deferOf(c: { executionCtx: { waitUntil(p: Promise<unknown>): void } }): Defer | undefined {
  try {
    const ctx = c.executionCtx;
    return (work) => ctx.waitUntil(work);
  } catch {
    return undefined;
  }
}

/** Session tokens are 32 random bytes in base64url (43 characters); `None` or `undefined` cannot match a session, so no D1 read. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,200}$/;

/**
 * The token sent when it could be a session token (`None`, empty or malformed: none): the viewer a playback grant is
 * bound to (src/lib/playback-grant.ts), compared as sent, so checking it reads no session.
 */
export function viewerToken(c: TokenSource): string | undefined {
  const token = requestToken(c);
  return token && TOKEN_SHAPE.test(token) ? token : undefined;
}

/**
 * Reads that declare `sessionInBatch` (src/lib/route-properties.ts) check the session in their own first D1 batch
 * (docs/decisions.md, "One round trip per read"). They are public reads, so the user only widens what they may see
 * (or nothing), and nothing before the handler needs it. Everywhere else the session is read first.
 */
const carriesSession = (c: Context<AppEnv>) =>
  (c.req.method === "GET" || c.req.method === "HEAD") && c.get("route")?.route.properties.sessionInBatch === true;

/**
 * Loads the user of a session token when one is sent. Sessions are read from D1 on every request that reaches a
 * route, never from KV, so a deleted session stops working at once (a token read the edge cache answers from its
 * anonymous copy uses `sharedReadUser`: docs/decisions.md, "Token reads from the edge cache"); an expired one is the same as a deleted one (src/services/sessions.ts
 * refreshes `last_used_at` and deletes expired rows after the response). A token that matches no live session (or
 * `token=` with no value) does not end the request here: a public read answers as for an anonymous caller and says
 * so in `x-token-ignored` (yt-dlp sends `token=None` when it is not logged in), while every route that needs a user
 * refuses it through `missingUser` (401, vcode 11 for a dead token). On the reads that declare `sessionInBatch`
 * the check is not run here: it rides in the handler's first D1 batch (`deps.session`), with the same answer and bookkeeping.
 */
export const loadUser = createMiddleware<AppEnv>(async (c, next) => {
  const token = requestToken(c);
  // A playback grant is bound to the token as sent (`viewerToken`): no session to read.
  if (token && c.get("route")?.route.properties.grantOnly) return next();
  let pending: AppEnv["Variables"]["pendingSession"];
  if (token && TOKEN_SHAPE.test(token) && carriesSession(c)) {
    pending = await pendingSession(c.get("db"), token, deferOf(c), (s) => settleUser(c, s?.user));
    c.set("pendingSession", pending);
  } else {
    await checkToken(c);
  }
  await next();
  // A request that ended before its read (a 400, a 404 for a malformed id) still says whether its token was used.
  if (pending) await pending.user();
  sayIgnoredToken(c);
});

/** The user of a live session, or why the token sent was not used. */
function settleUser(c: Context<AppEnv>, user: AppEnv["Variables"]["user"]) {
  if (user) c.set("user", user);
  else c.set("ignoredToken", "invalid");
}

/**
 * The session check of a request, read at once: sets `user`, or `ignoredToken` for a dead, malformed or empty
 * token. `loadUser` runs it before the handler; the edge cache runs it, with `sharedReadUser`, for a token read it
 * answers from its copy.
 */
export async function checkToken(c: Context<AppEnv>, read: typeof sessionUser = sessionUser) {
  const token = requestToken(c);
  if (token) settleUser(c, TOKEN_SHAPE.test(token) ? await read(c.get("db"), token, deferOf(c)) : undefined);
  else if (c.req.query("token") === "") c.set("ignoredToken", "empty");
}

/** `x-token-ignored` on the answer when the token sent was not used (a 401 says it in its body instead). */
export function sayIgnoredToken(c: Context<AppEnv>) {
  const ignored = c.get("ignoredToken");
  if (ignored && c.res.status !== 401) c.res.headers.set(TOKEN_IGNORED_HEADER, ignored);
}

/** The error for a route that needs a user and has none: a dead token is named as such, no token is "required". */
export function missingUser(c: { get(key: "ignoredToken"): "invalid" | "empty" | undefined }) {
  return c.get("ignoredToken") === "invalid" ? ApiError.invalidSession() : ApiError.tokenRequired();
}

export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.get("user")) throw missingUser(c);
  return next();
});

/** Staff only: no token 401 (vcode 4500), any other user 403 (vcode 5403). */
export const requireStaff = createMiddleware<AppEnv>(async (c, next) => {
  const user = c.get("user");
  if (!user) throw missingUser(c);
  if (!user.staff) throw ApiError.forbidden("only staff may do this");
  return next();
});
