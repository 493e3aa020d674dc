import type { Deps } from "../deps";
import type { User } from "../../types";
import { limitLoginByAccount } from "../login-limits";
import { linkExternal, loginExternal, spendOnce } from "./accounts";
import { verifyIdToken } from "./oidc";
import type { ExternalKind } from "./providers";
import { verifyRetailerParams } from "./retailer";
import { verifyStoreToken } from "./store";

interface ExternalLogin {
  kind: ExternalKind;
  credential: string;
  /** `social_token`/`idp_token` with the `token=` of a logged-in user: link that user instead of logging in. */
  linkTo?: User;
}

/**
 * Verifies an external credential and answers the account to open a session for. Order: verify (401 on any
 * failure), then the per-account rate limit on the verified identity, then (single-use kinds) spend the
 * credential, then find, link or create the account.
 */
export async function externalLogin(deps: Deps, login: ExternalLogin): Promise<User> {
  const { db, env } = deps;
  const { kind, credential } = login;
  if (kind === "social" || kind === "idp") {
    const identity = await verifyIdToken(env, kind, credential);
    await limitLoginByAccount(deps, `${kind}:${identity.ref}`);
    return login.linkTo ? linkExternal(db, login.linkTo, identity) : loginExternal(db, identity);
  }
  const verified = kind === "retailer" ? await verifyRetailerParams(env, credential) : await verifyStoreToken(env, credential);
  await limitLoginByAccount(deps, `${kind}:${verified.identity.ref}`);
  await spendOnce(db, kind, verified.signed, verified.spentUntil);
  return loginExternal(db, verified.identity);
}
