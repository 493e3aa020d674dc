import { env } from "cloudflare:workers";
import { describe, expect, it, vi, type MockInstance } from "vitest";
import { LAST_MIGRATION } from "../src/db/queries/health";
import { checkHealth } from "../src/services/health";
import { api, db } from "./helpers";

const deps = (overrides: Partial<Env> = {}) => ({ db: db(), env: { ...env, ...overrides } as Env });

/** What test/setup.ts applied (the real migrations, through `applyD1Migrations`, which keeps `d1_migrations` as wrangler does). */
const CATALOGUE = env.TEST_MIGRATIONS.at(-1)!.name;
const SHARD = env.TEST_SHARD_MIGRATIONS.at(-1)!.name;
const MIGRATED = { catalogue: CATALOGUE, shards: { 1: SHARD, 2: SHARD }, behind: [] };

/** GET /health answers `status` (never cached) with these checks, both shards ok and every migration applied. */
async function expectHealth(status: number, overall: string, checks: Record<string, string>) {
  const res = await api("/health");
  expect(res.status).toBe(status);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(await res.json()).toEqual({ status: overall, checks, shards: { 1: "ok", 2: "ok" }, migrations: MIGRATED });
}

describe("GET /health", () => {
  it("answers 200 with every binding ok, never cached, without credentials", async () => {
    await expectHealth(200, "ok", { d1: "ok", kv: "ok", r2: "ok", queue: "ok", shards: "ok" });
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

/** Runs `fn` with console.error silenced and recorded, as the checks log each failure they name. */
async function quietly(fn: (log: MockInstance<typeof console.error>) => Promise<void>) {
  const log = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    await fn(log);
  } finally {
    log.mockRestore();
  }
}

describe("checkHealth", () => {
  it("names a store that fails, and only that one, without its message", () =>
    quietly(async (log) => {
      const broken = { get: async () => Promise.reject(new Error("kv secret detail")) } as unknown as KVNamespace;
      const health = await checkHealth(deps({ CACHE: broken }));
      expect(health).toEqual({
        status: "unavailable",
        checks: { d1: "ok", kv: "error", r2: "ok", queue: "ok", shards: "ok" },
        shards: { 1: "ok", 2: "ok" },
        migrations: MIGRATED,
      });
      expect(JSON.stringify(health)).not.toContain("secret");
      expect(log.mock.calls.join("\n")).toContain("kv secret detail");
    }));

  it("gives up on a check that hangs after the timeout", () =>
    quietly(async () => {
      const hanging = { head: () => new Promise(() => {}) } as unknown as R2Bucket;
      const started = Date.now();
      const health = await checkHealth(deps({ SUBTITLES: hanging }), 50);
      expect(health.checks).toEqual({ d1: "ok", kv: "ok", r2: "timeout", queue: "ok", shards: "ok" });
      expect(Date.now() - started).toBeLessThan(1_000);
    }));

  it("reports a missing binding, and a D1 that fails", () =>
    quietly(async () => {
      const noQueue = await checkHealth(deps({ JOBS: undefined as unknown as Queue }));
      expect(noQueue.checks.queue).toBe("missing");
      const failing = { ...db(), get: async () => Promise.reject(new Error("D1_ERROR")) } as unknown as ReturnType<typeof db>;
      const health = await checkHealth({ db: failing, env });
      // The shard list is the catalogue's: with D1 down it is unknown, and the shards check fails with it.
      expect(health).toEqual({
        status: "unavailable",
        checks: { d1: "error", kv: "ok", r2: "ok", queue: "ok", shards: "error" },
        shards: {},
        migrations: { catalogue: null, shards: {}, behind: [] },
      });
    }));
});

describe("checkHealth: the shards", () => {
  it("names each shard the catalogue lists, a shard without a binding as missing, one that fails as error", () =>
    quietly(async () => {
      const broken = { prepare: () => ({ first: async () => Promise.reject(new Error("shard 2 down")) }) } as unknown as D1Database;
      expect(await checkHealth(deps({ SHARD_2: broken }))).toMatchObject({
        status: "unavailable",
        checks: { d1: "ok", shards: "error" },
        shards: { 1: "ok", 2: "error" },
        // A shard that did not answer has no version; it is not counted behind (its state already says it failed).
        migrations: { catalogue: CATALOGUE, shards: { 1: SHARD, 2: null }, behind: [] },
      });
      expect(await checkHealth(deps({ SHARD_1: undefined as unknown as D1Database }))).toMatchObject({
        status: "unavailable",
        checks: { shards: "missing" },
        shards: { 1: "missing", 2: "ok" },
        migrations: { catalogue: CATALOGUE, shards: { 1: null, 2: SHARD }, behind: [] },
      });
    }));
});

describe("/health over the Worker when a check fails", () => {
  it("answers 503 naming the failing binding", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const get = vi.spyOn(env.CACHE, "get").mockRejectedValue(new Error("KV down"));
    try {
      await expectHealth(503, "unavailable", { d1: "ok", kv: "error", r2: "ok", queue: "ok", shards: "ok" });
    } finally {
      get.mockRestore();
      log.mockRestore();
    }
  });
});

describe("/health: each database's schema version", () => {
  type Applied = { id: number; name: string; applied_at: string };
  /** Takes shard `d1`'s last `d1_migrations` row away, as a shard whose newest migration failed would lack it; puts it back after. */
  async function withoutLastMigration(d1: D1Database, work: () => Promise<void>) {
    const last = (await d1.prepare("SELECT id, name, applied_at FROM d1_migrations ORDER BY id DESC LIMIT 1").first<Applied>())!;
    await d1.prepare("DELETE FROM d1_migrations WHERE id = ?").bind(last.id).run();
    try {
      await work();
    } finally {
      await d1.prepare("INSERT INTO d1_migrations (id, name, applied_at) VALUES (?, ?, ?)").bind(last.id, last.name, last.applied_at).run();
    }
  }

  it("names the catalogue's and each shard's last applied migration, as d1_migrations holds them", async () => {
    const rows = await Promise.all(
      [env.DB, env.SHARD_1, env.SHARD_2].map((d1) => d1.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>()),
    );
    expect(rows.map((r) => r.results.length)).toEqual([
      env.TEST_MIGRATIONS.length,
      env.TEST_SHARD_MIGRATIONS.length,
      env.TEST_SHARD_MIGRATIONS.length,
    ]);
    const body = (await (await api("/health")).json()) as { migrations: unknown };
    expect(body.migrations).toEqual({ catalogue: rows[0].results.at(-1)!.name, shards: { 1: SHARD, 2: SHARD }, behind: [] });
    expect(CATALOGUE).toMatch(/^\d{4}_\w+\.sql$/);
  });

  it("flags a shard whose last migration is older than the others', and keeps 200: a shard behind is not an outage", async () => {
    await withoutLastMigration(env.SHARD_2, async () => {
      const res = await api("/health");
      expect(res.status).toBe(200);
      const previous = env.TEST_SHARD_MIGRATIONS.at(-2)!.name;
      expect(await res.json()).toEqual({
        status: "ok",
        checks: { d1: "ok", kv: "ok", r2: "ok", queue: "ok", shards: "ok" },
        shards: { 1: "ok", 2: "ok" },
        migrations: { catalogue: CATALOGUE, shards: { 1: SHARD, 2: previous }, behind: ["2"] },
      });
    });
    // Put back, the two agree again.
    expect(((await (await api("/health")).json()) as { migrations: unknown }).migrations).toEqual(MIGRATED);
  });

  it("reads one row per database: the last migration through its primary key", async () => {
    const meta = await Promise.all([env.DB, env.SHARD_1].map(async (d1) => (await d1.prepare(LAST_MIGRATION).run()).meta));
    expect(meta.map((m) => m.rows_read)).toEqual([1, 1]);
  });
});
