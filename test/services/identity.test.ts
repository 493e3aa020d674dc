import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/lib/errors";
import { usernameBase } from "../../src/services/identity/accounts";
import { verifyIdToken } from "../../src/services/identity/oidc";
import { verifyRetailerParams } from "../../src/services/identity/retailer";
import { verifyStoreToken } from "../../src/services/identity/store";
import { idToken } from "../helpers/identity";

const withEnv = (vars: Partial<Record<"IDENTITY_PROVIDERS" | "RETAILER_SECRETS" | "STORE_KEYS", unknown>>) => ({ ...env, ...vars }) as Env;

async function failure(p: Promise<unknown>) {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  const { status, vcode, message } = err as ApiError;
  return { status, vcode, message };
}

const provider = { name: "p", issuer: "https://p.test", audience: "a", jwks_url: "https://p.test/jwks" };

describe("provider configuration is validated at first use", () => {
  it("an unset configuration turns the login path off: 400 naming the field", async () => {
    expect(await failure(verifyIdToken(withEnv({ IDENTITY_PROVIDERS: undefined }), "social", "x"))).toEqual({
      status: 400,
      vcode: 5002,
      message: "social_token: social_token logins are not enabled on this server",
    });
    expect((await failure(verifyIdToken(withEnv({ IDENTITY_PROVIDERS: JSON.stringify({ social: [provider] }) }), "idp", "x"))).status).toBe(
      400,
    );
    expect((await failure(verifyRetailerParams(withEnv({ RETAILER_SECRETS: "" }), "x"))).status).toBe(400);
    expect((await failure(verifyStoreToken(withEnv({ STORE_KEYS: undefined }), "x"))).status).toBe(400);
  });

  it.each([
    ["not JSON", "{social: ["],
    ["both a JWKS URL and inline keys", JSON.stringify({ social: [{ ...provider, jwks: { keys: [{ kty: "RSA" }] } }] })],
    ["neither", JSON.stringify({ social: [{ name: "p", issuer: "https://p.test", audience: "a" }] })],
    ["a plain-HTTP JWKS URL", JSON.stringify({ social: [{ ...provider, jwks_url: "http://p.test/jwks" }] })],
    ["a duplicate name", JSON.stringify({ social: [provider, { ...provider, issuer: "https://q.test" }] })],
    ["an unknown field", JSON.stringify({ social: [{ ...provider, secret: "x" }] })],
    ["a bad name", JSON.stringify({ social: [{ ...provider, name: "Google!" }] })],
  ])("a misconfigured provider list (%s) answers 503 with a clear message", async (_, value) => {
    const token = await idToken("social");
    expect(await failure(verifyIdToken(withEnv({ IDENTITY_PROVIDERS: value }), "social", token))).toEqual({
      status: 503,
      vcode: 5503,
      message: "social_token logins are misconfigured on this server (IDENTITY_PROVIDERS is invalid)",
    });
  });

  it("accepts the configuration as a wrangler.toml table (an object) too", async () => {
    // A valid provider for the test issuer whose only key is not the one the token was signed with.
    const social = [
      {
        name: "p",
        issuer: "https://social.test",
        audience: "catalogue-test",
        jwks: { keys: [{ kty: "EC", crv: "P-256", x: "AA", y: "AA" }] },
      },
    ];
    const res = await failure(verifyIdToken(withEnv({ IDENTITY_PROVIDERS: { social } }), "social", await idToken("social")));
    expect(res).toEqual({ status: 401, vcode: 7403, message: "invalid social_token: bad signature" });
  });

  it("misconfigured retailer secrets and store keys answer 503", async () => {
    expect(await failure(verifyRetailerParams(withEnv({ RETAILER_SECRETS: JSON.stringify({ shop: "short" }) }), "x"))).toEqual({
      status: 503,
      vcode: 5503,
      message: "retailer_params logins are misconfigured on this server (RETAILER_SECRETS is invalid)",
    });
    expect((await failure(verifyStoreToken(withEnv({ STORE_KEYS: JSON.stringify({ bundle_id: "b", keys: [] }) }), "x"))).status).toBe(503);
  });
});

describe("usernames derived from an email or a name", () => {
  it.each([
    ["jo.smith", "jo_smith"],
    ["Zoë-Ünal", "zoe_unal"],
    ["ab", "user_ab"],
    ["+++", "user"],
    ["a".repeat(40), "a".repeat(24)],
    ["abcdefghijklmnopqrstuvw.xyz", "abcdefghijklmnopqrstuvw"],
  ])("%s → %s", (hint, expected) => {
    expect(usernameBase(hint)).toBe(expected);
  });
});
