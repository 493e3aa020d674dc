import { sha256Hex, toBase64Url } from "./encoding";

/** A session token: 32 random bytes. Only its SHA-256 is stored. */
export function newSessionToken(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

export const hashToken = (token: string) => sha256Hex(token);
