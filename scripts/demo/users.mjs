// Applications and users. Passwords are `<username>-password`, hashed by the app's own code.

import { createHash } from "node:crypto";
import { DAY, utcMidnight } from "./core.mjs";

const APPLICATIONS = [
  { id: 100000, name: "Official App", official: 1, unhosted_access: 1, secret: "official-dev-secret" },
  { id: 100001, name: "Partner App", official: 0, unhosted_access: 0, secret: "partner-dev-secret" },
];

const USERS = [
  { id: 1, username: "admin", name: "Site Admin", staff: 1 },
  { id: 2, username: "manager", name: "Mina Channel", staff: 0 },
  { id: 3, username: "alice", name: "Alice Martin", staff: 0 },
  { id: 4, username: "bob", name: "Bob Tanaka", staff: 0 },
];
export const ADMIN = 1;
export const MANAGER = 2;
export const ALICE = 3;
export const BOB = 4;

export function applicationRows() {
  return APPLICATIONS.map((a) => ({ ...a, created_at: utcMidnight(2020, 1, 1) }));
}

/**
 * `hashPasswordWithSalt` is src/lib/password.ts's (see load-app-code.mjs). The salt comes from the username
 * rather than at random so that the SQL, and so the seed, is the same on every run.
 */
export async function userRows({ hashPasswordWithSalt }) {
  const hashes = await Promise.all(
    USERS.map((u) => {
      const salt = createHash("sha256").update(`demo-salt:${u.username}`).digest().subarray(0, 16);
      return hashPasswordWithSalt(`${u.username}-password`, new Uint8Array(salt));
    }),
  );
  return USERS.map((u, i) => ({
    ...u,
    email: `${u.username}@example.com`,
    // Verified, so that `node scripts/dev-identity.mjs social alice@example.com` signs in to alice (docs/api.md,
    // "External identity": only a verified account email is matched to a social login).
    email_verified: 1,
    password_hash: hashes[i],
    created_at: utcMidnight(2020, 1, 1) + i * 30 * DAY,
    updated_at: utcMidnight(2024, 6, 1) + i * DAY,
  }));
}
