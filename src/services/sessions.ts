import { log } from "../lib/log";
import {
  deleteExpiredSession,
  deleteExpiredUserSessions,
  deleteUserSessions,
  type ExpiryCut,
  findSession,
  insertSession,
  sessionQuery,
  type SessionRow,
  touchSession,
} from "../db/queries/sessions";
import { findUserByUsername } from "../db/queries/users";
import type { DB } from "../db/client";
import type { Rider } from "../db/rider";
import { ApiError, VCODE } from "../lib/errors";
import { DUMMY_HASH, verifyPassword } from "../lib/password";
import { hashToken, newSessionToken } from "../lib/tokens";
import type { User } from "../types";

export const badLogin = () => new ApiError(VCODE.badLogin, "invalid username or password");

/** Checks a username and password; unknown users cost the same PBKDF2 work as wrong passwords. */
export async function authenticate(db: DB, username: string, password: string): Promise<User> {
  const user = await findUserByUsername(db, username);
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok) throw badLogin();
  return user;
}

const DAY = 24 * 60 * 60;

/**
 * Session limits (docs/api.md, "API conventions"). Days, not hours: the mobile apps keep their user logged in, so only
 * a device left unused for a month, or a token a year old, has to log in again.
 */
export const SESSION_IDLE_SECONDS = 30 * DAY;
export const SESSION_LIFETIME_SECONDS = 365 * DAY;
/**
 * `last_used_at` is rewritten only when older than this: D1 bills rows written, and a session used all day costs one
 * write a day instead of one per request. The price is that idle expiry is exact only to within this day.
 */
export const SESSION_REFRESH_SECONDS = DAY;

/** Runs work after the response (`executionCtx.waitUntil`); without one, the caller awaits it. */
export type Defer = (work: Promise<unknown>) => void;

const nowSeconds = () => Math.floor(Date.now() / 1000);
const cutAt = (now: number): ExpiryCut => ({ now, idleSince: now - SESSION_IDLE_SECONDS });

/** What the wire calls `expires_at`: the earlier of idle and absolute expiry, Unix seconds. */
const expiryOf = (lastUsedAt: number, expiresAt: number) => Math.min(lastUsedAt + SESSION_IDLE_SECONDS, expiresAt);

async function background(work: Promise<unknown>, defer: Defer | undefined) {
  const guarded = work.catch((err) =>
    // Never the token or its hash: only that bookkeeping failed (the request itself is already answered).
    log("warn", { event: "session", error: "session bookkeeping failed", detail: String(err) }),
  );
  if (defer) defer(guarded);
  else await guarded;
}

type LiveSession = { user: User; expiresAt: number };

/**
 * The live session of a token: one indexed read. An expired session is treated as deleted (and deleted, after the
 * response); a live one whose `last_used_at` is older than SESSION_REFRESH_SECONDS is refreshed, after the response.
 * `now` (Unix seconds) is the clock expiry is decided on; tests fix it to check the boundary second by second.
 */
export async function liveSession(db: DB, token: string, defer?: Defer, now = nowSeconds()): Promise<LiveSession | undefined> {
  const tokenHash = await hashToken(token);
  const cut = cutAt(now);
  return settleSession(db, tokenHash, cut, await findSession(db, tokenHash, cut), defer);
}

/** What a session row read at `cut` means: its bookkeeping (delete when expired, refresh when stale) after the response. */
async function settleSession(db: DB, tokenHash: string, cut: ExpiryCut, row: SessionRow, defer?: Defer) {
  if (!row) return undefined;
  if (!row.live) {
    await background(deleteExpiredSession(db, tokenHash, cut), defer);
    return undefined;
  }
  let lastUsedAt = row.lastUsedAt;
  if (lastUsedAt < cut.now - SESSION_REFRESH_SECONDS) {
    await background(touchSession(db, tokenHash, cut.now, cut.now - SESSION_REFRESH_SECONDS), defer);
    lastUsedAt = cut.now;
  }
  return { user: row.user, expiresAt: expiryOf(lastUsedAt, row.expiresAt) };
}

/** A session check that can ride in a service's first batch (`batchWith`), or run alone when asked first. */
interface PendingSession extends Rider {
  /** The session's user: at once when the check has travelled, else one read of its own. */
  user(): Promise<User | undefined>;
}

/**
 * The same check as `liveSession`, deferred (docs/decisions.md, "One round trip per read"): a read that batches its
 * data carries the session lookup in that batch, so a token-bearing read costs one round trip. `onSettled` hears the
 * answer once, however it came.
 */
export async function pendingSession(
  db: DB,
  token: string,
  defer: Defer | undefined,
  onSettled: (session: LiveSession | undefined) => void,
  now = nowSeconds(),
): Promise<PendingSession> {
  const tokenHash = await hashToken(token);
  const cut = cutAt(now);
  let sent = false;
  let settled: Promise<LiveSession | undefined> | undefined;
  const settle = (row: SessionRow) =>
    (settled = settleSession(db, tokenHash, cut, row, defer).then((session) => {
      onSettled(session);
      return session;
    }));
  return {
    take() {
      if (sent) return undefined;
      sent = true;
      return sessionQuery(db, tokenHash, cut);
    },
    async settle(rows) {
      await settle((rows as NonNullable<SessionRow>[])[0]);
    },
    async user() {
      if (!sent) {
        sent = true;
        return (await settle(await findSession(db, tokenHash, cut)))?.user;
      }
      // Taken by a batch, which settles it before handing back the data (a failed batch failed the request).
      return (await settled)?.user;
    },
  };
}

export async function sessionUser(db: DB, token: string, defer?: Defer) {
  return (await liveSession(db, token, defer))?.user;
}

/** How long this isolate trusts a live session it read, for the answers a token cannot change. */
export const SESSION_MEMO_SECONDS = 60;
const SESSION_MEMO_MAX_ENTRIES = 4096;
/** Token hash → the user of a live session and the second (Unix) the memo stops trusting it. */
const sessionMemo = new Map<string, { user: User; until: number }>();

/**
 * The user of a token, for an answer the token cannot change (a public read answered from the edge cache's copy:
 * docs/decisions.md, "Token reads from the edge cache"): a live session this isolate read in the last
 * SESSION_MEMO_SECONDS is trusted without D1, else it is read (with its bookkeeping) as `sessionUser` reads it. What
 * the memo can get wrong is only whether such an answer says `x-token-ignored` for a session deleted elsewhere, for at
 * most that long; every answer that depends on the user reads the session itself.
 */
export async function sharedReadUser(db: DB, token: string, defer?: Defer, now = nowSeconds()) {
  const tokenHash = await hashToken(token);
  const known = sessionMemo.get(tokenHash);
  if (known && known.until > now) return known.user;
  sessionMemo.delete(tokenHash);
  const cut = cutAt(now);
  const session = await settleSession(db, tokenHash, cut, await findSession(db, tokenHash, cut), defer);
  if (!session) return undefined;
  sessionMemo.set(tokenHash, { user: session.user, until: Math.min(now + SESSION_MEMO_SECONDS, session.expiresAt) });
  // Map order is insertion order: the oldest entries go first.
  for (const oldest of sessionMemo.keys()) {
    if (sessionMemo.size <= SESSION_MEMO_MAX_ENTRIES) break;
    sessionMemo.delete(oldest);
  }
  return session.user;
}

/** A user's sessions are ending: this isolate stops trusting them at once. */
function forgetSessionsOf(userId: number) {
  for (const [hash, entry] of sessionMemo) if (entry.user.id === userId) sessionMemo.delete(hash);
}

type NewSession = { token: string; expiresAt: number };

async function newSessionRow(db: DB, user: User) {
  const token = newSessionToken();
  const now = nowSeconds();
  const insert = insertSession(db, {
    tokenHash: await hashToken(token),
    userId: user.id,
    now,
    expiresAt: now + SESSION_LIFETIME_SECONDS,
  });
  return { insert, now, session: { token, expiresAt: expiryOf(now, now + SESSION_LIFETIME_SECONDS) } };
}

/** A login: the user's expired sessions go in the same batch, so tokens never presented again do not pile up. */
export async function openSession(db: DB, user: User): Promise<NewSession> {
  const { insert, now, session } = await newSessionRow(db, user);
  await db.batch([deleteExpiredUserSessions(db, user.id, cutAt(now)), insert]);
  return session;
}

/** PUT: every session of the user goes, and one new token is issued, in one batch. */
export async function replaceSessions(db: DB, user: User): Promise<NewSession> {
  const { insert, session } = await newSessionRow(db, user);
  forgetSessionsOf(user.id);
  await db.batch([deleteUserSessions(db, user.id), insert]);
  return session;
}

export function closeAllSessions(db: DB, user: User) {
  forgetSessionsOf(user.id);
  return deleteUserSessions(db, user.id);
}

/** Plain-HTTP logins are refused everywhere but local development. */
export function assertSecureTransport(requestUrl: string, environment: string) {
  if (environment === "development") return;
  if (new URL(requestUrl).protocol !== "https:") throw ApiError.forbidden("login requires HTTPS");
}
