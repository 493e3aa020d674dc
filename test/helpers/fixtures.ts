import { test as base } from "vitest";
import { createApplication, signedInUser } from ".";

export type Signed = Awaited<ReturnType<typeof signedInUser>>;

/**
 * The callers most tests need, as file-scoped fixtures: each is made the first time a test or a
 * `test.beforeAll` of the file asks for it, and the same one is handed to every later test of that file.
 * Tests that need a fresh caller per test still call `signedInUser()` themselves.
 *
 *   import { test } from "../helpers/fixtures";
 *   test.beforeAll(async ({ user, officialApp }) => { ... });
 *   test("...", async ({ user, otherUser }) => { ... });
 */
export const test = base
  /** No credentials at all: the `token` and `app` a request without them carries. */
  .extend("anonymous", { scope: "file" }, { token: undefined as string | undefined, app: undefined as string | undefined })
  /** A signed-in user with no privileges: the owner in "no token / another user / the owner" checks. */
  .extend("user", { scope: "file" }, async (): Promise<Signed> => signedInUser())
  /** A second signed-in user: "another user's token". */
  .extend("otherUser", { scope: "file" }, async (): Promise<Signed> => signedInUser())
  /** A signed-in staff member. */
  .extend("staff", { scope: "file" }, async (): Promise<Signed> => signedInUser({ staff: true }))
  /** The wire id (`<n>a`) of an official application: the routes only official apps may call. */
  .extend("officialApp", { scope: "file" }, async () => (await createApplication({ official: true })).wireId)
  /** The wire id of an ordinary (partner) application. */
  .extend("partnerApp", { scope: "file" }, async () => (await createApplication()).wireId);

export { describe, expect } from "vitest";
