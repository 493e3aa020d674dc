import { SignJWT, errors, jwtVerify } from "jose";
import { utf8 } from "./encoding";

/** v3 access tokens live 24 hours (interface: "v3 access token lifetime"). */
export const V3_TOKEN_TTL_SECONDS = 24 * 60 * 60;
const ISSUER = "media-catalogue/v3";

export interface V3Claims {
  clientId: number;
  userId?: number;
}

export async function issueV3Token(secret: string, claims: V3Claims, now = Math.floor(Date.now() / 1000)) {
  const jwt = new SignJWT({ cid: claims.clientId, ...(claims.userId ? { uid: claims.userId } : {}), scope: "public" })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(ISSUER)
    .setIssuedAt(now)
    .setExpirationTime(now + V3_TOKEN_TTL_SECONDS);
  return jwt.sign(utf8(secret));
}

export type V3TokenCheck = { ok: true; claims: V3Claims } | { ok: false; reason: "expired" | "invalid" };

export async function verifyV3Token(secret: string, token: string): Promise<V3TokenCheck> {
  try {
    const { payload } = await jwtVerify(token, utf8(secret), { issuer: ISSUER, algorithms: ["HS256"] });
    if (typeof payload.cid !== "number") return { ok: false, reason: "invalid" };
    return { ok: true, claims: { clientId: payload.cid, userId: typeof payload.uid === "number" ? payload.uid : undefined } };
  } catch (err) {
    return { ok: false, reason: err instanceof errors.JWTExpired ? "expired" : "invalid" };
  }
}
