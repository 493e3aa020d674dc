import { env } from "cloudflare:workers";
import { CompactSign, type CryptoKey, type JWK, SignJWT, generateKeyPair, importJWK } from "jose";
import { eq } from "drizzle-orm";
import { users } from "../../src/db/schema";
import { api, db, randomAddress } from ".";
import { hmacSha256Hex } from "../../src/services/identity/retailer";

interface TestProvider {
  name: string;
  issuer: string;
  alg: string;
  kid: string;
  key: JWK;
}
/** The users row of a session's wire user id: what a login made, linked or left alone. */
export const userRow = async (id: string) =>
  (await db()
    .select()
    .from(users)
    .where(eq(users.id, parseInt(id, 10)))
    .get())!;

/** The test run's identity configuration (vitest.config.ts): names, issuers and private keys. */
const T = JSON.parse(env.TEST_IDENTITY) as {
  audience: string;
  social: TestProvider;
  idp: TestProvider;
  retailer: { name: string; secret: string };
  store: { bundleId: string; maxAgeSeconds: number; key: JWK };
};
export const TEST_AUDIENCE = T.audience;
export const TEST_SOCIAL = T.social;
export const TEST_IDP = T.idp;
export const TEST_RETAILER = T.retailer;
export const TEST_STORE = T.store;
const now = () => Math.floor(Date.now() / 1000);

let seq = 0;
/** A subject and an email nobody else in the run uses. */
export function uniquePerson(prefix = "p") {
  const id = `${prefix}${Date.now().toString(36)}${(seq++).toString(36)}`;
  return { sub: `sub-${id}`, email: `${id}@mail.test`, id };
}

export interface IdTokenOptions {
  sub?: string;
  email?: string | null;
  email_verified?: unknown;
  name?: string;
  picture?: string;
  iss?: string;
  aud?: string | string[];
  /** Seconds from now (negative: already expired). */
  expiresIn?: number;
  /** Another key to sign with (a key the server does not know). */
  key?: CryptoKey;
  /** The header's alg when signing with another key (default: the provider's). */
  alg?: string;
  kid?: string;
}

/** An OpenID Connect ID token of the test social network (`social`) or identity provider (`idp`). */
export async function idToken(kind: "social" | "idp", o: IdTokenOptions = {}) {
  const p = kind === "social" ? TEST_SOCIAL : TEST_IDP;
  const key = o.key ?? ((await importJWK(p.key, p.alg)) as CryptoKey);
  const claims: Record<string, unknown> = { email_verified: "email_verified" in o ? o.email_verified : true };
  if (o.email !== null) claims.email = o.email ?? `${o.sub ?? "someone"}@mail.test`;
  if (o.name) claims.name = o.name;
  if (o.picture) claims.picture = o.picture;
  const iat = now() - 5;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: o.alg ?? p.alg, kid: o.kid ?? p.kid })
    .setIssuer(o.iss ?? p.issuer)
    .setAudience(o.aud ?? TEST_AUDIENCE)
    .setSubject(o.sub ?? uniquePerson().sub)
    .setIssuedAt(iat)
    .setExpirationTime(now() + (o.expiresIn ?? 600))
    .sign(key);
}

/** A key pair the server has never seen (for wrongly signed credentials). */
export const strangerKey = async (alg: string) => (await generateKeyPair(alg)).privateKey;

export interface RetailerOptions {
  retailer?: string;
  user_ref?: string;
  email?: string;
  name?: string;
  expires?: number;
  secret?: string;
}

/** `retailer=...&user_ref=...&expires=...&sig=<hex HMAC-SHA256>`, signed with the test retailer's secret. */
export async function retailerParams(o: RetailerOptions = {}) {
  const q = new URLSearchParams({ retailer: o.retailer ?? TEST_RETAILER.name, user_ref: o.user_ref ?? uniquePerson("r").id });
  if (o.email) q.set("email", o.email);
  if (o.name) q.set("name", o.name);
  q.set("expires", String(o.expires ?? now() + 300));
  const signed = q.toString();
  return `${signed}&sig=${await hmacSha256Hex(o.secret ?? TEST_RETAILER.secret, signed)}`;
}

export interface StoreOptions {
  transaction?: Record<string, unknown>;
  key?: CryptoKey;
  alg?: string;
}

/** A signed app store transaction (compact JWS, ES256) for the test bundle; dates in milliseconds. */
export async function storeToken(o: StoreOptions = {}) {
  const transaction = {
    bundleId: TEST_STORE.bundleId,
    productId: "test.subscription",
    transactionId: String(Date.now()) + String(seq++),
    originalTransactionId: `20000${Date.now()}${seq++}`,
    appAccountToken: crypto.randomUUID(),
    purchaseDate: Date.now() - 1000,
    signedDate: Date.now() - 1000,
    expiresDate: Date.now() + 86400_000,
    ...o.transaction,
  };
  const alg = o.alg ?? "ES256";
  const key = o.key ?? ((await importJWK(TEST_STORE.key, "ES256")) as CryptoKey);
  const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(transaction)))
    .setProtectedHeader({ alg, x5c: ["MIIB...leaf", "MIIB...intermediate"] })
    .sign(key);
  return { jws, transaction };
}

type Session = { token: string; user: { id: string; username: string; name: string; email: string; images: Record<string, unknown> } };

/** POST /v5/sessions.json with a body, from a fresh address unless one is given. */
export async function postSession(json: unknown, opts: { address?: string; token?: string } = {}) {
  const headers: Record<string, string> = { "cf-connecting-ip": opts.address ?? randomAddress() };
  const path = opts.token ? `/v5/sessions.json?token=${encodeURIComponent(opts.token)}` : "/v5/sessions.json";
  return api(path, { method: "POST", json, headers });
}

export async function sessionOf(res: Response): Promise<Session> {
  if (res.status !== 201) throw new Error(`expected 201, got ${res.status}: ${await res.text()}`);
  return (await res.json()) as Session;
}
