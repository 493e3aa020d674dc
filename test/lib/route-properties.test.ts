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

  it("gives every route a tag and a security, declared or from its resource router", () => {
    expect(routes.filter((r) => !r.properties.tag?.trim()).map(label)).toEqual([]);
    expect(routes.filter((r) => r.properties.security === undefined).map(label)).toEqual([]);
    const guarded = (prefix: string) => routes.filter((r) => r.path.startsWith(prefix) && Array.isArray(r.properties.security));
    // Each v3 route needs a v3 token and names its v4 successor; staff-only and signed routes say so.
    expect(routes.filter((r) => r.path.startsWith("/api/v3/") && !r.properties.successor).map(label)).toEqual([]);
    for (const r of guarded("/api/v3/")) expect(r.properties.security, label(r)).toEqual(["v3Token"]);
    expect(routeOf("POST", "/v4/jobs/1j/retry")?.route.properties.security).toEqual(["staff"]);
    expect(routeOf("GET", "/v4/webhooks")?.route.properties.security).toEqual(["signedApp"]);
    expect(routeOf("GET", "/v4/containers/12c")?.route.properties).toMatchObject({ tag: "containers", security: "optionalUser" });
    expect(routeOf("GET", "/v4/videos/1v/subtitle_tracks")?.route.properties.tag).toBe("subtitle_tracks");
    expect(routeOf("GET", "/v5/sessions/x1")?.route.properties.security).toBe("public");
  });

  it("keeps the extension only on the paths that name their own file or are called bare", () => {
    const own = routes
      .filter((r) => r.properties.ownExtension)
      .map(label)
      .sort();
    expect(own).toEqual([
      "DELETE /v4/videos/:video_id/subtitle_tracks/:file",
      "GET /health",
      "GET /v4/containers/:container_id/glossary.csv",
      "GET /v4/videos/:video_id/auth_subtitles/:file",
      "GET /v4/videos/:video_id/playback_manifests/:file",
      "GET /v4/videos/:video_id/subtitle_tracks/:file",
      "GET /v4/videos/:video_id/subtitles/:file",
      "POST /oauth/token",
      "POST /v4/containers/:container_id/glossary.csv",
    ]);
  });

  it("checks the session in the data batch only on reads", () => {
    expect(routes.filter((r) => r.properties.sessionInBatch && r.method !== "GET").map(label)).toEqual([]);
  });

  it("finds each route at its own path, a literal segment before a parameter", () => {
    for (const r of routes) expect(routeOf(r.method, sample(r.path))?.route, label(r)).toBe(r);
    expect(routeOf("GET", "/v4/containers/all")?.route.path).toBe("/v4/containers/all");
    expect(routeOf("POST", "/v4/videos/1v/subtitles/import_srt")?.route.path).toBe("/v4/videos/:video_id/subtitles/import_srt");
    expect(routeOf("HEAD", "/v4/containers/12c")?.params).toEqual({ container_id: "12c" });
    expect(routeOf("GET", "/v4/nowhere")).toBeUndefined();
  });
});
