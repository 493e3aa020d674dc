import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../src/lib/errors";
import { jsonSyntaxErrorAt } from "../../src/lib/json-syntax";
import { verifyIdToken } from "../../src/services/identity/oidc";
import { verifyRetailerParams } from "../../src/services/identity/retailer";
import { verifyStoreToken } from "../../src/services/identity/store";
import { idToken } from "../helpers/identity";

/**
 * A malformed JSON configuration var is logged by name and position, never by its text: V8's JSON.parse message quotes
 * the text around the error, which for RETAILER_SECRETS is part of a secret (docs/api.md, "External identity").
 */
type Vars = Partial<Record<"IDENTITY_PROVIDERS" | "RETAILER_SECRETS" | "STORE_KEYS", unknown>>;
const withEnv = (vars: Vars) => ({ ...env, ...vars }) as Env;

const SECRET = "s3cr3t-retailer-key-0123456789abcdef";

/** The log lines a misconfigured var produces, and the 503 the login answers. */
async function logged(call: () => Promise<unknown>) {
  const error = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    const err = await call().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(503);
    return error.mock.calls.map((args) => args.map(String).join(" "));
  } finally {
    error.mockRestore();
  }
}

describe("a malformed JSON var logs its name and the position, never its text", () => {
  it.each([
    ["a bare value", `{"acme": ${SECRET}}`, 9],
    ["an unterminated string", `{"acme": "${SECRET}`, 46],
    ["a missing colon", `{"acme" "${SECRET}"}`, 8],
    ["a trailing comma", `{"acme": "${SECRET}",}`, 48],
  ])("RETAILER_SECRETS with %s", async (_, value, position) => {
    const lines = await logged(() => verifyRetailerParams(withEnv({ RETAILER_SECRETS: value }), "x"));
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      {
        level: "error",
        time: expect.any(String),
        event: "config",
        config: "RETAILER_SECRETS",
        problem: `RETAILER_SECRETS is not valid JSON (syntax error at position ${position})`,
      },
    ]);
    for (const line of lines) expect(line).not.toContain("s3cr3t");
  });

  it("RETAILER_SECRETS with the secret pasted as the key: the key is named by its position", async () => {
    const lines = await logged(() =>
      verifyRetailerParams(withEnv({ RETAILER_SECRETS: JSON.stringify({ [SECRET.toUpperCase()]: "acme" }) }), "x"),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/s3cr3t/i);
    expect(JSON.parse(lines[0]).problem).toContain("#1");
  });

  it("IDENTITY_PROVIDERS and STORE_KEYS go through the same reader", async () => {
    const providers = await logged(async () =>
      verifyIdToken(withEnv({ IDENTITY_PROVIDERS: `{"social": [hidden-value]}` }), "social", await idToken("social")),
    );
    expect(JSON.parse(providers[0])).toEqual({
      level: "error",
      time: expect.any(String),
      event: "config",
      config: "IDENTITY_PROVIDERS",
      problem: "IDENTITY_PROVIDERS is not valid JSON (syntax error at position 12)",
    });
    const store = await logged(() => verifyStoreToken(withEnv({ STORE_KEYS: `{"bundle_id": hidden-value` }), "x"));
    expect(store.join("\n")).not.toContain("hidden");
    expect(JSON.parse(store[0]).problem).toBe("STORE_KEYS is not valid JSON (syntax error at position 14)");
  });
});

describe("jsonSyntaxErrorAt", () => {
  it.each([
    ['{"a": [1, 2.5e3, true, false, null, "\\u00e9\\n"], "b": {}}', undefined],
    ["  [ ]  ", undefined],
    ["", 0],
    ["[1, 2, tru]", 10],
    ['{"a": 1} x', 9],
    ['{"a": "\\x"}', 8],
    ['"a\u0001"', 2],
    ["[[[[", 4],
  ])("%j → %s", (text, at) => {
    expect(jsonSyntaxErrorAt(text)).toBe(at);
  });

  it("scans deep nesting without recursion", () => {
    expect(jsonSyntaxErrorAt("[".repeat(100_000) + "]".repeat(100_000))).toBeUndefined();
    expect(jsonSyntaxErrorAt("[".repeat(100_000))).toBe(100_000);
  });
});
