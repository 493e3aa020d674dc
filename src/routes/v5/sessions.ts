import { createRoute, z } from "@hono/zod-openapi";
import { ApiError } from "../../lib/errors";
import { createRouter } from "../../lib/router";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import {
  assertSecureTransport,
  authenticate,
  closeAllSessions,
  openSession,
  replaceSessions,
  sessionUser,
} from "../../services/sessions";
import { userSummary } from "../../views/user";

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

const Session = z.object({ token: z.string(), user: UserSummary }).openapi("Session");

const EXTERNAL_CREDENTIALS = ["social_token", "idp_token", "retailer_params", "store_token"] as const;

const Credentials = z
  .object({
    username: z.string().min(1).max(100).optional(),
    password: z.string().min(1).max(1000).optional(),
    social_token: z.string().max(8192).optional(),
    idp_token: z.string().max(8192).optional(),
    retailer_params: z.string().max(8192).optional(),
    store_token: z.string().max(16384).optional(),
  })
  .strict()
  .openapi("Credentials", {
    description: "One credential body: `username` + `password`, or one of the external credentials.",
  });

const TokenParam = z.object({
  token: z.string().min(1).max(200).openapi({ param: { name: "token", in: "path" } }),
});

const create = createRoute({
  method: "post",
  path: "/v5/sessions",
  summary: "Log in (POST /v5/sessions.json)",
  description: "Over HTTPS only (plain HTTP is allowed in local development). Answers 201 with a token.",
  request: { body: jsonBody(Credentials) },
  responses: { 201: jsonResponse(Session, "logged in"), ...errorResponses(400, 401, 403, 413) },
});

const read = createRoute({
  method: "get",
  path: "/v5/sessions/{token}",
  summary: "The user of a session token (GET /v5/sessions/<token>.json)",
  request: { params: TokenParam },
  responses: { 200: jsonResponse(UserSummary, "the user summary"), ...errorResponses(404) },
});

const renew = createRoute({
  method: "put",
  path: "/v5/sessions/{token}",
  summary: "Replace the session (PUT /v5/sessions/<token>.json)",
  description: "Deletes every session of the user and issues one new token.",
  request: { params: TokenParam },
  responses: { 201: jsonResponse(Session, "the new session"), ...errorResponses(404) },
});

const destroy = createRoute({
  method: "delete",
  path: "/v5/sessions/{token}",
  summary: "Log out everywhere (DELETE /v5/sessions/<token>.json)",
  description: "Deletes every session of the user: all their tokens stop working at once.",
  request: { params: TokenParam },
  responses: { 204: { description: "all sessions deleted" }, ...errorResponses(404) },
});

async function userOfToken(c: { get(k: "db"): Parameters<typeof sessionUser>[0] }, token: string) {
  const user = await sessionUser(c.get("db"), token);
  // The token is the resource here: an unknown one is "not found", with the session vcode.
  if (!user) throw ApiError.invalidSession(404);
  return user;
}

export const sessionsRouter = createRouter()
  .openapi(create, async (c) => {
    const body = c.req.valid("json");
    const external = EXTERNAL_CREDENTIALS.find((k) => body[k] !== undefined);
    if (body.username === undefined && body.password === undefined && external) {
      throw ApiError.field(external, `${external} logins are not enabled on this server`);
    }
    const problems = [];
    if (!body.username) problems.push({ field: "username", message: "required" });
    if (!body.password) problems.push({ field: "password", message: "required" });
    if (problems.length) throw ApiError.invalid(problems);
    assertSecureTransport(c.req.url, c.env.ENVIRONMENT);
    const db = c.get("db");
    const user = await authenticate(db, body.username!, body.password!);
    const token = await openSession(db, user);
    return c.json({ token, user: userSummary(user) }, 201);
  })
  .openapi(read, async (c) => {
    const user = await userOfToken(c, c.req.valid("param").token);
    return c.json(userSummary(user), 200);
  })
  .openapi(renew, async (c) => {
    const db = c.get("db");
    const user = await userOfToken(c, c.req.valid("param").token);
    const token = await replaceSessions(db, user);
    return c.json({ token, user: userSummary(user) }, 201);
  })
  .openapi(destroy, async (c) => {
    const db = c.get("db");
    const user = await userOfToken(c, c.req.valid("param").token);
    await closeAllSessions(db, user);
    return c.body(null, 204);
  });
