import { describe, expect, it } from "vitest";
import { toBase64Url } from "../../src/lib/encoding";
import { signatureHeader, signStandardWebhook, signWebhook, standardKey, verifyWebhookSignature } from "../../src/lib/webhook-signature";

// HMAC-SHA256("whsec_test", '1700000000.{"a":1}'), computed independently (Node's crypto.createHmac).
const VECTOR = "38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789";
const T = 1_700_000_000;
const BODY = '{"a":1}';
const ID = "12e";
// The Standard Webhooks value of ID.T.BODY keyed by base64-decoded "test" (Node's crypto, independently).
const STANDARD = "wNbc1f7xBydNyExIPDw0X7oHCfvE5TC1WabCkSM71os=";

describe("webhook signatures", () => {
  it("signs '<timestamp>.<body>' with HMAC-SHA256 in hex", async () => {
    expect(await signWebhook("whsec_test", T, BODY)).toBe(VECTOR);
  });

  it("signs the Standard Webhooks way: base64 HMAC-SHA256 of '<id>.<timestamp>.<body>' keyed by the secret's bytes", async () => {
    // The example of the Standard Webhooks specification.
    expect(
      await signStandardWebhook(
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "msg_p5jXN8AQM9LWM0D4loKWxJek",
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe("g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    expect(await signStandardWebhook("whsec_test", ID, T, BODY)).toBe(STANDARD);
    // A secret written in base64url before the standard form is read as the same bytes.
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    expect(standardKey(`whsec_${toBase64Url(bytes)}`)).toEqual(bytes);
  });

  it("sends the standard values first, then the legacy ones, one of each per secret", async () => {
    expect(await signatureHeader(["whsec_test"], ID, T, BODY)).toBe(`v1,${STANDARD} v1=${VECTOR}`);
    const old = { standard: await signStandardWebhook("whsec_old", ID, T, BODY), legacy: await signWebhook("whsec_old", T, BODY) };
    expect(await signatureHeader(["whsec_test", "whsec_old"], ID, T, BODY)).toBe(
      `v1,${STANDARD} v1,${old.standard} v1=${VECTOR} v1=${old.legacy}`,
    );
  });

  it("verifies like a receiver: any v1 value, the exact body, a fresh timestamp", async () => {
    const both = await signatureHeader(["whsec_new", "whsec_test"], ID, T, BODY);
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
