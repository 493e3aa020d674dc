import { createRoute, z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/lib/errors";
import { withProperties } from "../../src/lib/route-properties";
import { createRouter, routeGroup } from "../../src/lib/router";
import { routeOf } from "../../src/lib/route-registry";
import { resourceRouter } from "../../src/routes/router";

/**
 * A resource router (docs/decisions.md, "Route layout") orders its routes itself and gives them its defaults: the
 * groups below come in the order that would shadow `/all` behind `/{id}` if routes were registered as given.
 */
const read = (path: string) =>
  createRoute({
    method: "get",
    path,
    request: { params: z.object({ id: z.string() }).partial() },
    responses: { 200: { description: "ok" } },
  });

describe("resourceRouter", () => {
  const byId = routeGroup().openapi(read("/{id}"), (c) => c.text(`one ${c.req.param("id")}`));
  const literal = routeGroup({ tag: "listings" }).openapi(read("/all"), (c) => c.text("all"));
  const staffOnly = routeGroup().openapi(withProperties(read("/{id}/secret"), { security: ["staff"] }), (c) => c.text("secret"));
  const app = createRouter().route("/things", resourceRouter({ tag: "things", security: "optionalUser" }, byId, literal, staffOnly));

  it("serves a literal segment before a parameter, whatever order its groups come in", async () => {
    expect(await (await app.request("/things/all")).text()).toBe("all");
    expect(await (await app.request("/things/7")).text()).toBe("one 7");
  });

  it("records its defaults, a group's own tag and a route's own security", () => {
    expect(routeOf("GET", "/things/7")?.route.properties).toMatchObject({ tag: "things", security: "optionalUser" });
    expect(routeOf("GET", "/things/all")?.route.properties).toMatchObject({ tag: "listings", security: "optionalUser" });
    expect(routeOf("GET", "/things/7/secret")?.route.properties).toMatchObject({ tag: "things", security: ["staff"] });
  });

  it("enforces the declared security with its guard", async () => {
    app.onError((err, c) => c.json({ refused: err instanceof ApiError ? err.status : 500 }));
    expect(await (await app.request("/things/7/secret")).json()).toEqual({ refused: 401 });
  });

  it("takes route groups only", () => {
    expect(() => resourceRouter({ tag: "x", security: "public" }, createRouter())).toThrow(/route groups/);
  });
});
