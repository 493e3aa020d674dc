import { compactVerify, createLocalJWKSet, errors } from "jose";
import { z } from "zod";
import type { ExternalIdentity } from "./accounts";
import { CLOCK_TOLERANCE_SECONDS, Jwk, invalidCredential, notEnabled, readJsonConfig } from "./providers";

/**
 * `store_token`: an app store's signed transaction, a compact JWS (ES256) whose payload is the transaction
 * (`bundleId`, `originalTransactionId`, `appAccountToken`, `signedDate`, `expiresDate`, ... with dates in
 * milliseconds), the form StoreKit 2 and the App Store Server API hand out.
 *
 * Real receipts carry the signing certificate chain in the `x5c` header; this server does not walk that chain
 * but verifies the signature against the public keys configured in STORE_KEYS.
 */
const StoreConfig = z.strictObject({
  bundle_id: z.string().min(1).max(200),
  keys: z.array(Jwk).min(1).max(10),
  /** How old (by `signedDate`) a receipt may be. */
  max_age_seconds: z
    .number()
    .int()
    .min(60)
    .max(30 * 24 * 60 * 60)
    .default(24 * 60 * 60),
});

const ms = z.number().int().nonnegative();
const Transaction = z.looseObject({
  bundleId: z.string().min(1).max(200),
  originalTransactionId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  transactionId: z.string().min(1).max(64).optional(),
  appAccountToken: z.uuid().optional(),
  signedDate: ms,
  expiresDate: ms.optional(),
  revocationDate: ms.optional(),
});

type KeySet = ReturnType<typeof createLocalJWKSet>;
const keySets = new WeakMap<object, KeySet>();

interface VerifiedStoreToken {
  identity: ExternalIdentity;
  /** The signing input (header.payload): the replay key, immune to re-encoded (malleable) ECDSA signatures. */
  signed: string;
  spentUntil: number;
}

/**
 * Signature (ES256 against STORE_KEYS), `bundleId`, not revoked, `signedDate` neither in the future nor older
 * than `max_age_seconds`, and a subscription's `expiresDate` not passed (each ±60 s). The purchasing account is
 * `appAccountToken` (the app's id of its user) or else `originalTransactionId`.
 */
export async function verifyStoreToken(env: Env, jws: string, nowMs = Date.now()): Promise<VerifiedStoreToken> {
  const config = readJsonConfig("STORE_KEYS", env.STORE_KEYS, StoreConfig, "store_token");
  if (!config) throw notEnabled("store");
  let keys = keySets.get(config);
  if (!keys) keySets.set(config, (keys = createLocalJWKSet({ keys: config.keys } as Parameters<typeof createLocalJWKSet>[0])));

  let payload: Uint8Array;
  try {
    ({ payload } = await compactVerify(jws, keys, { algorithms: ["ES256"] }));
  } catch (err) {
    if (err instanceof errors.JWSSignatureVerificationFailed || err instanceof errors.JWKSNoMatchingKey) {
      throw invalidCredential("store", "bad signature");
    }
    if (err instanceof errors.JOSEAlgNotAllowed) throw invalidCredential("store", "signature algorithm must be ES256");
    throw invalidCredential("store", "not a compact JWS");
  }

  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload));
  } catch {
    throw invalidCredential("store", "the payload is not JSON");
  }
  const parsed = Transaction.safeParse(claims);
  if (!parsed.success) {
    throw invalidCredential("store", parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; "));
  }
  const t = parsed.data;
  const tolerance = CLOCK_TOLERANCE_SECONDS * 1000;
  if (t.bundleId !== config.bundle_id) throw invalidCredential("store", "wrong bundleId");
  if (t.revocationDate !== undefined) throw invalidCredential("store", "the transaction was revoked");
  if (t.signedDate > nowMs + tolerance) throw invalidCredential("store", "signedDate is in the future");
  if (t.signedDate + config.max_age_seconds * 1000 + tolerance < nowMs) {
    throw invalidCredential("store", "the receipt is too old; fetch a fresh one from the store");
  }
  if (t.expiresDate !== undefined && t.expiresDate + tolerance < nowMs) throw invalidCredential("store", "expired");

  const account = t.appAccountToken?.toLowerCase() ?? t.originalTransactionId;
  return {
    identity: { kind: "store", ref: `${t.bundleId}:${account}`, emailVerified: false },
    signed: jws.split(".").slice(0, 2).join("."),
    spentUntil: Math.ceil((t.signedDate + config.max_age_seconds * 1000 + tolerance) / 1000) + 1,
  };
}
