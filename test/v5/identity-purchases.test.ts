import { describe, expect, it } from "vitest";
import { fromBase64Url, toBase64Url } from "../../src/lib/encoding";
import { createUser, errorBody } from "../helpers";
import {
  TEST_RETAILER,
  TEST_STORE,
  postSession,
  retailerParams,
  sessionOf,
  storeToken,
  strangerKey,
  uniquePerson,
  userRow,
} from "../helpers/identity";

const now = () => Math.floor(Date.now() / 1000);

async function refused(body: Record<string, string>, reason: string) {
  const res = await postSession(body);
  expect(res.status).toBe(401);
  expect(await errorBody(res)).toEqual({ error: `invalid ${Object.keys(body)[0]}: ${reason}`, vcode: 7403 });
}

describe("retailer_params: same response as the username login", () => {
  it("creates the retailer's user on first use, then logs the linked user in", async () => {
    const p = uniquePerson("shopper");
    const first = await sessionOf(
      await postSession({ retailer_params: await retailerParams({ user_ref: p.id, email: p.email, name: "Shop Per" }) }),
    );
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.user).toMatchObject({ username: p.id, email: p.email, name: "Shop Per", images: {} });
    expect(Object.keys(first.user).sort()).toEqual(["created_at", "email", "id", "images", "name", "updated_at", "username"]);
    expect((await userRow(first.user.id)).retailerRef).toBe(`${TEST_RETAILER.name}:${p.id}`);
    const again = await sessionOf(await postSession({ retailer_params: await retailerParams({ user_ref: p.id }) }));
    expect(again.user.id).toBe(first.user.id);
  });

  it("without an email the new account gets a placeholder address", async () => {
    const { user } = await sessionOf(await postSession({ retailer_params: await retailerParams() }));
    expect(user.email).toMatch(/^retailer-[0-9a-f]{24}@users\.invalid$/);
  });

  it("refuses a replay: each parameter string logs in once", async () => {
    const params = await retailerParams();
    expect((await postSession({ retailer_params: params })).status).toBe(201);
    await refused({ retailer_params: params }, "already used");
  });

  it("never links an existing account by the retailer's email (409)", async () => {
    const existing = await createUser();
    const res = await postSession({ retailer_params: await retailerParams({ email: existing.user.email }) });
    expect(res.status).toBe(409);
    expect((await errorBody(res)).vcode).toBe(5409);
    expect((await userRow(existing.id)).retailerRef).toBeNull();
  });

  it("refuses a wrong secret and tampered parameters (bad signature)", async () => {
    await refused({ retailer_params: await retailerParams({ secret: "not-the-secret-0123456789abcdef012345" }) }, "bad signature");
    const tampered = (await retailerParams({ user_ref: "victim-1" })).replace("victim-1", "victim-2");
    await refused({ retailer_params: tampered }, "bad signature");
  });

  it("refuses expired parameters and ones that live too long", async () => {
    await refused({ retailer_params: await retailerParams({ expires: now() - 120 }) }, "expired");
    await refused({ retailer_params: await retailerParams({ expires: now() + 2 * 3600 }) }, "expires more than 3600 s ahead");
  });

  it("refuses an unknown retailer and malformed strings", async () => {
    await refused({ retailer_params: await retailerParams({ retailer: "othershop" }) }, "unknown retailer");
    await refused({ retailer_params: "retailer=testshop&user_ref=1&expires=1" }, "expected <parameters>&sig=<64 hex digits>");
    const doubled = await retailerParams({ user_ref: "a" });
    const signed = doubled.replace("user_ref=a", "user_ref=a&user_ref=b");
    await refused({ retailer_params: signed }, 'parameter "user_ref" given twice');
    await refused(
      { retailer_params: `retailer=testshop&expires=1&sig=${"0".repeat(64)}` },
      "user_ref Invalid input: expected string, received undefined",
    );
  });
});

describe("store_token: the purchasing account is logged in", () => {
  it("creates the account of an unknown appAccountToken, then logs it in with a fresh receipt", async () => {
    const account = crypto.randomUUID();
    const first = await sessionOf(
      await postSession({ store_token: (await storeToken({ transaction: { appAccountToken: account } })).jws }),
    );
    expect(first.user.email).toMatch(/^store-[0-9a-f]{24}@users\.invalid$/);
    expect(first.user.username).toMatch(/^store(_\d{4})?$/);
    expect((await userRow(first.user.id)).storeRef).toBe(`${TEST_STORE.bundleId}:${account}`);
    const again = await sessionOf(
      await postSession({ store_token: (await storeToken({ transaction: { appAccountToken: account.toUpperCase() } })).jws }),
    );
    expect(again.user.id).toBe(first.user.id);
  });

  it("without appAccountToken the originalTransactionId names the account", async () => {
    const original = `7000${Date.now()}`;
    const tx = { appAccountToken: undefined, originalTransactionId: original };
    const first = await sessionOf(await postSession({ store_token: (await storeToken({ transaction: tx })).jws }));
    expect((await userRow(first.user.id)).storeRef).toBe(`${TEST_STORE.bundleId}:${original}`);
    const renewal = await sessionOf(await postSession({ store_token: (await storeToken({ transaction: tx })).jws }));
    expect(renewal.user.id).toBe(first.user.id);
  });

  it("refuses a replayed receipt, also with a re-encoded (malleated) ECDSA signature", async () => {
    const { jws } = await storeToken();
    expect((await postSession({ store_token: jws })).status).toBe(201);
    await refused({ store_token: jws }, "already used");
    // (r, s) and (r, n - s) both verify: the replay key is the signed input, not the signature bytes.
    const [h, p, sig] = jws.split(".");
    const bytes = fromBase64Url(sig);
    const n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
    const s = BigInt(`0x${Array.from(bytes.slice(32), (b) => b.toString(16).padStart(2, "0")).join("")}`);
    const flipped = (n - s).toString(16).padStart(64, "0");
    const malleated = new Uint8Array([...bytes.slice(0, 32), ...flipped.match(/../g)!.map((x) => parseInt(x, 16))]);
    const res = await postSession({ store_token: `${h}.${p}.${toBase64Url(malleated)}` });
    expect(res.status).toBe(401);
    expect((await errorBody(res)).error).toBe("invalid store_token: already used");
  });

  it("refuses a wrongly signed receipt and one signed with another algorithm", async () => {
    await refused({ store_token: (await storeToken({ key: await strangerKey("ES256") })).jws }, "bad signature");
    await refused(
      { store_token: (await storeToken({ key: await strangerKey("RS256"), alg: "RS256" })).jws },
      "signature algorithm must be ES256",
    );
  });

  it("refuses another app's bundle, a revoked transaction, an expired subscription and a stale receipt", async () => {
    await refused({ store_token: (await storeToken({ transaction: { bundleId: "com.other.app" } })).jws }, "wrong bundleId");
    await refused(
      { store_token: (await storeToken({ transaction: { revocationDate: Date.now() - 1000 } })).jws },
      "the transaction was revoked",
    );
    await refused({ store_token: (await storeToken({ transaction: { expiresDate: Date.now() - 120_000 } })).jws }, "expired");
    const stale = Date.now() - (TEST_STORE.maxAgeSeconds + 120) * 1000;
    await refused(
      { store_token: (await storeToken({ transaction: { signedDate: stale } })).jws },
      "the receipt is too old; fetch a fresh one from the store",
    );
    await refused(
      { store_token: (await storeToken({ transaction: { signedDate: Date.now() + 600_000 } })).jws },
      "signedDate is in the future",
    );
  });

  it("refuses malformed receipts", async () => {
    await refused({ store_token: "not.a.jws" }, "not a compact JWS");
    await refused(
      { store_token: (await storeToken({ transaction: { signedDate: "yesterday" } })).jws },
      "signedDate Invalid input: expected number, received string",
    );
  });
});
