import { createRoute, z } from "@hono/zod-openapi";
import { parseId } from "../../lib/ids";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonResponse } from "../../lib/schemas";
import { depsOf } from "../../services/deps";
import { existingUser } from "../../services/users";
import { publicProfile } from "../../views/user";
import { DEMO_IDS, idParam } from "./contracts/catalogue";

const PublicUser = z
  .object({
    id: z.string().openapi({ example: "12u" }),
    username: z.string(),
    name: z.string(),
    images: z.record(z.string(), z.unknown()),
    created_at: z.string().nullable(),
  })
  .openapi("PublicUser");

const read = withProperties(
  createRoute({
    method: "get",
    path: "/{user_id}",
    summary: "A user's public profile",
    description: "What other users may see: no email, nothing private. The `url.api` of managers and authors.",
    request: { params: idParam("user_id", DEMO_IDS.user) },
    responses: { 200: jsonResponse(PublicUser, "the profile"), ...errorResponses(404) },
  }),
  { cache: "public" },
);

export const usersRouter = routeGroup().openapi(read, async (c) => {
  const user = await existingUser(depsOf(c), parseId(c.req.valid("param").user_id, "u"));
  return c.json(publicProfile(user), 200);
});
