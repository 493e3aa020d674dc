import { toHex, utf8 } from "./encoding";

/**
 * HMAC keys derived from one server secret (V3_TOKEN_SECRET) by HKDF, one per purpose (`info`), so a tag made for one
 * purpose proves nothing in another and the secret itself never signs (docs/decisions.md, "Playback grants",
 * "Sessions"). Derived once per secret, purpose and isolate.
 */
const KEYS = new Map<string, Promise<CryptoKey>>();

export function derivedHmacKey(secret: string, info: string): Promise<CryptoKey> {
  const id = `${info}\n${secret}`;
  let key = KEYS.get(id);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", utf8(secret), "HKDF", false, ["deriveKey"])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(), info: utf8(info) },
          base,
          { name: "HMAC", hash: "SHA-256", length: 256 },
          false,
          ["sign"],
        ),
      );
    KEYS.set(id, key);
  }
  return key;
}

/** The first `digits` hex digits of the HMAC-SHA256 of `message`. */
export async function hmacHex(key: CryptoKey, message: string, digits: number) {
  return toHex(await crypto.subtle.sign("HMAC", key, utf8(message))).slice(0, digits);
}
