import { fromBase64Url, timingSafeEqual, toHex, utf8 } from "./encoding";

/**
 * Webhook signatures (README.md, "Webhooks"; docs/decisions.md, "Signed webhooks"). `webhook-signature` carries, per
 * signing secret, the Standard Webhooks value `v1,<base64 HMAC-SHA256(key, "<webhook-id>.<timestamp>.<body>")>`, whose
 * key is the bytes the `whsec_<base64>` secret encodes, and, for the deprecation period (`LEGACY_SIGNATURE_UNTIL`),
 * the older `v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>` keyed by the secret's text, all space-separated. A
 * receiver skips values it does not read, so either kind of receiver finds its own; during a secret rotation there is
 * one value of each kind per secret, so a receiver holding either secret accepts the delivery.
 */

/** The legacy `v1=<hex>` value is sent beside the Standard Webhooks one until this date (README.md, "Webhooks"). */
export const LEGACY_SIGNATURE_UNTIL = "2027-06-30";

/** The legacy header's scheme tag. */
const SCHEME = "v1";

/** How far a receiver should accept `webhook-timestamp` from its own clock. */
const WEBHOOK_SIGNATURE_TOLERANCE_SECONDS = 300;

/** The Standard Webhooks secret prefix. */
const SECRET_PREFIX = "whsec_";

async function hmacSha256(key: Uint8Array, message: string): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, utf8(message)));
}

/**
 * The Standard Webhooks key of a secret: the bytes its base64 after `whsec_` encodes. Secrets made before the
 * standard scheme are base64url (`-`, `_`, no padding) and are read as the same bytes; a secret that is not base64 at
 * all (none is generated so) is keyed by its text, so signing never fails.
 */
export function standardKey(secret: string): Uint8Array {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  try {
    const bytes = fromBase64Url(encoded.replace(/=+$/, ""));
    if (bytes.length) return bytes;
  } catch {
    // not base64: fall through
  }
  return utf8(secret);
}

/** The secret in the Standard Webhooks form, `whsec_<standard base64>`: how a secret is shown. */
export function standardSecret(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return `${SECRET_PREFIX}${btoa(bin)}`;
}

/** The legacy value's hex HMAC-SHA256 of `<timestamp>.<body>`, keyed by the secret's text. */
export async function signWebhook(secret: string, timestamp: number | string, body: string): Promise<string> {
  return toHex(await hmacSha256(utf8(secret), `${timestamp}.${body}`));
}

/** The Standard Webhooks signature: base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` keyed by `standardKey(secret)`. */
export async function signStandardWebhook(secret: string, id: string, timestamp: number | string, body: string): Promise<string> {
  let bin = "";
  for (const b of await hmacSha256(standardKey(secret), `${id}.${timestamp}.${body}`)) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** The `webhook-signature` value: one `v1,<base64>` per secret, then one legacy `v1=<hex>` per secret, newest first. */
export async function signatureHeader(secrets: readonly string[], id: string, timestamp: number | string, body: string): Promise<string> {
  const standard = await Promise.all(secrets.map(async (secret) => `${SCHEME},${await signStandardWebhook(secret, id, timestamp, body)}`));
  const legacy = await Promise.all(secrets.map(async (secret) => `${SCHEME}=${await signWebhook(secret, timestamp, body)}`));
  return [...standard, ...legacy].join(" ");
}

/**
 * What a receiver of the legacy value does: the timestamp must be within `toleranceSeconds` of its clock
 * (`nowSeconds`), and any `v1=` value of the header must equal the HMAC of the exact body received, compared in
 * constant time. (A Standard Webhooks receiver uses its library, test/webhooks/standard-webhooks.test.ts.)
 */
export async function verifyWebhookSignature(
  secret: string,
  header: string | null | undefined,
  timestamp: string | number | null | undefined,
  body: string,
  toleranceSeconds = WEBHOOK_SIGNATURE_TOLERANCE_SECONDS,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<boolean> {
  if (!header || timestamp === null || timestamp === undefined) return false;
  const stamp = String(timestamp);
  // The sender writes plain unix seconds; anything else ("1.7e9", " 17...") is refused rather than interpreted.
  if (!/^\d{1,12}$/.test(stamp) || Math.abs(nowSeconds - Number(stamp)) > toleranceSeconds) return false;
  const expected = await signWebhook(secret, stamp, body);
  // Values of other schemes (the Standard Webhooks `v1,`) are skipped.
  return header
    .trim()
    .split(/\s+/)
    .filter((part) => part.startsWith(`${SCHEME}=`))
    .some((part) => timingSafeEqual(part.slice(SCHEME.length + 1).toLowerCase(), expected));
}
