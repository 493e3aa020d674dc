import { describe, expect, it } from "vitest";
import "../../src/app";
import { registeredRoutes, routeOf } from "../../src/lib/route-registry";
import { scopesOf } from "../../src/services/edge-cache";

/**
 * Every route states what it is where it is declared (docs/decisions.md, "Route registry"): a write its limit or why
 * it has none, a read how its answer may be kept. A new route that says neither fails here, not in production.
 */
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const routes = registeredRoutes();
const label = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
const sample = (path: string) => path.replace(/:[A-Za-z0-9_]+/g, "x1");

describe("route properties", () => {
  it("knows the routes of every version", () => {
    for (const prefix of ["/api/v3/", "/oauth/token", "/v4/", "/v5/", "/health"]) {
      expect(
        routes.some((r) => r.path.startsWith(prefix)),
        prefix,
      ).toBe(true);
    }
  });

  it("gives every write a write limit, or a reason for having none", () => {
    const undecided = routes.filter((r) => WRITES.has(r.method) && r.properties.writeLimit === undefined).map(label);
    expect(undecided).toEqual([]);
    const unexplained = routes.filter((r) => r.properties.writeLimit === null && !r.properties.noWriteLimitBecause?.trim()).map(label);
    expect(unexplained).toEqual([]);
  });

  it("gives every read a cache decision, and every public read its cache scopes", () => {
    expect(routes.filter((r) => r.method === "GET" && !r.properties.cache).map(label)).toEqual([]);
    for (const r of routes.filter((r) => r.method === "GET" && r.properties.cache === "public")) {
      expect(scopesOf(routeOf("GET", sample(r.path))), label(r)).toContain("catalogue");
    }
  });

  it("checks the session in the data batch only on reads", () => {
    expect(routes.filter((r) => r.properties.sessionInBatch && r.method !== "GET").map(label)).toEqual([]);
  });

  it("finds each route at its own path, a literal segment before a parameter", () => {
    for (const r of routes) expect(routeOf(r.method, sample(r.path))?.route, label(r)).toBe(r);
    expect(routeOf("GET", "/v4/containers/all")?.route.path).toBe("/v4/containers/all");
    expect(routeOf("HEAD", "/v4/containers/12c")?.params).toEqual({ container_id: "12c" });
    expect(routeOf("GET", "/v4/nowhere")).toBeUndefined();
  });
});
