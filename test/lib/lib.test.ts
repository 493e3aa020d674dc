import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/lib/errors";
import { formatId, parseId, tryParseId, tryParseResourceId } from "../../src/lib/ids";
import { paging } from "../../src/lib/paging";
import { PBKDF2_ITERATIONS, hashPassword, verifyPassword } from "../../src/lib/password";
import { hmacSha1Hex, queryWithoutSig, signedMessageBytes } from "../../src/lib/signature";

describe("ids", () => {
  it("formats and parses suffixed ids strictly", () => {
    expect(formatId(50, "c")).toBe("50c");
    expect(tryParseId("50c", "c")).toBe(50);
    expect(tryParseId("12tc", "tc")).toBe(12);
    for (const bad of ["50", "50v", "c", "050c", "5 0c", "-1c", "50c.json", "1234567890123456c", ""]) {
      expect(tryParseId(bad, "c")).toBeNull();
    }
    // "12tc" is a timed comment, not a container.
    expect(tryParseId("12tc", "c")).toBeNull();
  });

  it("turns a malformed path id into a 404, not a crash", () => {
    try {
      parseId("abc", "v");
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(404);
    }
  });

  it("parses container and video resource ids", () => {
    expect(tryParseResourceId("12v")).toEqual({ kind: "v", id: 12 });
    expect(tryParseResourceId("3c")).toEqual({ kind: "c", id: 3 });
    expect(tryParseResourceId("3u")).toBeNull();
  });
});

describe("signatures", () => {
  it("matches the check value of docs/spec/wire.md#signatures", async () => {
    expect(await hmacSha1Hex("orange", "/v4/movies.json?sort=views&app=9001&t=1356482778")).toBe(
      "be84d78da2b1ce800fe745ec782ded2304233390",
    );
  });

  it("signs path + query without sig + body", () => {
    const url = "https://x.test/v4/movies.json?sort=views&app=9001&t=1356482778&sig=abc";
    expect(queryWithoutSig(url)).toBe("sort=views&app=9001&t=1356482778");
    const signed = (rawUrl: string, body: string, t?: string) =>
      new TextDecoder().decode(signedMessageBytes(rawUrl, new TextEncoder().encode(body), t));
    expect(signed(url, "")).toBe("/v4/movies.json?sort=views&app=9001&t=1356482778");
    expect(signed("https://x.test/v4/a.json?app=1a", '{"a":1}', "99")).toBe('/v4/a.json?app=1a&t=99{"a":1}');
  });
});

describe("passwords", () => {
  it("never exceed the 100,000 PBKDF2 iterations Workers allow", async () => {
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(100_000);
    const hash = await hashPassword("secret");
    expect(hash.split("$")[1]).toBe(String(PBKDF2_ITERATIONS));
    expect(Number(hash.split("$")[1])).toBeLessThanOrEqual(100_000);
  });

  it("verifies the right password only and refuses hashes above the ceiling", async () => {
    const hash = await hashPassword("secret", 1000);
    expect(await verifyPassword("secret", hash)).toBe(true);
    expect(await verifyPassword("Secret", hash)).toBe(false);
    const tooCostly = hash.replace("$1000$", "$200000$");
    expect(await verifyPassword("secret", tooCostly)).toBe(false);
  });
});

describe("paging", () => {
  it("defaults, clamps per_page and computes offsets", () => {
    expect(paging({})).toMatchObject({ page: 1, perPage: 25, offset: 0, limit: 26 });
    expect(paging({ page: 3, per_page: 10 })).toMatchObject({ offset: 20, limit: 11 });
  });
});
