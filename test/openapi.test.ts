import { describe, expect, it } from "vitest";
import { api } from "./helpers";

// The properties of /openapi.json that `npm run openapi:check` (Redocly, a generated client) relies on, checked where
// every test run sees them: a route added without them fails here first.

type Operation = {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; example?: unknown; schema?: { enum?: string[]; example?: unknown } }[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { headers?: Record<string, { $ref: string }> }>;
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  tags: { name: string }[];
  components: { schemas: Record<string, { oneOf?: { $ref: string }[] }>; securitySchemes: Record<string, unknown> };
};

const documentOf = async () => (await (await api("/openapi.json")).json()) as Doc;
const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([m, op]) => ({ path, m, op })));

describe("/openapi.json", () => {
  it("gives every operation a unique operationId, a declared tag, security and the request id header", async () => {
    const doc = await documentOf();
    const all = operations(doc);
    const ids = all.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(all.length);
    const tags = new Set(doc.tags.map((t) => t.name));
    for (const { path, m, op } of all) {
      const where = `${m.toUpperCase()} ${path}`;
      expect(op.operationId, where).toMatch(/^[a-z]+[A-Za-z0-9]+$/);
      expect(op.tags?.length, where).toBe(1);
      expect(tags.has(op.tags![0]), where).toBe(true);
      expect(op.security, where).toBeDefined();
      for (const requirement of op.security!)
        for (const scheme of Object.keys(requirement)) expect(doc.components.securitySchemes).toHaveProperty(scheme);
      for (const response of Object.values(op.responses)) expect(response.headers?.["X-Request-Id"], where).toBeDefined();
    }
  });

  it("has no two paths of the same template", async () => {
    const shapes = Object.keys((await documentOf()).paths).map((p) => p.replace(/\{[^}]+\}/g, "{}"));
    expect(shapes.length).toBe(new Set(shapes).size);
  });

  it("says what each route needs: a user, an official signed application, a v3 token, or nothing", async () => {
    const { paths } = await documentOf();
    expect(paths["/v4/users/{user_id}/markers.json"].get.security).toEqual([{ token: [] }, { bearer: [] }]);
    expect(paths["/v4/subtitle_completions.json"].post.security).toEqual([
      { app: [], signature: [], timestamp: [] },
      { app: [], sig: [], t: [] },
    ]);
    expect(paths["/api/v3/movies.json"].get.security).toEqual([{ v3AccessToken: [] }, { v3Bearer: [] }]);
    expect(paths["/v4/containers/{container_id}.json"].get.security).toEqual([{}, { token: [] }, { bearer: [] }]);
    expect(paths["/v5/sessions/{token}.json"].get.security).toEqual([]);
  });

  it("lists app, sig, t and sig_v as query parameters where the route reads them, so a generated client can send them", async () => {
    const { paths } = await documentOf();
    const credentials = (path: string, method: string) =>
      Object.fromEntries(
        (paths[path][method].parameters ?? [])
          .filter((p) => p.in === "query" && ["app", "sig", "t", "sig_v", "nonce"].includes(p.name))
          .map((p) => [p.name, { required: p.required ?? false, example: p.example, enum: p.schema?.enum }]),
      );
    // A public read: `app` is optional and not filled in; nothing to sign.
    expect(credentials("/v4/containers/{container_id}.json", "get")).toEqual({ app: { required: false } });
    // Any application will do: required, its example the demo's partner application (so "Try it out" works).
    expect(credentials("/v4/translations.json", "get")).toEqual({ app: { required: true, example: "100001a" } });
    // Official-only: the demo's official application, and the query signature.
    expect(credentials("/v4/subtitle_completions.json", "post")).toEqual({
      app: { required: true, example: "100000a" },
      sig: { required: false },
      t: { required: false },
      sig_v: { required: false, enum: ["1", "2"] },
    });
    // A write signed by the application alone must sign its method: sig_v=2 is required there, a nonce optional.
    expect(credentials("/v4/webhooks.json", "post")).toMatchObject({
      sig_v: { required: true, example: "2", enum: ["2"] },
      nonce: { required: false },
    });
    expect(credentials("/v4/webhooks.json", "get").sig_v).toEqual({ required: false, enum: ["1", "2"] });
    // v3, /health and the grant-only playback routes read none of them (auth_subtitles declares its own `app`).
    expect(credentials("/api/v3/movies.json", "get")).toEqual({});
    expect(credentials("/health", "get")).toEqual({});
    expect(credentials("/v4/videos/{video_id}/playback_manifests/{file}", "get")).toEqual({});
  });

  it("fills in no optional filter of a public listing, so the first 'Try it out' is not narrowed to nothing", async () => {
    const { paths } = await documentOf();
    for (const path of ["/v4/containers.json", "/v4/lists/{list_id}.json", "/v4/search.json", "/v4/translations.json"]) {
      const filled = (paths[path].get.parameters ?? [])
        .filter((p) => p.in === "query" && !p.required && (p.example ?? p.schema?.example) !== undefined)
        .map((p) => p.name);
      expect(filled, path).toEqual(path === "/v4/search.json" ? ["term"] : []);
    }
  });

  it("documents the login as one of the credential bodies and /oauth/token with its form body", async () => {
    const doc = await documentOf();
    const login = doc.paths["/v5/sessions.json"].post.requestBody!.content["application/json"].schema.$ref;
    expect(login).toBe("#/components/schemas/Credentials");
    expect(doc.components.schemas.Credentials.oneOf?.map((s) => s.$ref.split("/").pop())).toEqual([
      "PasswordLogin",
      "SocialLogin",
      "IdpLogin",
      "RetailerLogin",
      "StoreLogin",
    ]);
    expect(doc.paths["/oauth/token.json"]).toBeUndefined();
    const token = doc.paths["/oauth/token"].post;
    expect(Object.keys(token.requestBody!.content)).toEqual(["application/x-www-form-urlencoded", "application/json"]);
  });

  it("names the headers of cached reads, rate limits and v3", async () => {
    const { paths } = await documentOf();
    const read = paths["/v4/containers/{container_id}.json"].get.responses;
    expect(Object.keys(read["200"].headers!)).toEqual(["X-Request-Id", "Server-Timing", "X-D1-Bookmark", "ETag"]);
    expect(read["304"].headers).toHaveProperty("ETag");
    expect(paths["/v5/sessions.json"].post.responses["429"].headers).toHaveProperty("Retry-After");
    expect(paths["/api/v3/movies.json"].get.responses["200"].headers).toMatchObject({ Deprecation: {}, Link: {} });
  });
});
