import { isKnownClient, rememberClient } from "../db/queries/login-limits";
import { derivedHmacKey, hmacHex } from "../lib/derived-keys";
import { sha256Hex } from "../lib/encoding";
import { ApiError, VCODE } from "../lib/errors";
import { type RateLimitPolicy, policyField } from "../lib/rate-limit-headers";
import type { User } from "../types";
import type { Deps } from "./deps";
import { type QuotaDeps, takeQuota } from "./rate-limits";
import { authenticate, badLogin } from "./sessions";

/**
 * Login rate limits (counted by src/services/rate-limits.ts; docs/decisions.md, "External identity" and "Rate
 * limits"):
 * - `login-address`, 20 a minute per client: every attempt, before any credential is checked;
 * - `login-account`, 10 a minute: a password login per account *and client*, asked after the password check
 *   (`passwordLogin`), so only a client's own attempts can lock it out of an account: someone else's failures,
 *   from another address, never lock the owner out; an external identity per verified identity (`limitLoginByAccount`);
 * - `login-account-ceiling`, 20 a minute per account across clients: the password logins of clients new to the
 *   account (every failure, and a success from a client that has not logged in to it in 90 days), so a guess spread
 *   over many addresses is slowed, while a client that logged in before still gets in with the right password.
 * Windows are 60 s, aligned to the clock; Retry-After says when the exhausted one ends.
 */
const LOGIN_WINDOW_SECONDS = 60;

/** How long a client that logged in to an account stays known to it: the ceiling does not slow its right password. */
const KNOWN_CLIENT_SECONDS = 90 * 24 * 60 * 60;

/**
 * The client a limit counts: `CF-Connecting-IP` (Cloudflare sets it on every request; only local runs lack it and
 * share one bucket), an IPv6 address cut to its /64: one subscriber usually holds a whole /64, and addresses rotated
 * inside it must not buy fresh limits.
 */
export const clientAddress = (header: (name: string) => string | undefined) => clientOf(header("cf-connecting-ip") ?? "local");

export function clientOf(address: string): string {
  if (!address.includes(":")) return address;
  // An IPv4 address written as IPv6 (::ffff:192.0.2.1) is that IPv4 client, not a /64 shared by all of them.
  const v4 = /:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (v4) return v4[1];
  const [head, tail] = address.toLowerCase().split("::", 2);
  const groups = (s: string | undefined) => (s ? s.split(":") : []);
  const left = groups(head);
  const right = groups(tail);
  const full = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  const prefix = full.slice(0, 4);
  if (prefix.length < 4 || !prefix.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return address;
  return `${prefix.map((g) => parseInt(g, 16).toString(16)).join(":")}::/64`;
}

/** The login policies as `RateLimit-Policy` names them. */
const LOGIN_POLICIES = {
  address: { name: "login-address", quota: 20, window: LOGIN_WINDOW_SECONDS },
  account: { name: "login-account", quota: 10, window: LOGIN_WINDOW_SECONDS },
  // Twice a client's own quota: no single client (a stuck device with an old password) can spend it alone.
  ceiling: { name: "login-account-ceiling", quota: 20, window: LOGIN_WINDOW_SECONDS },
} as const satisfies Record<string, RateLimitPolicy>;

/** The `RateLimit-Policy` every login answers (src/lib/rate-limit-headers.ts), set by the login routes. */
export const LOGIN_POLICY_FIELD = policyField(Object.values(LOGIN_POLICIES));

const ALL = Object.values(LOGIN_POLICIES);

export async function limitLoginByAddress(deps: QuotaDeps, client: string) {
  await takeQuota(deps, LOGIN_POLICIES.address, `ip:${client}`, ALL);
}

/**
 * `account` is a verified external identity (`social:google:<sub>`, `retailer:acme:<ref>`, ...): only its holder can
 * present it, so it is counted before the account is looked up, from any client. Hashed, so the limiter keeps no names.
 */
export async function limitLoginByAccount(deps: QuotaDeps, account: string) {
  await takeQuota(deps, LOGIN_POLICIES.account, `account:${(await sha256Hex(account.toLowerCase())).slice(0, 32)}`, ALL);
}

/** Purpose of the key that tags a login's client (src/lib/derived-keys.ts). */
const LOGIN_CLIENT_INFO = "login-client v1";

/**
 * The account's tag of a client, as `login_clients` keeps it: neither the address nor the same for two accounts
 * sharing it, and keyed, so a copy of the table cannot be matched against a list of addresses by hashing them
 * (docs/decisions.md, "Sessions"). A server without its secret (V3_TOKEN_SECRET) tags none: every client is new.
 */
async function clientTag(env: Pick<Env, "V3_TOKEN_SECRET">, name: string, client: string) {
  const secret = env.V3_TOKEN_SECRET;
  if (!secret) return undefined;
  return hmacHex(await derivedHmacKey(secret, LOGIN_CLIENT_INFO), `${name}\n${client}`, 32);
}

/**
 * A username and password login, limited per (username, client) after the password check. A client that failed 10
 * times in the window gets 429 for that username whatever it sends next, the right password included, so the limit
 * gives its guesses no answer; a client that has not (the owner, elsewhere) logs in as usual. The check that lets a
 * success through counts it too: only that client's. Unknown usernames are counted like known ones, so the limit
 * reveals no account. The caller has counted the attempt against the client (`limitLoginByAddress`).
 *
 * Then the per-account ceiling across clients, for clients new to the account only: one that logged in to it with its
 * password in the last 90 days is never slowed by others' guesses. Once the ceiling is spent, a new client gets 429
 * whatever it sends, the right password too (a 201 there is the answer a spread guess looks for), after the same work
 * either way. A success from a new client makes it known.
 */
export async function passwordLogin(
  deps: Pick<Deps, "db" | "env" | "report">,
  client: string,
  username: string,
  password: string,
): Promise<User> {
  const name = username.toLowerCase();
  const now = Math.floor(Date.now() / 1000);
  const since = now - KNOWN_CLIENT_SECONDS;
  const tag = await clientTag(deps.env, name, client);
  // Asked whatever the password, before it is checked: the answer and its cost must not depend on it.
  const known = tag !== undefined && (await isKnownClient(deps.db, username, tag, since));
  let user: User | undefined;
  try {
    user = await authenticate(deps.db, username, password);
  } catch (err) {
    if (!(err instanceof ApiError && err.vcode === VCODE.badLogin)) throw err;
  }
  const key = `account:${(await sha256Hex(`password:${name}\n${client}`)).slice(0, 32)}`;
  await takeQuota(deps, LOGIN_POLICIES.account, key, ALL);
  if (!known) await takeQuota(deps, LOGIN_POLICIES.ceiling, `account:${(await sha256Hex(`password:${name}`)).slice(0, 32)}`, ALL);
  if (!user) throw badLogin();
  if (tag !== undefined) await rememberClient(deps.db, user.id, tag, since, now);
  return user;
}
