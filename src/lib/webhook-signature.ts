import { timingSafeEqual, toHex, utf8 } from "./encoding";

/**
 * Webhook signatures (README.md, "Webhooks"; docs/decisions.md, "Signed webhooks"): `webhook-signature: v1=<hex
 * HMAC-SHA256(secret, "<timestamp>.<body>")>`, with `webhook-timestamp` the unix seconds of the attempt. Signing the
 * timestamp with the body lets a receiver refuse a replayed request; during a secret rotation the header carries one
 * `v1=` value per secret, space-separated, so a receiver holding either secret accepts it.
 */

/** The header's scheme tag: a later scheme would get another tag. */
const SCHEME = "v1";

/** How far a receiver should accept `webhook-timestamp` from its own clock. */
export const WEBHOOK_SIGNATURE_TOLERANCE_SECONDS = 300;

export async function signWebhook(secret: string, timestamp: number | string, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", utf8(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return toHex(await crypto.subtle.sign("HMAC", key, utf8(`${timestamp}.${body}`)));
}

/** The `webhook-signature` value: one `v1=<hex>` per secret, newest first. */
export async function signatureHeader(secrets: readonly string[], timestamp: number | string, body: string): Promise<string> {
  const values = await Promise.all(secrets.map(async (secret) => `${SCHEME}=${await signWebhook(secret, timestamp, body)}`));
  return values.join(" ");
}

/**
 * What a receiver does: the timestamp must be within `toleranceSeconds` of its clock (`nowSeconds`), and any `v1`
 * value of the header must equal the HMAC of the exact body received, compared in constant time.
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
  // Values of other schemes are skipped, so a later scheme can be added beside v1 without breaking receivers.
  return header
    .trim()
    .split(/\s+/)
    .filter((part) => part.startsWith(`${SCHEME}=`))
    .some((part) => timingSafeEqual(part.slice(SCHEME.length + 1).toLowerCase(), expected));
}
