import { fromBase64Url, timingSafeEqual, toBase64Url, utf8 } from "./encoding";

/**
 * 100,000 is the most PBKDF2 iterations Workers' WebCrypto allows in production; local workerd does
 * not enforce it, so a unit test guards this constant. The count is stored in each hash, so it can be raised.
 */
export const PBKDF2_ITERATIONS = 100_000;
const SCHEME = "pbkdf2-sha256";
const KEY_BITS = 256;

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", utf8(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, KEY_BITS);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  return hashPasswordWithSalt(password, crypto.getRandomValues(new Uint8Array(16)), iterations);
}

/**
 * The stored form for a given salt. Only the demo seed (scripts/demo/users.mjs) chooses the salt, so that its
 * SQL is the same on every run and its users log in through this very format; everything else calls hashPassword.
 */
export async function hashPasswordWithSalt(password: string, salt: Uint8Array, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const hash = await derive(password, salt, iterations);
  return `${SCHEME}$${iterations}$${toBase64Url(salt)}$${toBase64Url(hash)}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iter, salt, hash] = stored.split("$");
  const iterations = Number(iter);
  if (scheme !== SCHEME || !salt || !hash || !Number.isInteger(iterations) || iterations > PBKDF2_ITERATIONS) {
    return false;
  }
  const actual = await derive(password, fromBase64Url(salt), iterations);
  return timingSafeEqual(toBase64Url(actual), hash);
}

/** Spends the same time as a real check, so an unknown username is indistinguishable from a wrong password. */
export const DUMMY_HASH = `${SCHEME}$${PBKDF2_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;

/** A password nobody knows, for accounts that may only log in through an external identity. */
export function randomPassword(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(24)));
}
