import type { DB } from "../../db/client";
import {
  type LinkColumn,
  type NewUser,
  findUserByEmail,
  findUserByLink,
  insertUser,
  spendCredential,
  takenUsernames,
  updateUserLink,
} from "../../db/queries/identity";
import { sha256Hex } from "../../lib/encoding";
import { ApiError } from "../../lib/errors";
import { hashPassword, randomPassword } from "../../lib/password";
import type { User } from "../../types";
import { type ExternalKind, invalidCredential } from "./providers";

/** A verified external identity, ready to be matched to an account. */
export interface ExternalIdentity {
  kind: ExternalKind;
  /** "<provider, retailer or bundle id>:<the id it gives the user>", stored in the kind's users column. */
  ref: string;
  /** Lower case. */
  email?: string;
  /** Only a verified email may link to an existing account that has it. */
  emailVerified: boolean;
  name?: string;
  avatarUrl?: string;
}

const LINK_COLUMN: Record<ExternalKind, LinkColumn> = {
  social: "socialId",
  idp: "idpId",
  retailer: "retailerRef",
  store: "storeRef",
};

const LABEL: Record<ExternalKind, string> = {
  social: "social network",
  idp: "identity provider",
  retailer: "retailer",
  store: "app store",
};

/** Placeholder addresses (RFC 2606 `.invalid`) for accounts whose credential carries no email. */
const PLACEHOLDER_EMAIL_DOMAIN = "users.invalid";

/**
 * Logs in the account of an external identity:
 * 1. the account already linked to `ref` → that account;
 * 2. else an account with the same email → linked to `ref` (empty name/avatar filled) only when both emails are
 *    verified (the identity's and the account's) and the account is not staff's, else 409 "sign in to it and link":
 *    whoever made an account with someone else's address must not receive their later logins (docs/decisions.md,
 *    "External identity"); also 409 when it is linked to a different identity of that kind;
 * 3. else a new account with a random password (it can only log in through this identity), its email verified when
 *    the identity's is.
 */
export async function loginExternal(db: DB, id: ExternalIdentity): Promise<User> {
  try {
    return await findLinkOrCreate(db, id);
  } catch (err) {
    // Two first logins of one identity at once: the loser of the UNIQUE race finds the winner's account.
    if (!isUniqueViolation(err)) throw err;
    return findLinkOrCreate(db, id);
  }
}

async function findLinkOrCreate(db: DB, id: ExternalIdentity): Promise<User> {
  const column = LINK_COLUMN[id.kind];
  const linked = await findUserByLink(db, column, id.ref);
  if (linked) return linked;

  const sameEmail = id.email ? await findUserByEmail(db, id.email) : undefined;
  if (sameEmail) {
    // Staff accounts are never linked by email, verified or not: the staff member signs in and links with token=, so
    // whoever controls a mailbox the operator typed (or a provider that vouches for it) cannot reach staff rights by it
    // (docs/decisions.md, "External identity"). The refusal reads as any other, so it does not tell staff apart.
    if (!id.emailVerified || !sameEmail.emailVerified || sameEmail.staff) {
      // Only ID tokens can be linked with token= (linkExternal); a retailer's email is never a way in.
      const how = id.kind === "social" || id.kind === "idp" ? ": sign in to that account and link this one with token=" : "";
      throw ApiError.conflict(`an account with this email exists and is not linked to this ${LABEL[id.kind]} account${how}`);
    }
    const differentLink = () => ApiError.conflict(`the account with this email is linked to a different ${LABEL[id.kind]} account`);
    if (sameEmail[column] !== null) throw differentLink();
    const updated = await updateUserLink(db, sameEmail.id, column, id.ref, missingProfile(sameEmail, id));
    if (!updated) throw differentLink();
    return updated;
  }

  const values: NewUser = {
    username: await uniqueUsername(db, usernameHint(id)),
    email: id.email ?? `${id.kind}-${(await sha256Hex(id.ref)).slice(0, 24)}@${PLACEHOLDER_EMAIL_DOMAIN}`,
    name: id.name ?? "",
    emailVerified: Boolean(id.email) && id.emailVerified,
    avatarUrl: id.avatarUrl ?? null,
    passwordHash: await hashPassword(randomPassword()),
    [column]: id.ref,
  };
  return insertUser(db, values);
}

/**
 * `social_token` (or `idp_token`) with the `token=` of a logged-in user: links that user to the identity, fills an
 * empty name and avatar, and marks the account's email verified (the provider vouches for that very address). Only
 * when the user is not linked to a different identity of the kind (409), the emails match (403), and no other
 * account holds the identity (409).
 */
export async function linkExternal(db: DB, user: User, id: ExternalIdentity): Promise<User> {
  const column = LINK_COLUMN[id.kind];
  const label = LABEL[id.kind];
  if (user[column] !== null && user[column] !== id.ref) {
    throw ApiError.conflict(`this account is already linked to a different ${label} account`);
  }
  if (!id.emailVerified || !id.email || user.email.toLowerCase() !== id.email) {
    throw ApiError.forbidden(`the email of the ${label} account does not match this account's email`);
  }
  const holder = await findUserByLink(db, column, id.ref);
  if (holder && holder.id !== user.id) throw ApiError.conflict(`this ${label} account is linked to another account`);
  const profile = { ...missingProfile(user, id), ...(user.emailVerified ? {} : { emailVerified: true }) };
  if (user[column] === id.ref && Object.keys(profile).length === 0) return user;
  let linked: User | undefined;
  try {
    linked = await updateUserLink(db, user.id, column, id.ref, profile);
  } catch (err) {
    if (isUniqueViolation(err)) throw ApiError.conflict(`this ${label} account is linked to another account`);
    throw err;
  }
  if (!linked) throw ApiError.conflict(`this account is already linked to a different ${label} account`);
  return linked;
}

/** The profile fields the account lacks and the identity has. */
function missingProfile(user: User, id: ExternalIdentity) {
  return {
    ...(!user.name && id.name ? { name: id.name } : {}),
    ...(!user.avatarUrl && id.avatarUrl ? { avatarUrl: id.avatarUrl } : {}),
  };
}

/** Spends a single-use credential (retailer parameters, store receipt); a second use is a 401. */
export async function spendOnce(db: DB, kind: "retailer" | "store", signed: string, expiresAt: number) {
  const hash = await sha256Hex(`${kind}\n${signed}`);
  if (!(await spendCredential(db, hash, kind, expiresAt))) throw invalidCredential(kind, "already used");
}

function usernameHint(id: ExternalIdentity) {
  if (id.email) return id.email.split("@")[0];
  return id.name ?? id.kind;
}

/** Lower-case letters, digits and `_`, 3 to 24 characters: "Zoë.Smith" → "zoe_smith". */
export function usernameBase(hint: string): string {
  const s = hint
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 24)
    .replace(/_+$/, "");
  return s.length >= 3 ? s : s ? `user_${s}` : "user";
}

/** The base if free, else the base with a random 4-digit suffix (five candidates, one read). */
async function uniqueUsername(db: DB, hint: string): Promise<string> {
  const base = usernameBase(hint);
  const suffix = () => String(1000 + (crypto.getRandomValues(new Uint32Array(1))[0] % 9000));
  const candidates = [base, ...Array.from({ length: 4 }, () => `${base}_${suffix()}`)];
  const taken = await takenUsernames(db, candidates);
  const free = candidates.find((c) => !taken.has(c));
  if (free) return free;
  const hex = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => b.toString(16).padStart(2, "0")).join("");
  return `${base}_${hex}`;
}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e.message.includes("UNIQUE constraint failed")) return true;
  }
  return false;
}
