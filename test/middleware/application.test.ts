import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { renderError } from "../../src/app";
import { createRouter } from "../../src/lib/router";
import { hmacSha1Hex } from "../../src/lib/signature";
import { requireApp, requireOfficialApp, resolveApplication } from "../../src/middleware/application";
import { requestContext } from "../../src/middleware/context";
import { createApplication, errorBody } from "../helpers";

// A small app with the real middleware and real D1: the guards are what later routes mount.
const app = createRouter();
app.use("*", requestContext, resolveApplication);
app.get("/open", (c) => c.json({ app: c.get("application")?.id ?? null }));
app.get("/needs-app", requireApp, (c) => c.json({ ok: true }));
app.post("/official", requireOfficialApp, async (c) => c.json({ body: await c.req.json() }));
app.onError(renderError);

const call = (path: string, init?: RequestInit) => app.request(`https://api.test${path}`, init, env);

let official: Awaited<ReturnType<typeof createApplication>>;
let partner: Awaited<ReturnType<typeof createApplication>>;
beforeAll(async () => {
  official = await createApplication({ official: true, secret: "official-secret" });
  partner = await createApplication({ secret: "partner-secret" });
});

const now = () => Math.floor(Date.now() / 1000);

describe("app= resolution", () => {
  it("is optional on open routes and resolved when given", async () => {
    expect(await (await call("/open")).json()).toEqual({ app: null });
    expect(await (await call(`/open?app=${partner.wireId}`)).json()).toEqual({ app: partner.id });
  });

  it("ignores an unsigned unknown application on open routes, and refuses it where an application is needed", async () => {
    const open = await call("/open?app=999999a");
    expect(open.status).toBe(200);
    expect(await open.json()).toEqual({ app: null });
    expect(open.headers.get("x-app-ignored")).toBe("unknown");
    const needed = await call("/needs-app?app=999999a");
    expect(needed.status).toBe(401);
    expect((await errorBody(needed)).error).toBe("unknown application '999999a'");
    const signed = await call(`/open?app=999999a&t=${now()}&sig=00`);
    expect(signed.status).toBe(401);
  });

  it("requireApp names the missing field", async () => {
    const res = await call("/needs-app");
    expect(res.status).toBe(400);
    expect((await errorBody(res)).details).toEqual([{ field: "app", message: expect.any(String) }]);
  });

  it("requireOfficialApp refuses other applications with 403", async () => {
    const res = await call(`/official?app=${partner.wireId}`, { method: "POST", body: "{}" });
    expect(res.status).toBe(403);
    expect((await errorBody(res)).vcode).toBe(5403);
  });
});

describe("signed requests", () => {
  it("accepts a valid query signature over path, query and body", async () => {
    const path = `/official?app=${official.wireId}&t=${now()}`;
    const body = '{"hello":"world"}';
    const sig = await hmacSha1Hex("official-secret", `${path}${body}`);
    const res = await call(`${path}&sig=${sig}`, { method: "POST", body, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ body: { hello: "world" } });
  });

  it("accepts the signature and timestamp headers", async () => {
    const t = String(now());
    const sig = await hmacSha1Hex("partner-secret", `/open?app=${partner.wireId}&t=${t}`);
    const res = await call(`/open?app=${partner.wireId}`, { headers: { signature: sig, timestamp: t } });
    expect(res.status).toBe(200);
  });

  it("refuses a wrong signature with vcode 4", async () => {
    const res = await call(`/open?app=${partner.wireId}&t=${now()}&sig=deadbeef`);
    expect(res.status).toBe(401);
    expect((await errorBody(res)).vcode).toBe(4);
  });

  it("refuses a body changed after signing", async () => {
    const path = `/official?app=${official.wireId}&t=${now()}`;
    const sig = await hmacSha1Hex("official-secret", `${path}{"a":1}`);
    const res = await call(`${path}&sig=${sig}`, { method: "POST", body: '{"a":2}' });
    expect(res.status).toBe(401);
  });

  it("refuses a stale timestamp with vcode 5 and the server's time", async () => {
    const t = now() - 3600;
    const path = `/open?app=${partner.wireId}&t=${t}`;
    const sig = await hmacSha1Hex("partner-secret", path);
    const res = await call(`${path}&sig=${sig}`);
    expect(res.status).toBe(401);
    const body = (await res.json()) as { vcode: number; current_timestamp: number };
    expect(body.vcode).toBe(5);
    expect(Math.abs(body.current_timestamp - now())).toBeLessThan(5);
  });

  it("refuses a signature without an application", async () => {
    const res = await call(`/open?t=${now()}&sig=abc`);
    expect(res.status).toBe(400);
  });
});

describe("official applications prove who they are", () => {
  it("an official application's unsigned request to an official-only route is 401 naming the signature", async () => {
    const res = await call(`/official?app=${official.wireId}`, { method: "POST", body: "{}" });
    expect(res.status).toBe(401);
    const body = await errorBody(res);
    expect(body.vcode).toBe(4);
    expect(body.details).toEqual([{ field: "sig", message: expect.stringContaining("sign") }]);
    // Its public reads stay unsigned.
    expect(await (await call(`/open?app=${official.wireId}`)).json()).toEqual({ app: official.id });
  });

  it("the same request signed with the header form is accepted", async () => {
    const t = String(now());
    const path = `/official?app=${official.wireId}`;
    const signature = await hmacSha1Hex("official-secret", `${path}&t=${t}{"a":1}`);
    const res = await call(path, {
      method: "POST",
      body: '{"a":1}',
      headers: { timestamp: t, signature, "content-type": "application/json" },
    });
    expect(res.status).toBe(200);
  });
});
