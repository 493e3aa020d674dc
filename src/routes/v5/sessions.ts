import { createRoute, z } from "@hono/zod-openapi";
import { ApiError } from "../../lib/errors";
import { depsOf } from "../../services/deps";
import { documentedAs, routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import {
  assertSecureTransport,
  closeAllSessions,
  liveSession,
  openSession,
  replaceSessions,
  SESSION_IDLE_SECONDS,
  SESSION_LIFETIME_SECONDS,
  SESSION_REFRESH_SECONDS,
  sessionUser,
} from "../../services/sessions";
import { deferOf, requestToken } from "../../middleware/session";
import { externalLogin } from "../../services/identity/login";
import type { ExternalKind } from "../../services/identity/providers";
import { RATELIMIT_POLICY_HEADER } from "../../lib/rate-limit-headers";
import { LOGIN_POLICY_FIELD, clientAddress, limitLoginByAddress, passwordLogin } from "../../services/login-limits";
import type { User } from "../../types";
import { sessionSummary, sessionView } from "../../views/user";

const UserSummary = z
  .object({
    id: z.string().openapi({ example: "42u" }),
    username: z.string(),
    name: z.string(),
    email: z.string(),
    images: z.record(z.string(), z.unknown()),
    created_at: z.string().nullable(),
    updated_at: z.string().nullable(),
  })
  .openapi("UserSummary");

const ExpiresAt = z.string().openapi({
  example: "2027-01-31T12:00:00Z",
  description:
    `When this token stops working unless used again (ISO-8601 UTC): the earlier of ${SESSION_IDLE_SECONDS / 86400} days ` +
    `after its last use (counted to within ${SESSION_REFRESH_SECONDS / 3600} hours) and ${SESSION_LIFETIME_SECONDS / 86400} ` +
    "days after login. Using the token moves it on. An expired token is the same as a deleted one.",
});

const Session = z.object({ token: z.string(), expires_at: ExpiresAt, user: UserSummary }).openapi("Session");

const SessionSummary = UserSummary.extend({ expires_at: ExpiresAt }).openapi("SessionSummary");

/** The body field of each external credential and its kind (src/services/identity). */
const EXTERNAL_CREDENTIALS = {
  social_token: "social",
  idp_token: "idp",
  retailer_params: "retailer",
  store_token: "store",
} as const satisfies Record<string, ExternalKind>;
type ExternalField = keyof typeof EXTERNAL_CREDENTIALS;

/** Each credential field with its limits, shared by the body the route reads and the bodies the document shows. */
const FIELD = {
  username: z.string().min(1).max(100),
  password: z.string().min(1).max(1000),
  social_token: z.string().min(1).max(8192).openapi({ description: "an OpenID Connect ID token of a configured social network" }),
  idp_token: z.string().min(1).max(8192).openapi({ description: "an OpenID Connect ID token of a configured identity provider" }),
  retailer_params: z.string().min(1).max(2048).openapi({
    description: "`retailer=<name>&user_ref=<ref>[&email=][&name=]&expires=<unix s>&sig=<hex HMAC-SHA256>`, single-use",
  }),
  store_token: z.string().min(1).max(16384).openapi({ description: "a signed app store transaction (compact JWS, ES256), single-use" }),
};

/**
 * What the route reads: every field optional, so `credentialOf` can name a missing or a second credential in its own
 * 400 (and the tolerant reader can ignore unknown fields) rather than zod refusing the body as a whole.
 */
const Credentials = z.object({
  username: FIELD.username.optional(),
  password: FIELD.password.optional(),
  social_token: FIELD.social_token.optional(),
  idp_token: FIELD.idp_token.optional(),
  retailer_params: FIELD.retailer_params.optional(),
  store_token: FIELD.store_token.optional(),
});

/** What clients should send, as the document shows it: exactly one of the credential bodies. */
const LoginBody = z
  .union([
    z.object({ username: FIELD.username, password: FIELD.password }).openapi("PasswordLogin"),
    z.object({ social_token: FIELD.social_token }).openapi("SocialLogin"),
    z.object({ idp_token: FIELD.idp_token }).openapi("IdpLogin"),
    z.object({ retailer_params: FIELD.retailer_params }).openapi("RetailerLogin"),
    z.object({ store_token: FIELD.store_token }).openapi("StoreLogin"),
  ])
  .openapi(
    "Credentials",
    {
      description:
        "Exactly one credential body: `username` + `password`, or one of `social_token`, `idp_token`, `retailer_params`, " +
        "`store_token` (a second one is a 400 naming it). `social_token`/`idp_token` with the `token=` (or Bearer) of a " +
        "logged-in user link that user.",
    },
    { unionPreferredType: "oneOf" },
  );
type Credentials = z.infer<typeof Credentials>;

type Credential = { kind: "password"; username: string; password: string } | { kind: ExternalKind; value: string };

/** Exactly one credential body; a second one is named as a 400 rather than silently ignored. */
function credentialOf(body: Credentials): Credential {
  const external = (Object.keys(EXTERNAL_CREDENTIALS) as ExternalField[]).filter((f) => body[f] !== undefined);
  const sent = [...(body.username !== undefined || body.password !== undefined ? ["username"] : []), ...external];
  if (sent.length > 1) {
    const extra = sent.slice(1).map((field) => ({ field, message: `send one credential body (${sent[0]} is given too)` }));
    throw ApiError.invalid(extra, "send exactly one credential body");
  }
  if (external.length) return { kind: EXTERNAL_CREDENTIALS[external[0]], value: body[external[0]]! };
  const problems = [];
  if (!body.username) problems.push({ field: "username", message: "required" });
  if (!body.password) problems.push({ field: "password", message: "required" });
  if (problems.length) throw ApiError.invalid(problems);
  return { kind: "password", username: body.username!, password: body.password! };
}

const TokenParam = z.object({
  token: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "token", in: "path" } }),
});

const create = withProperties(
  createRoute({
    method: "post",
    path: "/",
    summary: "Log in (POST /v5/sessions.json)",
    description:
      "Over HTTPS only (plain HTTP is allowed in local development). Answers 201 with a token. External credentials " +
      'create or link accounts (docs/api.md, "External identity"). Rate limited per address, and per account and address (429; docs/api.md, "Login rate limits").',
    request: { body: jsonBody(Credentials) },
    responses: { 201: jsonResponse(Session, "logged in"), ...errorResponses(400, 401, 403, 409, 413, 429, 503) },
  }),
  {
    // A token, when sent, links the login's external identity to its user.
    security: "optionalUser",
    writeLimit: null,
    noWriteLimitBecause: "logins are counted by the login limits (src/services/login-limits.ts)",
  },
);
documentedAs(create, { body: jsonBody(LoginBody) });

const read = withProperties(
  createRoute({
    method: "get",
    path: "/{token}",
    summary: "The user of a session token (GET /v5/sessions/<token>.json)",
    description: "The user summary and the token's `expires_at`. An expired token is 404 like a deleted one.",
    request: { params: TokenParam },
    responses: { 200: jsonResponse(SessionSummary, "the user summary"), ...errorResponses(404) },
  }),
  { cache: "user" },
);

const renew = withProperties(
  createRoute({
    method: "put",
    path: "/{token}",
    summary: "Replace the session (PUT /v5/sessions/<token>.json)",
    description: "Deletes every session of the user and issues one new token.",
    request: { params: TokenParam },
    responses: { 201: jsonResponse(Session, "the new session"), ...errorResponses(404) },
  }),
  { writeLimit: null, noWriteLimitBecause: "renews the caller's own session" },
);

const destroy = withProperties(
  createRoute({
    method: "delete",
    path: "/{token}",
    summary: "Log out everywhere (DELETE /v5/sessions/<token>.json)",
    description: "Deletes every session of the user: all their tokens stop working at once.",
    request: { params: TokenParam },
    responses: { 204: { description: "all sessions deleted" }, ...errorResponses(404) },
  }),
  { writeLimit: null, noWriteLimitBecause: "ends the caller's own session" },
);

type SessionContext = Parameters<typeof deferOf>[0] & { get(k: "db"): Parameters<typeof liveSession>[0] };

async function sessionOfToken(c: SessionContext, token: string) {
  const session = await liveSession(c.get("db"), token, deferOf(c));
  // The token is the resource here: an unknown or expired one is "not found", with the session vcode.
  if (!session) throw ApiError.invalidSession(404);
  return session;
}

export const sessionsRouter = routeGroup();
// app= on a login is resolved like anywhere else: a signed one is checked, an unsigned unknown one ignored (yt-dlp).
sessionsRouter
  .openapi(create, async (c) => {
    // Every answer of a login, refusals included, names the limits it counts against.
    c.header(RATELIMIT_POLICY_HEADER, LOGIN_POLICY_FIELD);
    const credential = credentialOf(c.req.valid("json"));
    assertSecureTransport(c.req.url, c.env.ENVIRONMENT);
    const client = clientAddress((name) => c.req.header(name));
    await limitLoginByAddress(depsOf(c), client);
    const db = c.get("db");
    let user: User;
    if (credential.kind === "password") {
      user = await passwordLogin(depsOf(c), client, credential.username, credential.password);
    } else {
      // token= is read only with social_token/idp_token (it links); other bodies ignore it, as passwords always have.
      const linking = credential.kind === "social" || credential.kind === "idp" ? requestToken(c) : undefined;
      const linkTo = linking ? await sessionUser(db, linking, deferOf(c)) : undefined;
      if (linking && !linkTo) throw ApiError.invalidSession();
      user = await externalLogin(depsOf(c), { kind: credential.kind, credential: credential.value, linkTo });
    }
    return c.json(sessionView(await openSession(db, user), user), 201);
  })
  .openapi(read, async (c) => {
    const session = await sessionOfToken(c, c.req.valid("param").token);
    return c.json(sessionSummary(session), 200);
  })
  .openapi(renew, async (c) => {
    const db = c.get("db");
    const { user } = await sessionOfToken(c, c.req.valid("param").token);
    return c.json(sessionView(await replaceSessions(db, user), user), 201);
  })
  .openapi(destroy, async (c) => {
    const db = c.get("db");
    const { user } = await sessionOfToken(c, c.req.valid("param").token);
    await closeAllSessions(db, user);
    return c.body(null, 204);
  });
