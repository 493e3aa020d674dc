import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { renderError } from "../../src/app";
import { createRouter } from "../../src/lib/router";
import { requestContext } from "../../src/middleware/context";
import { loadUser } from "../../src/middleware/session";
import { ownerOnly } from "../../src/middleware/user-scope";
import { errorBody, signedInUser } from "../helpers";

const app = createRouter();
app.use("*", requestContext, loadUser);
app.get("/v4/users/:user_id/things", ownerOnly, (c) => c.json({ owner: c.get("owner").id }));
app.onError(renderError);
const call = (path: string, token?: string) => app.request(`https://api.test${path}${token ? `?token=${token}` : ""}`, {}, env);

describe("ownerOnly", () => {
  it("answers the owner and staff, 401 without a token, 403 to another user", async () => {
    const alice = await signedInUser();
    const bob = await signedInUser();
    const staff = await signedInUser({ staff: true });
    expect(await (await call(`/v4/users/${alice.id}/things`, alice.token)).json()).toEqual({ owner: alice.user.id });
    expect(await (await call(`/v4/users/${alice.id}/things`, staff.token)).json()).toEqual({ owner: alice.user.id });
    const anonymous = await call(`/v4/users/${alice.id}/things`);
    expect(anonymous.status).toBe(401);
    expect((await errorBody(anonymous)).vcode).toBe(4500);
    const other = await call(`/v4/users/${alice.id}/things`, bob.token);
    expect(other.status).toBe(403);
    expect((await errorBody(other)).vcode).toBe(5403);
  });

  it("404s a user that does not exist for staff and a malformed id for anyone", async () => {
    const staff = await signedInUser({ staff: true });
    expect((await call("/v4/users/999999u/things", staff.token)).status).toBe(404);
    expect((await call("/v4/users/abc/things", staff.token)).status).toBe(404);
  });
});
