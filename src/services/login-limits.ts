import { sha256Hex } from "../lib/encoding";
import { ApiError } from "../lib/errors";
import type { Deps } from "./deps";

/**
 * Login rate limits (Workers Rate Limiting bindings, `[[ratelimits]]` in wrangler.toml): every login attempt
 * counts, per client address (LOGIN_BY_IP, 20 a minute) and per account (LOGIN_BY_ACCOUNT, 10 a minute).
 * The binding does not tell when its window ends, so Retry-After is the window: 60 s.
 */
export const LOGIN_RETRY_AFTER_SECONDS = 60;

/** Cloudflare sets CF-Connecting-IP on every request; only local runs lack it (they share one bucket). */
export const clientAddress = (header: (name: string) => string | undefined) => header("cf-connecting-ip") ?? "local";

export async function limitLoginByAddress({ env }: Pick<Deps, "env">, address: string) {
  const { success } = await env.LOGIN_BY_IP.limit({ key: `ip:${address}` });
  if (!success) throw ApiError.rateLimited(LOGIN_RETRY_AFTER_SECONDS);
}

/**
 * `account` names who is being logged in: `password:<username>` before the password check, or the verified
 * external identity (`social:google:<sub>`, `retailer:acme:<ref>`, ...). Hashed, so the limiter keeps no names.
 */
export async function limitLoginByAccount({ env }: Pick<Deps, "env">, account: string) {
  const key = `account:${(await sha256Hex(account.toLowerCase())).slice(0, 32)}`;
  const { success } = await env.LOGIN_BY_ACCOUNT.limit({ key });
  if (!success) throw ApiError.rateLimited(LOGIN_RETRY_AFTER_SECONDS);
}
