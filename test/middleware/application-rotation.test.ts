import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { renderError } from "../../src/app";
import { applications } from "../../src/db/schema";
import { createRouter } from "../../src/lib/router";
import { hmacSha1Hex, validSecrets } from "../../src/lib/signature";
import { requireOfficialApp, resolveApplication } from "../../src/middleware/application";
import { requestContext } from "../../src/middleware/context";
import { api, createApplication, db, errorBody } from "../helpers";

// Application secrets rotate with an overlap (docs/decisions.md, "Secret rotation"): the admin CLI writes the columns
// (scripts/test-admin.mjs runs it); here the rows are set directly and the real middleware judges the signatures.
const app = createRouter();
app.use("*", requestContext, resolveApplication);
app.post("/official", requireOfficialApp, async (c) => c.json({ body: await c.req.json() }));
app.onError(renderError);

const call = (path: string, init?: RequestInit) => app.request(`https://api.test${path}`, init, env);
const now = () => Math.floor(Date.now() / 1000);

const NEW = "rotation-new-secret";
const OLD = "rotation-old-secret";
let official: Awaited<ReturnType<typeof createApplication>>;

/** The row as a rotation leaves it: `OLD` signing until `expiresAt` (null: no overlap). */
async function setRotation(previousSecret: string | null, previousSecretExpiresAt: number | null) {
  await db().update(applications).set({ secret: NEW, previousSecret, previousSecretExpiresAt }).where(eq(applications.id, official.id));
}

beforeEach(async () => {
  official = await createApplication({ official: true, secret: NEW });
});

/** A signed POST to an official-only route, by query signature or by the headers. */
async function signedPost(secret: string, form: "query" | "headers" = "query") {
  const body = '{"hello":"world"}';
  const t = String(now());
  const init = { method: "POST", body, headers: { "content-type": "application/json" } };
  if (form === "query") {
    const path = `/official?app=${official.wireId}&t=${t}`;
    return call(`${path}&sig=${await hmacSha1Hex(secret, `${path}${body}`)}`, init);
  }
  const sig = await hmacSha1Hex(secret, `/official?app=${official.wireId}&t=${t}${body}`);
  return call(`/official?app=${official.wireId}`, { ...init, headers: { ...init.headers, signature: sig, timestamp: t } });
}

async function expectRefused(res: Response) {
  expect(res.status).toBe(401);
  expect(await errorBody(res)).toMatchObject({ vcode: 4, error: "invalid signature" });
}

describe("application secret rotation: signatures", () => {
  it("during the overlap the new and the old secret both sign, in both signature forms", async () => {
    await setRotation(OLD, now() + 7 * 24 * 60 * 60);
    for (const form of ["query", "headers"] as const) {
      expect((await signedPost(NEW, form)).status).toBe(200);
      expect((await signedPost(OLD, form)).status).toBe(200);
    }
  });

  it("a wrong secret is refused during the overlap", async () => {
    await setRotation(OLD, now() + 3600);
    await expectRefused(await signedPost("rotation-wrong-secret"));
    await expectRefused(await signedPost(`${OLD}x`));
  });

  it("after the expiry only the new secret signs (the expiry second itself is past the overlap)", async () => {
    for (const expiry of [now() - 1, now()]) {
      await setRotation(OLD, expiry);
      await expectRefused(await signedPost(OLD));
      expect((await signedPost(NEW)).status).toBe(200);
    }
  });

  it("after end-overlap (both columns null) only the new secret signs", async () => {
    await setRotation(OLD, now() + 3600);
    expect((await signedPost(OLD)).status).toBe(200);
    await setRotation(null, null);
    await expectRefused(await signedPost(OLD));
    expect((await signedPost(NEW)).status).toBe(200);
  });

  it("fails closed on a half-written row: a previous secret without an expiry does not sign", async () => {
    await setRotation(OLD, null);
    await expectRefused(await signedPost(OLD));
  });

  it("logs the requests signed with the previous secret (appSecret), so operators see who has not switched", async () => {
    await setRotation(OLD, now() + 3600);
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      expect((await signedPost(OLD)).status).toBe(200);
      expect((await signedPost(NEW)).status).toBe(200);
      const lines = log.mock.calls
        .map((args) => String(args[0]))
        .filter((l) => l.startsWith("{") && l.includes('"event":"request"'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.map((l) => l.appSecret)).toEqual(["previous", undefined]);
      expect(lines.every((l) => l.app === official.id)).toBe(true);
      for (const l of lines) expect(JSON.stringify(l)).not.toContain(OLD);
    } finally {
      log.mockRestore();
    }
  });
});

describe("application secret rotation: the v3 OAuth client secret", () => {
  const token = (clientSecret: string) =>
    api("/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: official.wireId, client_secret: clientSecret }).toString(),
    });

  it("the previous secret is a valid client_secret during the overlap, not after; a wrong one never", async () => {
    await setRotation(OLD, now() + 3600);
    expect((await token(NEW)).status).toBe(200);
    expect((await token(OLD)).status).toBe(200);
    expect((await token("rotation-wrong-secret")).status).toBe(401);
    await setRotation(OLD, now() - 1);
    expect((await token(OLD)).status).toBe(401);
    expect((await token(NEW)).status).toBe(200);
    await setRotation(null, null);
    expect((await token(OLD)).status).toBe(401);
  });
});

describe("validSecrets", () => {
  it("is the current secret, plus the previous one strictly before its expiry", () => {
    const s = { secret: NEW, previousSecret: OLD, previousSecretExpiresAt: 1000 };
    expect(validSecrets(s, 999)).toEqual([NEW, OLD]);
    expect(validSecrets(s, 1000)).toEqual([NEW]);
    expect(validSecrets({ ...s, previousSecret: null }, 999)).toEqual([NEW]);
    expect(validSecrets({ ...s, previousSecret: "" }, 999)).toEqual([NEW]);
    expect(validSecrets({ ...s, previousSecretExpiresAt: null }, 999)).toEqual([NEW]);
  });
});
