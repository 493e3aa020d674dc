import { SELF, createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import worker from "../src/index";
import { runJob } from "../queues/runner";
import { insertJob } from "../src/db/queries/jobs";
import { PermanentJobError } from "../src/jobs";
import { ifNoneMatchHits } from "../src/lib/etag";
import { ORIGIN, api, createApplication, db, signedInUser } from "./helpers";
import { createContainer, createVideo } from "./helpers/catalogue";
import { makeCues, srtOf, waitForJob } from "./helpers/subtitles";
import { jobs } from "../src/db/schema";

/** wrangler.toml's CORS_ORIGINS, which the tests run with. */
const ALLOWED = "https://www.example.com";
const REFUSED = "https://evil.example";

const preflight = (origin: string, path = "/v4/containers.json") =>
  new Request(`${ORIGIN}${path}`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "signature, timestamp" },
  });

/** The Worker with other vars than wrangler.toml's (SELF always has those). */
async function withVars(vars: Partial<Env>, request: Request) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe("CORS", () => {
  it("answers a preflight from an allowed origin with 204, methods, headers, max-age and credentials", async () => {
    const res = await SELF.fetch(preflight(ALLOWED));
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(res.headers.get("access-control-allow-credentials")).toBe("true");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    const allowed = res.headers.get("access-control-allow-headers")!.split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(["authorization", "content-type", "signature", "timestamp", "x-d1-bookmark"]));
    expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    expect(res.headers.get("vary")).toContain("Origin");
    expect(await res.text()).toBe("");
  });

  it("answers a preflight from another origin without allowing it", async () => {
    const res = await SELF.fetch(preflight(REFUSED));
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("access-control-allow-methods")).toBeNull();
  });

  it("leaves a plain OPTIONS (no preflight) to the 405 with Allow", async () => {
    const res = await SELF.fetch(`${ORIGIN}/v4/containers.json`, { method: "OPTIONS" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("GET");
  });

  it("lets an allowed origin read the answer and its exposed headers; another origin gets nothing", async () => {
    const ok = await api("/v4/containers.json", { headers: { origin: ALLOWED } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    const exposed = ok.headers.get("access-control-expose-headers")!.split(/,\s*/);
    for (const name of [
      "x-request-id",
      "x-d1-bookmark",
      "server-timing",
      "etag",
      "retry-after",
      "x-ignored-fields",
      "x-token-ignored",
      "x-app-ignored",
    ])
      expect(exposed).toContain(name);
    expect(ok.headers.get("vary")).toContain("Origin");
    const refused = await api("/v4/containers.json", { headers: { origin: REFUSED } });
    expect(refused.status).toBe(200);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    expect(refused.headers.get("access-control-expose-headers")).toBeNull();
  });

  it("with a wildcard allows any origin, never with credentials", async () => {
    const pre = await withVars({ CORS_ORIGINS: "*" }, preflight(REFUSED));
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-credentials")).toBeNull();
    const res = await withVars({ CORS_ORIGINS: `${ALLOWED}, *` }, new Request(`${ORIGIN}/`, { headers: { origin: ALLOWED } }));
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("sends no CORS headers when no origin is configured", async () => {
    const res = await withVars({ CORS_ORIGINS: "" }, preflight(ALLOWED));
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.status).toBe(405);
  });
});

describe("ETags", () => {
  let path: string;
  beforeAll(async () => {
    const manager = await signedInUser();
    const container = await createContainer({ type: "series", title: "ETag Series", managers: [manager.user.id] });
    path = `/v4/containers/${container.wireId}.json`;
  });

  it("compares If-None-Match weakly and treats * as a match", () => {
    expect(ifNoneMatchHits('W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('"x", W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits("*", '"abc"')).toBe(true);
    expect(ifNoneMatchHits('"abd"', '"abc"')).toBe(false);
    expect(ifNoneMatchHits("*", null)).toBe(false);
    expect(ifNoneMatchHits(undefined, '"abc"')).toBe(false);
  });

  it("answers 304 to a weak ETag and to *, computed and from the edge cache", async () => {
    // A fresh query string per round: the first request of each computes the answer, the next ones hit the cache.
    for (const query of ["?round=1", "?round=2"]) {
      const first = await api(`${path}${query}`);
      const etag = first.headers.get("etag")!;
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
      for (const inm of [`W/${etag}`, "*", `"other", W/${etag}`]) {
        const again = await api(`${path}${query}`, { headers: { "if-none-match": inm } });
        expect(again.status, inm).toBe(304);
        expect(again.headers.get("etag")).toBe(etag);
      }
    }
    const computed = await api(`${path}?round=3`, { headers: { "if-none-match": "*" } });
    expect(computed.status).toBe(304);
  });

  it("gives HEAD the ETag and no body, and 304 to its If-None-Match", async () => {
    const get = await api(`${path}?head=1`);
    const head = await SELF.fetch(`${ORIGIN}${path}?head=2`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(get.headers.get("etag"));
    expect(await head.text()).toBe("");
    const again = await SELF.fetch(`${ORIGIN}${path}?head=3`, {
      method: "HEAD",
      headers: { "if-none-match": `W/${get.headers.get("etag")}` },
    });
    expect(again.status).toBe(304);
  });
});

describe("x-request-id", () => {
  it("keeps a sane client id", async () => {
    const id = "web-1:a.b_C-9";
    const res = await api("/health", { headers: { "x-request-id": id } });
    expect(res.headers.get("x-request-id")).toBe(id);
  });

  it("replaces an id that is too long or has other characters, with cf-ray when there is one", async () => {
    for (const bad of ["a".repeat(129), "has space", "semi;colon", ""]) {
      const res = await api("/health", { headers: { "x-request-id": bad } });
      expect(res.headers.get("x-request-id")).not.toBe(bad);
      expect(res.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    }
    const ray = await api("/health", { headers: { "x-request-id": "no good", "cf-ray": "8f1e2d3c4b5a6978-AMS" } });
    expect(ray.headers.get("x-request-id")).toBe("8f1e2d3c4b5a6978-AMS");
  });
});

describe("request log", () => {
  it("prints one JSON line per request: time, level, method, redacted path, status, error code, duration, D1 rows; no token, no query", async () => {
    // A 4xx is the client's: a warning with its error code (a 5xx would be an error, a success info).
    const log = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const res = await api("/v5/sessions/secret-session-token.json?token=another-secret", { headers: { "x-request-id": "log-check-1" } });
      expect(res.status).toBe(404);
      const lines = log.mock.calls.map((args) => String(args[0])).filter((l) => l.includes('"log-check-1"'));
      expect(lines).toHaveLength(1);
      const line = JSON.parse(lines[0]);
      expect(line).toMatchObject({
        event: "request",
        level: "warn",
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        requestId: "log-check-1",
        method: "GET",
        path: "/v5/sessions/[redacted].json",
        status: 404,
        errorCode: 11,
        d1: { queries: expect.any(Number), rowsRead: expect.any(Number), rowsWritten: expect.any(Number) },
      });
      expect(line.durationMs).toEqual(expect.any(Number));
      expect(lines[0]).not.toContain("secret");
      // Every line starts with its level and time.
      expect(lines[0]).toMatch(/^\{"level":"warn","time":"/);
    } finally {
      log.mockRestore();
    }
  });

  it("logs a success at info, without an error code", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      await api("/health", { headers: { "x-request-id": "log-check-2" } });
      const line = JSON.parse(log.mock.calls.map((args) => String(args[0])).find((l) => l.includes('"log-check-2"'))!);
      expect(line).toMatchObject({ level: "info", event: "request", status: 200 });
      expect(line).not.toHaveProperty("errorCode");
    } finally {
      log.mockRestore();
    }
  });
});

describe("job log", () => {
  const message = (attempts: number) => ({ attempts, ack() {}, retry() {} }) as unknown as Message<unknown>;
  const lines = (spy: { mock: { calls: unknown[][] } }, job: number) =>
    spy.mock.calls.map((args) => JSON.parse(String(args[0]))).filter((l) => l.event === "job" && l.job === job);

  it("prints one JSON line per transition: running, then succeeded, retry or failed, each with the request that queued the job", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const ok = await insertJob(db(), { type: "completion", requestId: "req-queued-it" });
      await runJob(db(), env, ok.id, async () => ({ done: true }), message(1));
      expect(lines(log, ok.id).map((l) => l.transition)).toEqual(["running", "succeeded"]);
      expect(lines(log, ok.id)[1]).toMatchObject({
        level: "info",
        time: expect.any(String),
        requestId: "req-queued-it",
        type: "completion",
        attempt: 1,
        durationMs: expect.any(Number),
      });

      const flaky = await insertJob(db(), { type: "completion" });
      await runJob(db(), env, flaky.id, () => Promise.reject(new Error("D1 is busy")), message(2));
      expect(lines(warn, flaky.id)).toEqual([
        expect.objectContaining({ level: "warn", transition: "retry", error: "D1 is busy", delaySeconds: 4 }),
      ]);

      const doomed = await insertJob(db(), { type: "completion" });
      await runJob(db(), env, doomed.id, () => Promise.reject(new PermanentJobError("no such video")), message(1));
      expect(lines(error, doomed.id)).toEqual([expect.objectContaining({ level: "error", transition: "failed", error: "no such video" })]);
    } finally {
      log.mockRestore();
      warn.mockRestore();
      error.mockRestore();
    }
  });
});

describe("jobs carry the request that queued them", () => {
  it("an import's job and the completion job it queues name the import request's id", async () => {
    const official = await createApplication({ official: true });
    const staff = await signedInUser({ staff: true });
    const container = await createContainer({ title: "Request ids" });
    const video = await createVideo(container.id, { number: 1 });
    const res = await api(`/v4/videos/${video.wireId}/subtitles/import_srt.json?app=${official.wireId}&token=${staff.token}`, {
      method: "POST",
      json: { language: "fr", content: srtOf(makeCues(2, "Salut")) },
      headers: { "x-request-id": "import-request-7" },
    });
    expect(res.status).toBe(202);
    const { job } = (await res.json()) as { job: { id: string } };
    await waitForJob(job.id, staff.token);
    const queued = await db().select({ type: jobs.type, requestId: jobs.requestId }).from(jobs).all();
    expect(
      queued
        .filter((j) => j.requestId === "import-request-7")
        .map((j) => j.type)
        .sort(),
    ).toEqual(["completion", "srt-import"]);
  });
});
