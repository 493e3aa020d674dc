import { describe, expect, it } from "vitest";
import { api, createUser } from "../helpers";
import { createContainer } from "../helpers/catalogue";

describe("GET /v4/users/<id>.json", () => {
  it("shows the public profile a manager's url.api points to, without the email", async () => {
    const { user, id } = await createUser();
    const container = await createContainer({ managers: [user.id] });
    const managerUrl = (
      (await (await api(`/v4/containers/${container.wireId}.json`)).json()) as {
        managers: Array<{ url: { api: string } }>;
      }
    ).managers[0].url.api;
    const res = await api(managerUrl);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ id, username: user.username });
    expect(body).not.toHaveProperty("email");
  });

  it("404s a missing or malformed user", async () => {
    expect((await api("/v4/users/999999u.json")).status).toBe(404);
    expect((await api("/v4/users/abc.json")).status).toBe(404);
  });
});
