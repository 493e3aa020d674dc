import { describe, expect, it } from "vitest";
import { signatureHeader, signWebhook, verifyWebhookSignature } from "../../src/lib/webhook-signature";

// HMAC-SHA256("whsec_test", '1700000000.{"a":1}'), computed independently (Node's crypto.createHmac).
const VECTOR = "38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789";
const T = 1_700_000_000;
const BODY = '{"a":1}';

describe("webhook signatures", () => {
  it("signs '<timestamp>.<body>' with HMAC-SHA256 in hex", async () => {
    expect(await signWebhook("whsec_test", T, BODY)).toBe(VECTOR);
    expect(await signatureHeader(["whsec_test"], T, BODY)).toBe(`v1=${VECTOR}`);
    expect(await signatureHeader(["whsec_test", "whsec_old"], T, BODY)).toBe(`v1=${VECTOR} v1=${await signWebhook("whsec_old", T, BODY)}`);
  });

  it("verifies like a receiver: any v1 value, the exact body, a fresh timestamp", async () => {
    const both = await signatureHeader(["whsec_new", "whsec_test"], T, BODY);
    expect(await verifyWebhookSignature("whsec_test", both, String(T), BODY, 300, T)).toBe(true);
    expect(await verifyWebhookSignature("whsec_new", both, T, BODY, 300, T + 300)).toBe(true);
    expect(await verifyWebhookSignature("whsec_other", both, T, BODY, 300, T)).toBe(false);
    expect(await verifyWebhookSignature("whsec_test", both, T, '{"a": 1}', 300, T)).toBe(false);
    expect(await verifyWebhookSignature("whsec_test", both, T + 1, BODY, 300, T)).toBe(false);
    // Stale or from the future.
    expect(await verifyWebhookSignature("whsec_test", both, T, BODY, 300, T + 301)).toBe(false);
    expect(await verifyWebhookSignature("whsec_test", both, T, BODY, 300, T - 301)).toBe(false);
    // Unknown schemes and malformed values are ignored, upper-case hex accepted.
    expect(await verifyWebhookSignature("whsec_test", `v2=${VECTOR} v1=${VECTOR.toUpperCase()}`, T, BODY, 300, T)).toBe(true);
    expect(await verifyWebhookSignature("whsec_test", `v2=${VECTOR} garbage`, T, BODY, 300, T)).toBe(false);
    for (const header of ["", null, undefined]) expect(await verifyWebhookSignature("whsec_test", header, T, BODY, 300, T)).toBe(false);
    for (const stamp of ["", "1.7e9", ` ${T}`, null])
      expect(await verifyWebhookSignature("whsec_test", `v1=${VECTOR}`, stamp, BODY, 300, T)).toBe(false);
  });
});
