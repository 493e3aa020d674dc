import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ApiError, OAuthError } from "../../lib/errors";
import { routeGroup, documentedAs } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { IGNORED_FIELDS_HEADER, ignoredFieldsValue, normalise, readBody } from "../../lib/tolerant-input";
import { V3_TOKEN_TTL_SECONDS, issueV3Token } from "../../lib/v3-tokens";
import { depsOf } from "../../services/deps";
import { externalLogin } from "../../services/identity/login";
import { RATELIMIT_POLICY_HEADER } from "../../lib/rate-limit-headers";
import { LOGIN_POLICY_FIELD, clientAddress, limitLoginByAddress, passwordLogin } from "../../services/login-limits";
import { oauthClient } from "../../services/v3";
import type { AppEnv } from "../../types";

/** RFC 9745: when credentials in the query string were deprecated (2026-11-26), sent with a `Link` to the docs. */
export const QUERY_CREDENTIALS_DEPRECATED_AT = "@1795651200";

const TokenRequest = z.object({
  grant_type: z.string().max(50).optional(),
  client_id: z.string().max(50).optional(),
  client_secret: z.string().max(200).optional(),
  username: z.string().max(100).optional(),
  password: z.string().max(1000).optional(),
  social_access_token: z.string().max(8192).optional(),
});
type TokenRequest = z.infer<typeof TokenRequest>;

/** The RFC 6749 §4.4/§4.3 form as clients should send it; the route reads TokenRequest from the query too. */
const TokenForm = TokenRequest.extend({
  grant_type: z.enum(["client_credentials", "password"]),
  client_id: z.string().max(50).openapi({ example: "100001a" }),
  client_secret: z.string().max(200),
  username: TokenRequest.shape.username.openapi({ description: "password grant" }),
  password: TokenRequest.shape.password.openapi({ description: "password grant, with `username`" }),
  social_access_token: TokenRequest.shape.social_access_token.openapi({
    description: "password grant instead of `username` + `password`: an OpenID Connect ID token of a configured social network",
  }),
}).openapi("V3TokenRequest");

const TokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal("bearer"),
    expires_in: z.number().int(),
    scope: z.literal("public"),
    user_id: z.number().int().optional(),
  })
  .openapi("V3AccessToken");

const OAuthErrorBody = z.object({ error: z.string(), error_description: z.string() }).openapi("OAuthError");

const token = withProperties(
  createRoute({
    method: "post",
    path: "/token",
    summary: "v3 OAuth 2.0 access token",
    description:
      "`grant_type` = `client_credentials` or `password` (with `username` + `password`, or `social_access_token`: " +
      "an OpenID Connect ID token of a configured social network, which creates or links the account as v5 does), " +
      "with `client_id` and `client_secret`, in a form body, a JSON body or the query (as the v4 gem sends them). " +
      "`client_secret`, `password` and `social_access_token` in the query are deprecated (`Deprecation`, `Link`) and " +
      "refused over plain HTTP outside local development. The password grant is HTTPS-only wherever its credentials " +
      "are sent (400 `invalid_request` over plain HTTP, except in local development). " +
      "Tokens are valid for 24 hours; the password grant's response includes `user_id`.",
    // Parameters are read by tokenParams (query, form or JSON) so every failure keeps the OAuth error body.
    request: { query: TokenRequest },
    responses: {
      200: {
        description: "a token",
        content: { "application/json": { schema: TokenResponse } },
        headers: {
          Deprecation: {
            description: "RFC 9745, when credentials came in the query string: deprecated since this date (`@<unix seconds>`).",
            schema: { type: "string", examples: [QUERY_CREDENTIALS_DEPRECATED_AT] },
          },
          Link: { description: 'With `Deprecation`: this documentation (`rel="deprecation"`).', schema: { type: "string" } },
        },
      },
      400: {
        description: "invalid_request, invalid_grant or unsupported_grant_type",
        content: { "application/json": { schema: OAuthErrorBody } },
      },
      401: { description: "invalid_client", content: { "application/json": { schema: OAuthErrorBody } } },
      429: {
        description: "temporarily_unavailable: too many logins (`Retry-After`)",
        content: { "application/json": { schema: OAuthErrorBody } },
      },
      503: {
        description:
          "temporarily_unavailable: the social login is misconfigured or its keys unreachable, or the server has no token signing key",
        content: { "application/json": { schema: OAuthErrorBody } },
      },
    },
  }),
  {
    ownExtension: true,
    writeLimit: null,
    noWriteLimitBecause: "the token endpoint: an application authenticates as itself, there is no user to count",
  },
);
documentedAs(token, {
  body: {
    required: false,
    content: { "application/x-www-form-urlencoded": { schema: TokenForm }, "application/json": { schema: TokenForm } },
  },
});

/**
 * The scheme the client used (`request.url` on Cloudflare) is plain HTTP, outside local development (`ENVIRONMENT`
 * `development`, set only by `.dev.vars`): the rule of `/v5/sessions` (docs/decisions.md, "Sessions").
 */
const overPlainHttp = (c: Context<AppEnv>) => new URL(c.req.url).protocol !== "https:" && c.env.ENVIRONMENT !== "development";

/** The parameters that are credentials: accepted in the query string (the v4 gem sends them there) only as below. */
const QUERY_CREDENTIALS = ["client_secret", "password", "social_access_token"] as const;

/**
 * Credentials in the query string end up in proxy and server logs and are readable on the wire over plain HTTP. The
 * interface's form keeps working over HTTPS (and plain HTTP in local development) with `Deprecation` and `Link`
 * headers; over plain HTTP anywhere else it is refused. Our own logs never carry the query (src/middleware/context.ts,
 * src/lib/redact.ts).
 */
function checkQueryCredentials(c: Context<AppEnv>) {
  const sent = QUERY_CREDENTIALS.filter((name) => c.req.queries(name) !== undefined);
  if (!sent.length) return;
  if (overPlainHttp(c)) {
    throw new OAuthError(
      400,
      "invalid_request",
      `${sent.join(", ")} may be sent in the query string only over HTTPS; send them in the request body`,
    );
  }
  c.header("deprecation", QUERY_CREDENTIALS_DEPRECATED_AT);
  c.header("link", `<${new URL(c.req.url).origin}/docs>; rel="deprecation"`, { append: true });
}

/**
 * Query, form and JSON parameters merged (body wins), read as tolerantly as every other body (src/lib/tolerant-input.ts:
 * JSON whatever the Content-Type, unknown fields ignored and named in x-ignored-fields, a numeric client_id read as
 * text); anything unreadable is an OAuth invalid_request.
 */
async function tokenParams(c: Context<AppEnv>): Promise<TokenRequest> {
  checkQueryCredentials(c);
  let body: unknown;
  try {
    body = await readBody(await c.req.arrayBuffer(), c.req.header("content-type"));
  } catch {
    throw new OAuthError(400, "invalid_request", "the request body could not be read");
  }
  if (body !== undefined && (typeof body !== "object" || body === null || Array.isArray(body))) {
    throw new OAuthError(400, "invalid_request", "the request body must be an object of fields");
  }
  const ignored: string[] = [];
  const merged = normalise(TokenRequest, { ...c.req.query(), ...(body as Record<string, unknown> | undefined) }, ignored, "");
  if (ignored.length) c.header(IGNORED_FIELDS_HEADER, ignoredFieldsValue(ignored));
  const parsed = TokenRequest.safeParse(merged);
  if (!parsed.success) {
    throw new OAuthError(400, "invalid_request", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  }
  return parsed.data;
}

async function client(c: Context<AppEnv>, p: TokenRequest) {
  if (!p.client_id || !p.client_secret) throw new OAuthError(401, "invalid_client", "client_id and client_secret are required");
  const application = await oauthClient(depsOf(c), p.client_id, p.client_secret);
  if (!application) {
    throw new OAuthError(401, "invalid_client", "unknown client or wrong client_secret");
  }
  return application;
}

/** Identity failures keep the OAuth body: 429/503 as temporarily_unavailable, every other refusal invalid_grant. */
function asOAuthError(err: unknown): unknown {
  if (!(err instanceof ApiError)) return err;
  // The identity services name the v5 field; v3 calls it social_access_token.
  const message = err.message.replaceAll("social_token", "social_access_token");
  if (err.status === 429 || err.status === 503) return new OAuthError(err.status, "temporarily_unavailable", message, err.headers);
  return new OAuthError(400, "invalid_grant", message);
}

/**
 * The password grant: `username` + `password`, or `social_access_token` (an OpenID Connect ID token of a
 * configured social network) with the v5 creation and linking rules. Rate limited like v5 logins.
 */
async function passwordGrantUser(c: Context<AppEnv>, p: TokenRequest) {
  try {
    // Every answer of a password grant, refusals included, names the limits it counts against.
    c.header(RATELIMIT_POLICY_HEADER, LOGIN_POLICY_FIELD);
    const address = clientAddress((name) => c.req.header(name));
    await limitLoginByAddress(depsOf(c), address);
    if (p.social_access_token !== undefined && p.username === undefined && p.password === undefined) {
      if (!p.social_access_token) throw new OAuthError(400, "invalid_request", "social_access_token is empty");
      return await externalLogin(depsOf(c), { kind: "social", credential: p.social_access_token });
    }
    if (!p.username || !p.password) {
      throw new OAuthError(400, "invalid_request", "username and password (or social_access_token) are required");
    }
    return await passwordLogin(depsOf(c), address, p.username, p.password);
  } catch (err) {
    throw asOAuthError(err);
  }
}

export const oauthRouter = routeGroup().openapi(
  token,
  async (c) => {
    // Deployed environments refuse a deploy without this secret (wrangler.toml secrets.required); a Worker whose
    // secret was deleted afterwards still answers in the OAuth shape rather than failing inside the signer.
    if (!c.env.V3_TOKEN_SECRET) {
      throw new OAuthError(503, "temporarily_unavailable", "this server has no token signing key (V3_TOKEN_SECRET)");
    }
    const p = await tokenParams(c);
    if (p.grant_type !== "client_credentials" && p.grant_type !== "password") {
      throw new OAuthError(400, "unsupported_grant_type", "grant_type must be client_credentials or password");
    }
    // A user's password or ID token crosses the wire in this grant, wherever it is sent: HTTPS only, like every v5
    // login (docs/decisions.md, "v3"). Refused before the client is checked, so the answer tells nothing of it.
    if (p.grant_type === "password" && overPlainHttp(c)) {
      throw new OAuthError(400, "invalid_request", "the password grant requires HTTPS");
    }
    const application = await client(c, p);
    let userId: number | undefined;
    if (p.grant_type === "password") userId = (await passwordGrantUser(c, p)).id;
    const access_token = await issueV3Token(c.env.V3_TOKEN_SECRET, { clientId: application.id, userId });
    return c.json(
      {
        access_token,
        token_type: "bearer" as const,
        expires_in: V3_TOKEN_TTL_SECONDS,
        scope: "public" as const,
        ...(userId ? { user_id: userId } : {}),
      },
      200,
    );
  },
  (result) => {
    // Even a query the contract cannot read is answered with the RFC 6749 body, never the v3 one.
    if (!result.success) {
      throw new OAuthError(
        400,
        "invalid_request",
        result.error.issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`).join("; "),
      );
    }
    return undefined;
  },
);
