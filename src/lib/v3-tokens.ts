import { SignJWT, decodeProtectedHeader, errors, jwtVerify } from "jose";
import { sha256Hex, utf8 } from "./encoding";

/** v3 access tokens live 24 hours (interface: "v3 access token lifetime"). */
export const V3_TOKEN_TTL_SECONDS = 24 * 60 * 60;
const ISSUER = "media-catalogue/v3";

interface V3Claims {
  clientId: number;
  userId?: number;
}

/**
 * The keys of v3 tokens, as the Worker's env holds them (so `c.env` is passed as it is): `V3_TOKEN_SECRET` signs and
 * verifies; `V3_TOKEN_SECRET_PREVIOUS`, set only while a rotation's tokens run out, verifies the tokens whose `kid`
 * names it (docs/decisions.md, "Secret rotation").
 */
export interface V3TokenKeys {
  V3_TOKEN_SECRET: string;
  V3_TOKEN_SECRET_PREVIOUS?: string;
}

/** Key ids already derived, by key: a Worker sees one or two keys, so this stays tiny. */
const keyIds = new Map<string, Promise<string>>();

/**
 * A key's id: the first 8 hex digits of its SHA-256. Derived, so a rotation needs no config beside the keys; it
 * tells an attacker nothing the token's own HMAC does not already let them test a guess against.
 */
export function v3KeyId(secret: string): Promise<string> {
  let id = keyIds.get(secret);
  if (!id) {
    if (keyIds.size >= 8) keyIds.clear();
    id = sha256Hex(secret).then((hex) => hex.slice(0, 8));
    keyIds.set(secret, id);
  }
  return id;
}

export async function issueV3Token(secret: string, claims: V3Claims, now = Math.floor(Date.now() / 1000)) {
  const jwt = new SignJWT({ cid: claims.clientId, ...(claims.userId ? { uid: claims.userId } : {}), scope: "public" })
    .setProtectedHeader({ alg: "HS256", typ: "JWT", kid: await v3KeyId(secret) })
    .setIssuer(ISSUER)
    .setIssuedAt(now)
    .setExpirationTime(now + V3_TOKEN_TTL_SECONDS);
  return jwt.sign(utf8(secret));
}

type V3TokenCheck = { ok: true; claims: V3Claims } | { ok: false; reason: "expired" | "invalid" };

const INVALID_TOKEN = { ok: false, reason: "invalid" } as const;

/**
 * The keys a token may be checked with, chosen by its `kid` only among the configured ones (never fetched, never
 * read as a path): the key whose id it names; none for an id of no configured key or a `kid` that is not a string.
 * Tokens without `kid` were issued before key ids existed, by whichever key was current then: the current key, and
 * the previous one while it is set.
 */
async function candidateKeys(keys: V3TokenKeys, token: string): Promise<string[]> {
  const configured = [keys.V3_TOKEN_SECRET, keys.V3_TOKEN_SECRET_PREVIOUS].filter((k): k is string => typeof k === "string" && k !== "");
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return [];
  }
  if (kid === undefined) return configured;
  if (typeof kid !== "string") return [];
  for (const key of configured) if ((await v3KeyId(key)) === kid) return [key];
  return [];
}

/**
 * Tokens this isolate has verified, until they expire: a v3 read served from the edge cache checks its token on every
 * request (a client-credentials token is what makes it shareable), and the HMAC and key import cost more than the hit
 * itself. Keyed with the configured keys, so a change of keys verifies again. Bounded, oldest out first.
 */
const verified = new Map<string, { keys: string; claims: V3Claims; exp: number }>();
const VERIFIED_MAX_ENTRIES = 1024;

export async function verifyV3Token(keys: V3TokenKeys, token: string): Promise<V3TokenCheck> {
  const keySet = `${keys.V3_TOKEN_SECRET}\n${keys.V3_TOKEN_SECRET_PREVIOUS ?? ""}`;
  const known = verified.get(token);
  if (known && known.keys === keySet && known.exp > Date.now() / 1000) return { ok: true, claims: known.claims };
  const check = await verifyWithKeys(keys, token);
  if (check.ok) {
    verified.delete(token);
    verified.set(token, { keys: keySet, claims: check.claims, exp: check.exp });
    for (const oldest of verified.keys()) {
      if (verified.size <= VERIFIED_MAX_ENTRIES) break;
      verified.delete(oldest);
    }
    return { ok: true, claims: check.claims };
  }
  return check;
}

type Verified = { ok: true; claims: V3Claims; exp: number } | Extract<V3TokenCheck, { ok: false }>;

async function verifyWithKeys(keys: V3TokenKeys, token: string): Promise<Verified> {
  const candidates = await candidateKeys(keys, token);
  for (const [i, key] of candidates.entries()) {
    try {
      const { payload } = await jwtVerify(token, utf8(key), { issuer: ISSUER, algorithms: ["HS256"] });
      if (typeof payload.cid !== "number" || typeof payload.exp !== "number") return INVALID_TOKEN;
      return {
        ok: true,
        claims: { clientId: payload.cid, userId: typeof payload.uid === "number" ? payload.uid : undefined },
        exp: payload.exp,
      };
    } catch (err) {
      // Only a signature that this key did not make sends a kid-less token on to the next key.
      if (err instanceof errors.JWSSignatureVerificationFailed && i < candidates.length - 1) continue;
      return err instanceof errors.JWTExpired ? { ok: false, reason: "expired" } : INVALID_TOKEN;
    }
  }
  return INVALID_TOKEN;
}
