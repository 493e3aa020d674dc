import { z } from "zod";
import { timingSafeEqual, toHex, utf8 } from "../../lib/encoding";
import type { ExternalIdentity } from "./accounts";
import { CLOCK_TOLERANCE_SECONDS, NAME, invalidCredential, notEnabled, readJsonConfig } from "./providers";

/**
 * `retailer_params`: a retailer's signed login parameters, a URL-encoded string
 *
 *   retailer=<name>&user_ref=<their id of the user>[&email=<email>][&name=<display name>]&expires=<unix s>&sig=<hex>
 *
 * where `sig` is the lower-case hex HMAC-SHA256, keyed by the retailer's secret (RETAILER_SECRETS), over every
 * byte before `&sig=` exactly as sent. The parameters are single-use and live at most one hour.
 */
const RETAILER_MAX_LIFETIME_SECONDS = 60 * 60;

const RetailerKey = z.string().min(32, "at least 32 characters").max(512);

/**
 * One key per retailer, or two while a rotation lasts (`["<new>", "<old>"]`: either signs; docs/operations.md,
 * "Rotating secrets"), read as a list either way.
 */
const RetailerSecrets = z
  .record(NAME, z.union([RetailerKey.transform((k) => [k]), z.array(RetailerKey).min(1).max(2)]))
  .refine((r) => Object.keys(r).length > 0, "name at least one retailer");

const Params = z.strictObject({
  retailer: NAME,
  user_ref: z.string().min(1).max(128),
  email: z.email().max(254).optional(),
  name: z.string().trim().min(1).max(100).optional(),
  expires: z.string().regex(/^\d{1,12}$/, "unix seconds"),
});

const SIGNED = /^(.+)&sig=([0-9a-fA-F]{64})$/s;

export async function hmacSha256Hex(key: string, message: string): Promise<string> {
  const k = await crypto.subtle.importKey("raw", utf8(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return toHex(await crypto.subtle.sign("HMAC", k, utf8(message)));
}

interface VerifiedRetailerParams {
  identity: ExternalIdentity;
  /** What was signed: the replay key. */
  signed: string;
  /** Unix seconds after which the parameters are refused anyway (so the replay record may go). */
  spentUntil: number;
}

/** Checks form, retailer, signature (timing-safe) and expiry, in that order; every failure is a 401 naming why. */
export async function verifyRetailerParams(env: Env, raw: string, nowSeconds = Date.now() / 1000): Promise<VerifiedRetailerParams> {
  const secrets = readJsonConfig("RETAILER_SECRETS", env.RETAILER_SECRETS, RetailerSecrets, "retailer_params", {
    secret: true,
  });
  if (!secrets) throw notEnabled("retailer");

  const m = SIGNED.exec(raw);
  if (!m) throw invalidCredential("retailer", "expected <parameters>&sig=<64 hex digits>");
  const signed = m[1];
  const entries = [...new URLSearchParams(signed)];
  const keys = entries.map(([k]) => k);
  const repeated = keys.find((k, i) => keys.indexOf(k) !== i);
  if (repeated) throw invalidCredential("retailer", `parameter "${repeated}" given twice`);
  const parsed = Params.safeParse(Object.fromEntries(entries));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "parameters"} ${i.message}`.trim());
    throw invalidCredential("retailer", problems.join("; "));
  }
  const p = parsed.data;

  const retailerKeys = Object.hasOwn(secrets, p.retailer) ? secrets[p.retailer] : undefined;
  if (!retailerKeys) throw invalidCredential("retailer", "unknown retailer");
  // Every key compared (each in constant time), so the time taken does not tell which one signed.
  const sig = m[2].toLowerCase();
  const matches = await Promise.all(retailerKeys.map(async (key) => timingSafeEqual(await hmacSha256Hex(key, signed), sig)));
  if (!matches.includes(true)) throw invalidCredential("retailer", "bad signature");

  const expires = Number(p.expires);
  if (expires + CLOCK_TOLERANCE_SECONDS < nowSeconds) throw invalidCredential("retailer", "expired");
  if (expires > nowSeconds + RETAILER_MAX_LIFETIME_SECONDS + CLOCK_TOLERANCE_SECONDS) {
    throw invalidCredential("retailer", `expires more than ${RETAILER_MAX_LIFETIME_SECONDS} s ahead`);
  }

  return {
    identity: {
      kind: "retailer",
      ref: `${p.retailer}:${p.user_ref}`,
      email: p.email?.toLowerCase(),
      // A retailer's email is an assertion we cannot check: it never links an existing account.
      emailVerified: false,
      name: p.name,
    },
    signed,
    spentUntil: expires + CLOCK_TOLERANCE_SECONDS + 1,
  };
}
