// The admin commands. Each validates its input with the app's own rules (app-code.mjs), runs one
// `wrangler d1 execute` batch (d1.mjs) and answers a plain object; scripts/admin.mjs prints it.
import { randomBytes } from "node:crypto";
import { loadAppCode } from "./app-code.mjs";
import { D1Error, UsageError, execute, sqlInt, sqlString } from "./d1.mjs";

/** An application secret: the HMAC-SHA1 key of its request signatures (docs/api.md, "Signed requests"). */
const newSecret = () => randomBytes(32).toString("hex");

/** `12a` or `12`: the wire form or the bare integer, checked by the app's own id parser. */
async function parseWireId(raw, suffix, what) {
  const { tryParseId } = await loadAppCode();
  const id = tryParseId(/^\d+$/.test(raw ?? "") ? `${raw}${suffix}` : raw, suffix);
  if (id === null) throw new UsageError(`${what}: expected <n>${suffix} or <n>, got ${JSON.stringify(raw ?? "")}`);
  return id;
}

function text(raw, what, max = 100) {
  const value = (raw ?? "").trim();
  if (!value || value.length > max) throw new UsageError(`${what}: 1 to ${max} characters`);
  sqlString(value); // refuses control characters before anything runs
  return value;
}

async function applicationView(row) {
  const { formatId } = await loadAppCode();
  return {
    id: formatId(row.id, "a"),
    name: row.name,
    official: Boolean(row.official),
    unhosted_access: Boolean(row.unhosted_access),
    created_at: new Date(row.created_at * 1000).toISOString(),
  };
}

export async function appCreate(target, [name], { official = false, unhosted = false }) {
  const appName = text(name, "name");
  const secret = newSecret();
  const [rows] = execute(
    target,
    `INSERT INTO applications (name, official, unhosted_access, secret)
     VALUES (${sqlString(appName)}, ${official ? 1 : 0}, ${unhosted ? 1 : 0}, ${sqlString(secret)})
     RETURNING id, name, official, unhosted_access, created_at`,
  );
  return { application: await applicationView(rows[0]), secret };
}

export async function appList(target) {
  // Never the secrets: they are shown once, when made.
  const [rows] = execute(target, "SELECT id, name, official, unhosted_access, created_at FROM applications ORDER BY id");
  return { applications: await Promise.all(rows.map(applicationView)) };
}

export async function appRotateSecret(target, [rawId]) {
  const id = await parseWireId(rawId, "a", "application id");
  const secret = newSecret();
  const [rows] = execute(
    target,
    `UPDATE applications SET secret = ${sqlString(secret)} WHERE id = ${sqlInt(id)}
     RETURNING id, name, official, unhosted_access, created_at`,
  );
  if (!rows.length) throw new NotFound(`no application ${id}a`);
  return { application: await applicationView(rows[0]), secret };
}

/**
 * A staff user. The username must already be in the shape the app gives new accounts (usernameBase: lower-case
 * letters, digits and `_`, 3 to 24 characters), the email pass the app's email check; it is stored lower case.
 * The email is unverified unless the operator says it is theirs (`--email-verified`): an unverified account email is
 * never matched to a social or identity-provider login (docs/decisions.md, "External identity").
 */
export async function userCreateStaff(target, [rawUsername, rawEmail], { name = "", password, emailVerified = false }) {
  const { usernameBase, emailSchema, hashPassword, randomPassword, formatId } = await loadAppCode();
  const username = rawUsername ?? "";
  if (usernameBase(username) !== username) {
    throw new UsageError(`username: lower-case letters, digits and _, 3 to 24 characters (e.g. ${usernameBase(username)})`);
  }
  const email = (rawEmail ?? "").trim().toLowerCase();
  if (!emailSchema.safeParse(email).success) throw new UsageError(`email: not a valid address: ${JSON.stringify(rawEmail ?? "")}`);
  const displayName = name ? text(name, "--name") : "";
  const generated = password === undefined;
  const secret = generated ? randomPassword() : password;
  // The login accepts passwords of up to 1000 characters (src/routes/v5/sessions.ts); a longer one could never log in.
  if (secret.length < 12 || secret.length > 1000) throw new UsageError("password: 12 to 1000 characters");
  const hash = await hashPassword(secret);
  let rows;
  try {
    [rows] = execute(
      target,
      `INSERT INTO users (username, email, name, password_hash, staff, email_verified)
       VALUES (${sqlString(username)}, ${sqlString(email)}, ${sqlString(displayName)}, ${sqlString(hash)}, 1, ${emailVerified ? 1 : 0})
       RETURNING id, username, email, email_verified`,
    );
  } catch (err) {
    if (err instanceof D1Error && err.uniqueViolation) throw new Conflict("a user with this username or email exists");
    throw err;
  }
  const user = {
    id: formatId(rows[0].id, "u"),
    username: rows[0].username,
    email: rows[0].email,
    email_verified: Boolean(rows[0].email_verified),
    staff: true,
  };
  return generated ? { user, password: secret } : { user };
}

/** `<user>` is `12u`, `12` or a username; `<container>` is `50c` or `50`. Adding an existing manager changes nothing. */
export async function managerAdd(target, [rawUser, rawContainer]) {
  const { formatId } = await loadAppCode();
  const containerId = await parseWireId(rawContainer, "c", "container id");
  let userWhere;
  if (/^\d+u?$/.test(rawUser ?? "")) {
    userWhere = `id = ${sqlInt(await parseWireId(rawUser, "u", "user id"))}`;
  } else {
    // Looked up, not created: the login's rule (1 to 100 characters), as accounts made from an external identity
    // may carry a suffix past usernameBase's 24. A username that reads as an id is reached by its id.
    userWhere = `username = ${sqlString(text(rawUser, "user"))}`;
  }
  const c = sqlInt(containerId);
  // One batch: the lookups say which of the two is missing; the insert writes only when both exist.
  const [[found], added] = execute(
    target,
    `SELECT (SELECT id FROM users WHERE ${userWhere}) AS user_id, (SELECT username FROM users WHERE ${userWhere}) AS username,
            (SELECT id FROM containers WHERE id = ${c}) AS container_id;
     INSERT INTO container_managers (container_id, user_id)
       SELECT ${c}, id FROM users WHERE ${userWhere} AND EXISTS (SELECT 1 FROM containers WHERE id = ${c})
       ON CONFLICT DO NOTHING
       RETURNING container_id, user_id`,
  );
  if (found.user_id === null) throw new NotFound(`no user ${rawUser}`);
  if (found.container_id === null) throw new NotFound(`no container ${containerId}c`);
  return {
    manager: { user: formatId(found.user_id, "u"), username: found.username, container: formatId(containerId, "c") },
    added: added.length > 0,
  };
}

export class NotFound extends Error {}
export class Conflict extends Error {}
