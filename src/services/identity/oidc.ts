import { log } from "../../lib/log";
import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { ApiError } from "../../lib/errors";
import type { ExternalIdentity } from "./accounts";
import { CLOCK_TOLERANCE_SECONDS, type OidcKind, type OidcProvider, invalidCredential, issuerList, oidcProviders } from "./providers";

type KeySet = JWTVerifyGetKey;

const DEFAULT_ALGORITHMS = ["RS256", "ES256"];

/**
 * Key sets at module level, so they live as long as the isolate and serve many requests: remote ones by URL
 * (jose caches the fetched JWKS for 10 minutes and refetches at most every 30 s for an unknown `kid`),
 * inline ones by the parsed config object (stable while the config value is unchanged).
 */
const remoteKeySets = new Map<string, KeySet>();
const localKeySets = new WeakMap<object, KeySet>();

function keySet(p: OidcProvider): KeySet {
  if (p.jwks) {
    let set = localKeySets.get(p.jwks);
    if (!set) localKeySets.set(p.jwks, (set = createLocalJWKSet(p.jwks as Parameters<typeof createLocalJWKSet>[0])));
    return set;
  }
  const url = p.jwks_url!;
  let set = remoteKeySets.get(url);
  if (!set) remoteKeySets.set(url, (set = createRemoteJWKSet(new URL(url), { timeoutDuration: 3000 })));
  return set;
}

/** jose failures → a 401 naming the reason, or a 503 when the provider's keys cannot be fetched. */
function failure(kind: OidcKind, provider: OidcProvider, err: unknown): ApiError {
  if (err instanceof errors.JWTExpired) return invalidCredential(kind, "token expired");
  if (err instanceof errors.JWTClaimValidationFailed) {
    const reason =
      err.claim === "aud"
        ? "wrong audience"
        : err.claim === "iss"
          ? "wrong issuer"
          : err.claim === "nbf"
            ? "token not yet valid"
            : `missing or invalid "${err.claim}" claim`;
    return invalidCredential(kind, reason);
  }
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid || !(err instanceof errors.JOSEError)) {
    log("error", { event: "jwks", provider: provider.name, jwks: provider.jwks_url, error: String(err) });
    return ApiError.unavailable(`the signing keys of identity provider "${provider.name}" are unavailable; try again later`);
  }
  if (err instanceof errors.JWSSignatureVerificationFailed || err instanceof errors.JWKSNoMatchingKey) {
    return invalidCredential(kind, "bad signature");
  }
  if (err instanceof errors.JOSEAlgNotAllowed) return invalidCredential(kind, "signature algorithm not accepted");
  return invalidCredential(kind, "malformed token");
}

const str = (v: unknown, max: number) => (typeof v === "string" && v.trim() && v.length <= max ? v.trim() : undefined);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Verifies an OpenID Connect ID token of a configured provider (chosen by its `iss`): signature, issuer,
 * audience, expiry (±60 s), `sub`, and a verified email (`email_verified` must be the boolean true).
 */
export async function verifyIdToken(env: Env, kind: OidcKind, token: string): Promise<ExternalIdentity> {
  const providers = oidcProviders(env, kind);
  let unverified: JWTPayload;
  try {
    unverified = decodeJwt(token);
  } catch {
    throw invalidCredential(kind, "not a JWT");
  }
  const provider = providers.find((p) => typeof unverified.iss === "string" && issuerList(p).includes(unverified.iss));
  if (!provider) throw invalidCredential(kind, "issuer not accepted");

  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keySet(provider), {
      issuer: provider.issuer,
      audience: provider.audience,
      algorithms: provider.algorithms ?? DEFAULT_ALGORITHMS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ["sub", "exp", "iat"],
    }));
  } catch (err) {
    throw failure(kind, provider, err);
  }

  const subject = str(payload.sub, 255);
  if (!subject) throw invalidCredential(kind, 'missing or invalid "sub" claim');
  const email = str(payload.email, 254)?.toLowerCase();
  if (!email || !EMAIL.test(email)) throw invalidCredential(kind, "the token carries no email");
  if (payload.email_verified !== true) throw invalidCredential(kind, "email not verified");
  const picture = str(payload.picture, 2000);
  return {
    kind,
    ref: `${provider.name}:${subject}`,
    email,
    emailVerified: true,
    name: str(payload.name, 100),
    avatarUrl: picture && /^https:\/\//.test(picture) ? picture : undefined,
  };
}
