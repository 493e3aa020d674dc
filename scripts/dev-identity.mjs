// Local development identities for `npm start`: a social network, an identity provider, a retailer and an app
// store whose keys are FIXED AND PUBLIC (they are in this file). scripts/lib.mjs writes their public halves into the
// git-ignored .dev.vars; never put these values into a deployed configuration.
//
// Mint a credential for the local server (prints a JSON body for POST /v5/sessions.json):
//   node scripts/dev-identity.mjs social <email> [name]      social_token (email verified)
//   node scripts/dev-identity.mjs idp <email> [name]         idp_token
//   node scripts/dev-identity.mjs retailer <user_ref> [email] retailer_params (single-use, 10 minutes)
//   node scripts/dev-identity.mjs store <appAccountToken>    store_token (single-use)
import { createHmac, createPrivateKey, createPublicKey, randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";

const PRIVATE = {
  social: {
    kty: "RSA",
    n: "0FnqhL5awUt0weso0eHtf43YHNA8lUmuyxPB7xzERVx80PCJ3owPfcBhchugDyof_7oGn4sA-egNDulLQlbgXhIZFsUW_s2kqTZCVvf-81m0XICXUqLnpiPgOH2l-NY9GlKYv46e4jb8pXoPtlrHhBHH3KgOISj3agjJi8vVuPm4uUmSb4jG_lTeldclWz02FIuLLptk7JNL2FFMk9rIEYqCJjfnn6YdrG10YnE4Cjv9XBIUZsqTb74xfAbRZH2xJ69MrLGtKy2EJklR7HzJaRjfV_Ut5r6ASquy5O_nWf6wfeAzTc5XYjnjBqkrqmdudJV9zbSqef0WBfYH4nl1CQ",
    e: "AQAB",
    d: "G8SFXeWkth2L_7WLPir3JR3OufWtbVQMSKJnIVVbJHIGwdic90esCjK-ifT76FQmlEVtpou3Dey1o3wc0fLpeiq9T0Hl0QBakUwFnA5MheWPBRkE5zgw2VKaCngBy7UkdZf2eukowbYEW-V1p0mtTNZgevGm2G0w9DUcRKuziIWkrH2SkTVvuPJnLxBi3CG8qx3aHUVfdG32o-0PJ7p0kMFi_UVTWSsbZiUtlGccy2WNBOhd5Cq2h_HukANUSQV-TTE17wmvvkywm-bB4C_S6j3LotgZhyvwdAl6pTPXwzxVsP6Ek5u3CKeUqIrFepcAg_QMf9h6QX1k6jl6ihHOtQ",
    p: "7sBOMumynYJu3CWsPpC2mRAoPsSAIrrOyI3WEY04DAfrOYODRs8EU2UWGyeDGZEXUqwKpBKIe7aMLRcpIGKCkMQUHabJ3gVZ80vUua2RmaK8wABQhmgQ5JZc3AzPk6BkGOSSQjefZ__YRxG1JKlqerKMEt6dfKx3zTQi_H1erR8",
    q: "32ddUH5Ny9GYm9c-Gf_XkodReLKdLTbp8u89U4Z04rrZX4RSYjv10uDoHej4TaCS91kf3o6HDCp5KAG-d8t7ODoeOSqrwBpBh0f0iak2xe0WGvdb6psdRPLTzoeWsyoj4-5V1q9MS1ZYqRz_Qxj4A-srw9zIUEMZ_9cPLNw38Nc",
    dp: "a6hrmqmm0T-vnbWfJdc7f2m5vBP_c6mo9OaAUQnM7B_mAdk7qQJQgQpkHXqDs1OpoK3TXoi84ow-SVbYRLInDgBc0cIT5PmkxgC7u754mT64vhtmNDVY6LqkxNVCBN-eQ1tOWG2cg9jqPaHOfOmoCgvY_elEOqPKoc2QuSoPNyE",
    dq: "U_gtCck_goF4Y_MGQ413QHseM0inbUw7qPUlTtS18Facx5sbwBKbdjTU6hEb60mUk-Xq5aMavYblXRUyuyI_YUXvADu6rIzx3mA8WNXCYaiYa3BYGxlMahL_a5xpF1SagtydZQEkoxiEYKQmidjDt-1X2NmObSSbjB8QdCMd36c",
    qi: "d0hqrKOAE8ePRFsFR2peW4dy7SjNLWP465l7KQx85M_zvZe9vwjbdhfawW-g4TVsxiXAL6oQAmHLieDNGqpMQuNCf6HUhs28MMv8FVe5LXfGLOoLqNic8fsB7CW_OM-myKcl9DEkO-CwGlAXF3wI1XOqtqhJtx_pj32t9F7rXKQ",
  },
  idp: {
    kty: "EC",
    x: "jkhTghIvYq_Fa9rpy-ix--hLyt6xbnNJKwBTrFwVeMk",
    y: "GuXLWasNqYw97LkNtAqrYRCaWd8iRtNi6ilz0MLrXlM",
    crv: "P-256",
    d: "NQHzTu-UDA1mG_Lq3-bXWPU3Yhdtt2HJiN7iriPfb9w",
  },
  store: {
    kty: "EC",
    x: "RfyCwfWhb1fo54pSJ4C_nqPW5fLsOayDBouLdjZ2XgU",
    y: "WTXyLAsP-6rzlD7y_t9MKi7oATkBmQK2tJpKbYvksNQ",
    crv: "P-256",
    d: "kCLjFRqmJbJNwl3XnE7qljEmLOpPG218gk7yC_2hXY4",
  },
};

export const DEV_AUDIENCE = "media-catalogue-dev";
const SOCIAL = { name: "devsocial", issuer: "https://social.dev.invalid", kid: "dev-social", alg: "RS256" };
const IDP = { name: "devidp", issuer: "https://idp.dev.invalid", kid: "dev-idp", alg: "ES256" };
const RETAILER = { name: "devshop", secret: "devshop-local-secret-0123456789abcdef" };
const STORE = { bundleId: "com.example.catalogue.dev", kid: "dev-store" };

const publicJwk = (jwk, kid, alg) => ({
  ...createPublicKey(createPrivateKey({ key: jwk, format: "jwk" })).export({ format: "jwk" }),
  kid,
  alg,
  use: "sig",
});

const provider = (p, jwk) => ({
  name: p.name,
  issuer: p.issuer,
  audience: DEV_AUDIENCE,
  jwks: { keys: [publicJwk(jwk, p.kid, p.alg)] },
});

/** IDENTITY_PROVIDERS for .dev.vars: inline JWKS, so no network is needed. */
export const devIdentityProviders = () => JSON.stringify({ social: [provider(SOCIAL, PRIVATE.social)], idp: [provider(IDP, PRIVATE.idp)] });
/** RETAILER_SECRETS for .dev.vars. */
export const devRetailerSecrets = () => JSON.stringify({ [RETAILER.name]: RETAILER.secret });
/** STORE_KEYS for .dev.vars. */
export const devStoreKeys = () => JSON.stringify({ bundle_id: STORE.bundleId, keys: [publicJwk(PRIVATE.store, STORE.kid, "ES256")] });

async function mint(kind, args) {
  const jose = await import("jose");
  const now = Math.floor(Date.now() / 1000);
  if (kind === "social" || kind === "idp") {
    const p = kind === "social" ? SOCIAL : IDP;
    const [email, name] = args;
    if (!email) throw new Error(`usage: dev-identity.mjs ${kind} <email> [name]`);
    const key = await jose.importJWK(PRIVATE[kind], p.alg);
    const token = await new jose.SignJWT({ email, email_verified: true, ...(name ? { name } : {}) })
      .setProtectedHeader({ alg: p.alg, kid: p.kid })
      .setIssuer(p.issuer)
      .setAudience(DEV_AUDIENCE)
      .setSubject(`dev-${email.toLowerCase()}`)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(key);
    return { [kind === "social" ? "social_token" : "idp_token"]: token };
  }
  if (kind === "retailer") {
    const [userRef, email] = args;
    if (!userRef) throw new Error("usage: dev-identity.mjs retailer <user_ref> [email]");
    const q = new URLSearchParams({ retailer: RETAILER.name, user_ref: userRef, ...(email ? { email } : {}), expires: String(now + 600) });
    const signed = q.toString();
    return { retailer_params: `${signed}&sig=${createHmac("sha256", RETAILER.secret).update(signed).digest("hex")}` };
  }
  if (kind === "store") {
    const account = args[0] ?? randomUUID();
    const key = await jose.importJWK(PRIVATE.store, "ES256");
    const transaction = {
      bundleId: STORE.bundleId,
      productId: "dev.subscription.monthly",
      transactionId: String(Date.now()),
      originalTransactionId: "1000000000000001",
      appAccountToken: account,
      purchaseDate: Date.now(),
      signedDate: Date.now(),
      expiresDate: Date.now() + 30 * 86400_000,
      environment: "Sandbox",
    };
    const jws = await new jose.CompactSign(new TextEncoder().encode(JSON.stringify(transaction)))
      .setProtectedHeader({ alg: "ES256", kid: STORE.kid })
      .sign(key);
    return { store_token: jws };
  }
  throw new Error("usage: dev-identity.mjs social|idp|retailer|store ...");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [kind, ...args] = process.argv.slice(2);
  mint(kind, args).then(
    (body) => console.log(JSON.stringify(body)),
    (err) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
