import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/lib/errors";
import { verifyRetailerParams } from "../../src/services/identity/retailer";
import { retailerParams } from "../helpers/identity";

// RETAILER_SECRETS rotates by listing two keys for a retailer while it switches (docs/operations.md, "Rotating secrets").
const NEW = "retailer-rotation-new-key-0123456789abcdef";
const OLD = "retailer-rotation-old-key-0123456789abcdef";
const withSecrets = (secrets: unknown) => ({ ...env, RETAILER_SECRETS: JSON.stringify(secrets) }) as Env;

async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return { status: (err as ApiError).status, message: (err as ApiError).message };
}

describe("RETAILER_SECRETS rotation", () => {
  it("with [new, old] either key signs; with the new key alone the old one is refused", async () => {
    const during = withSecrets({ rotshop: [NEW, OLD] });
    for (const secret of [NEW, OLD]) {
      const verified = await verifyRetailerParams(during, await retailerParams({ retailer: "rotshop", secret }));
      expect(verified.identity.ref).toMatch(/^rotshop:/);
    }
    const after = withSecrets({ rotshop: NEW });
    await verifyRetailerParams(after, await retailerParams({ retailer: "rotshop", secret: NEW }));
    expect(await refusal(verifyRetailerParams(after, await retailerParams({ retailer: "rotshop", secret: OLD })))).toEqual({
      status: 401,
      message: expect.stringContaining("bad signature"),
    });
  });

  it("a wrong key is refused during the rotation", async () => {
    const params = await retailerParams({ retailer: "rotshop", secret: "retailer-rotation-wrong-key-0123456789ab" });
    expect((await refusal(verifyRetailerParams(withSecrets({ rotshop: [NEW, OLD] }), params))).status).toBe(401);
  });

  it("more than two keys, none, or a short one is a misconfiguration (503)", async () => {
    for (const keys of [[NEW, OLD, `${NEW}x`], [], [NEW, "short"]]) {
      const params = await retailerParams({ retailer: "rotshop", secret: NEW });
      expect((await refusal(verifyRetailerParams(withSecrets({ rotshop: keys }), params))).status).toBe(503);
    }
  });
});
