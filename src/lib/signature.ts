import { timingSafeEqual, toHex, utf8 } from "./encoding";

/** Signed requests older or newer than this are refused as stale. */
export const SIGNATURE_MAX_SKEW_SECONDS = 300;

export async function hmacSha1Hex(key: string, message: string | Uint8Array): Promise<string> {
  const k = await crypto.subtle.importKey("raw", utf8(key), { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  return toHex(await crypto.subtle.sign("HMAC", k, typeof message === "string" ? utf8(message) : message));
}

/** The raw query string as sent, minus the `sig` parameter (order and encoding preserved). */
export function queryWithoutSig(rawUrl: string): string {
  const q = rawUrl.indexOf("?");
  if (q < 0) return "";
  const hash = rawUrl.indexOf("#", q);
  const query = rawUrl.slice(q + 1, hash < 0 ? undefined : hash);
  return query
    .split("&")
    .filter((part) => part !== "" && !part.startsWith("sig="))
    .join("&");
}

function signedTarget(rawUrl: string, headerTimestamp?: string) {
  const path = new URL(rawUrl).pathname;
  let query = queryWithoutSig(rawUrl);
  if (headerTimestamp !== undefined) query = query ? `${query}&t=${headerTimestamp}` : `t=${headerTimestamp}`;
  return `${path}${query ? `?${query}` : ""}`;
}

/**
 * Signing versions (docs/decisions.md, "Signed requests and replay"): 1, the published clients' scheme, signs the
 * target and body only; 2 (`sig_v=2` in the query, itself signed) puts the method in front, so a signature made for a
 * GET cannot be sent as a DELETE. Requests whose only credential is the signature must use 2 for writes.
 */
export type SignatureVersion = 1 | 2;

/** The query parameter that names the signing version; absent means 1. */
export const SIGNATURE_VERSION_PARAM = "sig_v";

/**
 * The signed message (docs/spec/wire.md, "Signatures"): path + query (with `t`, without `sig`) + raw body; version 2
 * starts with the method and a space (`DELETE /v4/...`). With the `timestamp` header form the timestamp is appended
 * to the query as `t=`. The body is the bytes as sent: a UTF-8 byte-order mark, a UTF-16 file or CRLF line ends are
 * signed by the client as bytes, so decoding them first (which drops a BOM) would break the signature.
 */
export function signedMessageBytes(
  rawUrl: string,
  body: Uint8Array,
  headerTimestamp?: string,
  signed: { version: SignatureVersion; method: string } = { version: 1, method: "" },
): Uint8Array {
  const method = signed.version === 2 ? `${signed.method.toUpperCase()} ` : "";
  const target = utf8(`${method}${signedTarget(rawUrl, headerTimestamp)}`);
  const message = new Uint8Array(target.length + body.length);
  message.set(target);
  message.set(body, target.length);
  return message;
}

async function signatureMatches(secret: string, message: string | Uint8Array, signature: string): Promise<boolean> {
  return timingSafeEqual(await hmacSha1Hex(secret, message), signature.toLowerCase());
}

/**
 * A secret that rotates with an overlap (docs/decisions.md, "Secret rotation"): the current one, and the one before
 * the last rotation with the unix second its overlap ends (both null once it ended or was ended).
 */
interface RotatingSecret {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: number | null;
}

/** The secrets valid at `now` (unix seconds): the current one first, then the previous one until its expiry. */
export function validSecrets(s: RotatingSecret, now: number): string[] {
  const overlap = s.previousSecret && s.previousSecretExpiresAt !== null && now < s.previousSecretExpiresAt;
  return overlap ? [s.secret, s.previousSecret!] : [s.secret];
}

/**
 * Which of `secrets` made the signature: its index, or -1. Each is compared in constant time and every one is
 * computed, so the time taken does not tell which secret matched.
 */
export async function matchingSecret(secrets: string[], message: string | Uint8Array, signature: string): Promise<number> {
  const matches = await Promise.all(secrets.map((secret) => signatureMatches(secret, message, signature)));
  return matches.indexOf(true);
}
