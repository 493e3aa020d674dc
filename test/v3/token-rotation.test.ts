import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { SignJWT, decodeProtectedHeader, exportJWK, generateSecret } from "jose";
import { beforeAll, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { toHex, utf8 } from "../../src/lib/encoding";
import { type V3TokenKeys, V3_TOKEN_TTL_SECONDS, issueV3Token, v3KeyId, verifyV3Token } from "../../src/lib/v3-tokens";
import { createApplication } from "../helpers";

// V3_TOKEN_SECRET rotates with key ids (docs/decisions.md, "Secret rotation"): new tokens name their key in `kid`;
// V3_TOKEN_SECRET_PREVIOUS verifies the tokens that name it, and only while it is set.
const CURRENT = "v3-rotation-current-key-0123456789abcdef";
const PREVIOUS = "v3-rotation-previous-key-0123456789abcdef";
const both: V3TokenKeys = { V3_TOKEN_SECRET: CURRENT, V3_TOKEN_SECRET_PREVIOUS: PREVIOUS };
const currentOnly: V3TokenKeys = { V3_TOKEN_SECRET: CURRENT };
const now = () => Math.floor(Date.now() / 1000);
const b64url = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** A token of the same claims as issueV3Token's, with the header and key a test chooses. */
function token(header: Record<string, unknown> & { alg: string }, key: string | CryptoKey = CURRENT, payload = {}) {
  return new SignJWT({ cid: 7, scope: "public", ...payload })
    .setProtectedHeader(header)
    .setIssuer("media-catalogue/v3")
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(typeof key === "string" ? utf8(key) : key);
}

describe("key ids", () => {
  it("a token names its key: the first 8 hex digits of the key's SHA-256", async () => {
    const expected = toHex(await crypto.subtle.digest("SHA-256", utf8(CURRENT))).slice(0, 8);
    expect(await v3KeyId(CURRENT)).toBe(expected);
    expect(decodeProtectedHeader(await issueV3Token(CURRENT, { clientId: 7 }))).toEqual({ alg: "HS256", typ: "JWT", kid: expected });
    expect(await v3KeyId(PREVIOUS)).not.toBe(expected);
  });
});

describe("verifyV3Token with a previous key", () => {
  it("a token of the previous key verifies while V3_TOKEN_SECRET_PREVIOUS is set, and not after", async () => {
    const old = await issueV3Token(PREVIOUS, { clientId: 7, userId: 9 });
    expect(await verifyV3Token(both, old)).toEqual({ ok: true, claims: { clientId: 7, userId: 9 } });
    expect(await verifyV3Token(currentOnly, old)).toEqual({ ok: false, reason: "invalid" });
    expect(await verifyV3Token({ ...currentOnly, V3_TOKEN_SECRET_PREVIOUS: "" }, old)).toEqual({ ok: false, reason: "invalid" });
  });

  it("tokens of the current key verify with or without a previous key", async () => {
    const fresh = await issueV3Token(CURRENT, { clientId: 7 });
    expect(await verifyV3Token(both, fresh)).toMatchObject({ ok: true });
    expect(await verifyV3Token(currentOnly, fresh)).toMatchObject({ ok: true });
  });

  it("a verified token is remembered only until it expires", async () => {
    const issued = now() - V3_TOKEN_TTL_SECONDS + 60;
    const ending = await issueV3Token(CURRENT, { clientId: 7 }, issued);
    expect(await verifyV3Token(currentOnly, ending)).toMatchObject({ ok: true });
    vi.useFakeTimers({ now: (issued + V3_TOKEN_TTL_SECONDS + 1) * 1000 });
    try {
      expect(await verifyV3Token(currentOnly, ending)).toEqual({ ok: false, reason: "expired" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("an expired token of the previous key is expired (403 on the wire), not invalid", async () => {
    const expired = await issueV3Token(PREVIOUS, { clientId: 7 }, now() - 86401);
    expect(await verifyV3Token(both, expired)).toEqual({ ok: false, reason: "expired" });
  });

  it("tokens without kid (issued before key ids) verify against the current key, and the previous one while set", async () => {
    const legacy = await token({ alg: "HS256", typ: "JWT" });
    expect(await verifyV3Token(currentOnly, legacy)).toMatchObject({ ok: true });
    const legacyOld = await token({ alg: "HS256", typ: "JWT" }, PREVIOUS);
    expect(await verifyV3Token(both, legacyOld)).toMatchObject({ ok: true });
    expect(await verifyV3Token(currentOnly, legacyOld)).toEqual({ ok: false, reason: "invalid" });
  });

  it("refuses a kid naming no configured key, and a kid naming another key than the one that signed", async () => {
    const unknownKey = "v3-rotation-unknown-key-0123456789abcdef";
    expect(await verifyV3Token(both, await issueV3Token(unknownKey, { clientId: 7 }))).toEqual({ ok: false, reason: "invalid" });
    expect(await verifyV3Token(both, await token({ alg: "HS256", kid: "deadbeef" }))).toEqual({ ok: false, reason: "invalid" });
    // Signed by the current key but naming the previous one, and the other way round: the kid picks the one key tried.
    expect(await verifyV3Token(both, await token({ alg: "HS256", kid: await v3KeyId(PREVIOUS) }, CURRENT))).toMatchObject({ ok: false });
    expect(await verifyV3Token(both, await token({ alg: "HS256", kid: await v3KeyId(CURRENT) }, PREVIOUS))).toMatchObject({ ok: false });
  });
});

describe("hostile tokens", () => {
  it("alg none is refused, with or without a valid kid", async () => {
    const payload = { cid: 7, scope: "public", iss: "media-catalogue/v3", iat: now(), exp: now() + 3600 };
    for (const header of [{ alg: "none" }, { alg: "none", kid: await v3KeyId(CURRENT) }, { alg: "none", typ: "JWT" }]) {
      for (const signature of ["", "AAAA"]) {
        const unsecured = `${b64url(header)}.${b64url(payload)}.${signature}`;
        expect(await verifyV3Token(both, unsecured)).toEqual({ ok: false, reason: "invalid" });
      }
    }
  });

  it("another HMAC algorithm with the right key and kid is refused", async () => {
    expect(await verifyV3Token(both, await token({ alg: "HS512", kid: await v3KeyId(CURRENT) }))).toMatchObject({ ok: false });
    expect(await verifyV3Token(both, await token({ alg: "HS384" }))).toMatchObject({ ok: false });
  });

  it("kid injection: paths, SQL, other types, a huge value and a key of the attacker's own in the header", async () => {
    const kids: unknown[] = [
      "../../../../dev/null",
      "/proc/self/environ",
      "' OR '1'='1",
      `${await v3KeyId(CURRENT)}\u0000`,
      ` ${await v3KeyId(CURRENT)}`,
      (await v3KeyId(CURRENT)).toUpperCase(),
      "x".repeat(100_000),
      "",
    ];
    for (const kid of kids) {
      expect(await verifyV3Token(both, await token({ alg: "HS256", kid: kid as string }))).toMatchObject({ ok: false });
    }
    // Not a string: the kid of the current key wrapped in an array or object, a number, null.
    for (const kid of [[await v3KeyId(CURRENT)], { $ne: null }, 12345678, null]) {
      const forged = await token({ alg: "HS256", kid } as unknown as { alg: string });
      expect(await verifyV3Token(both, forged)).toEqual({ ok: false, reason: "invalid" });
    }
    // An embedded key (jwk) or key URL (jku) chosen by the attacker is never used.
    const own = (await generateSecret("HS256", { extractable: true })) as CryptoKey;
    const embedded = await token({ alg: "HS256", jwk: await exportJWK(own), kid: await v3KeyId(CURRENT) }, own);
    expect(await verifyV3Token(both, embedded)).toEqual({ ok: false, reason: "invalid" });
    const jku = await token(
      { alg: "HS256", jku: "https://attacker.example/keys.json", kid: "attacker" },
      "attacker-key-0123456789abcdef0123",
    );
    expect(await verifyV3Token(both, jku)).toEqual({ ok: false, reason: "invalid" });
  });

  it("malformed tokens are invalid, never a crash", async () => {
    for (const bad of ["", "a.b.c", "...", "e30.e30.", `${b64url({ alg: "HS256", kid: 1 })}`, "x".repeat(10_000), "eyJ.eyJ.sig"]) {
      expect(await verifyV3Token(both, bad)).toEqual({ ok: false, reason: "invalid" });
    }
  });
});

describe("rotation over HTTP", () => {
  let client: Awaited<ReturnType<typeof createApplication>>;
  beforeAll(async () => {
    client = await createApplication({ secret: "v3-rotation-client-secret" });
  });

  /** The Worker with these keys in place of the test bindings' V3_TOKEN_SECRET. */
  async function fetchWith(keys: V3TokenKeys, path: string, init?: RequestInit) {
    const ctx = createExecutionContext();
    const headers = { "cf-connecting-ip": "192.0.2.31", ...init?.headers };
    const res = await worker.fetch(new Request(`https://api.test${path}`, { ...init, headers }), { ...env, ...keys } as Env, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  }

  it("/oauth/token signs with V3_TOKEN_SECRET, never the previous key", async () => {
    const res = await fetchWith(both, "/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.wireId, client_secret: "v3-rotation-client-secret" }),
    });
    expect(res.status).toBe(200);
    const { access_token } = (await res.json()) as { access_token: string };
    expect(decodeProtectedHeader(access_token).kid).toBe(await v3KeyId(CURRENT));
    expect(await verifyV3Token(currentOnly, access_token)).toMatchObject({ ok: true });
  });

  it("a v3 read with a token of the previous key: 200 while it is set, 401 once it is removed", async () => {
    const old = await issueV3Token(PREVIOUS, { clientId: client.id });
    const path = `/api/v3/genres/movies.json?access_token=${old}`;
    expect((await fetchWith(both, path)).status).toBe(200);
    expect((await fetchWith(currentOnly, path)).status).toBe(401);
    const forged = await issueV3Token("v3-rotation-unknown-key-0123456789abcdef", { clientId: client.id });
    expect((await fetchWith(both, `/api/v3/genres/movies.json?access_token=${forged}`)).status).toBe(401);
  });
});
