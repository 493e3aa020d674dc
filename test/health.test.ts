import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { checkHealth } from "../src/services/health";
import { api, db } from "./helpers";

const deps = (overrides: Partial<Env> = {}) => ({ db: db(), env: { ...env, ...overrides } as Env });

describe("GET /health", () => {
  it("answers 200 with every binding ok, never cached, without credentials", async () => {
    const res = await api("/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({
      status: "ok",
      checks: { d1: "ok", kv: "ok", r2: "ok", queue: "ok", shards: "ok" },
      shards: { 1: "ok", 2: "ok" },
    });
  });

  it("is declared in the OpenAPI document with its 200 and 503 answers", async () => {
    const doc = (await (await api("/openapi.json")).json()) as { paths: Record<string, Record<string, { responses: object }>> };
    expect(Object.keys(doc.paths["/health"])).toEqual(["get"]);
    expect(Object.keys(doc.paths["/health"].get.responses).sort()).toEqual(["200", "503"]);
  });

  it("sends nothing on the queue", async () => {
    const send = vi.spyOn(env.JOBS, "send");
    try {
      await api("/health");
      expect(send).not.toHaveBeenCalled();
    } finally {
      send.mockRestore();
    }
  });
});

describe("checkHealth", () => {
  it("names a store that fails, and only that one, without its message", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const broken = { get: async () => Promise.reject(new Error("kv secret detail")) } as unknown as KVNamespace;
      const health = await checkHealth(deps({ CACHE: broken }));
      expect(health).toEqual({
        status: "unavailable",
        checks: { d1: "ok", kv: "error", r2: "ok", queue: "ok", shards: "ok" },
        shards: { 1: "ok", 2: "ok" },
      });
      expect(JSON.stringify(health)).not.toContain("secret");
      expect(log.mock.calls.join("\n")).toContain("kv secret detail");
    } finally {
      log.mockRestore();
    }
  });

  it("gives up on a check that hangs after the timeout", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const hanging = { head: () => new Promise(() => {}) } as unknown as R2Bucket;
      const started = Date.now();
      const health = await checkHealth(deps({ SUBTITLES: hanging }), 50);
      expect(health.checks).toEqual({ d1: "ok", kv: "ok", r2: "timeout", queue: "ok", shards: "ok" });
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      log.mockRestore();
    }
  });

  it("reports a missing binding, and a D1 that fails", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const noQueue = await checkHealth(deps({ JOBS: undefined as unknown as Queue }));
      expect(noQueue.checks.queue).toBe("missing");
      const failing = { ...db(), get: async () => Promise.reject(new Error("D1_ERROR")) } as unknown as ReturnType<typeof db>;
      const health = await checkHealth({ db: failing, env });
      // The shard list is the catalogue's: with D1 down it is unknown, and the shards check fails with it.
      expect(health).toEqual({
        status: "unavailable",
        checks: { d1: "error", kv: "ok", r2: "ok", queue: "ok", shards: "error" },
        shards: {},
      });
    } finally {
      log.mockRestore();
    }
  });
});

describe("checkHealth: the shards", () => {
  it("names each shard the catalogue lists, a shard without a binding as missing, one that fails as error", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const broken = { prepare: () => ({ first: async () => Promise.reject(new Error("shard 2 down")) }) } as unknown as D1Database;
      expect(await checkHealth(deps({ SHARD_2: broken }))).toMatchObject({
        status: "unavailable",
        checks: { d1: "ok", shards: "error" },
        shards: { 1: "ok", 2: "error" },
      });
      expect(await checkHealth(deps({ SHARD_1: undefined as unknown as D1Database }))).toMatchObject({
        status: "unavailable",
        checks: { shards: "missing" },
        shards: { 1: "missing", 2: "ok" },
      });
    } finally {
      log.mockRestore();
    }
  });
});

describe("/health over the Worker when a check fails", () => {
  it("answers 503 naming the failing binding", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const get = vi.spyOn(env.CACHE, "get").mockRejectedValue(new Error("KV down"));
    try {
      const res = await api("/health");
      expect(res.status).toBe(503);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.json()).toEqual({
        status: "unavailable",
        checks: { d1: "ok", kv: "error", r2: "ok", queue: "ok", shards: "ok" },
        shards: { 1: "ok", 2: "ok" },
      });
    } finally {
      get.mockRestore();
      log.mockRestore();
    }
  });
});
