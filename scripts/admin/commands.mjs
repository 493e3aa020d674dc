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

/** The columns applicationView reads; `overlap_until` is set only while a previous secret still signs. */
const APPLICATION_COLUMNS = `id, name, official, unhosted_access, created_at,
  CASE WHEN previous_secret IS NOT NULL AND previous_secret_expires_at > unixepoch() THEN previous_secret_expires_at END AS overlap_until`;

async function applicationView(row) {
  const { formatId } = await loadAppCode();
  return {
    id: formatId(row.id, "a"),
    name: row.name,
    official: Boolean(row.official),
    unhosted_access: Boolean(row.unhosted_access),
    created_at: new Date(row.created_at * 1000).toISOString(),
    // Never named after the secret: app:list's output must not even look like it carries one.
    overlap_until: row.overlap_until ? new Date(row.overlap_until * 1000).toISOString() : null,
  };
}

/** How long the previous secret keeps signing after a rotation unless --overlap says otherwise. */
export const DEFAULT_OVERLAP = "7d";
const MAX_OVERLAP_SECONDS = 90 * 24 * 60 * 60;
const UNIT_SECONDS = { s: 1, m: 60, h: 60 * 60, d: 24 * 60 * 60 };

/** `--overlap`: `<n>d`, `<n>h`, `<n>m`, `<n>s` or `0` (the old secret stops at once), at most 90 days; in seconds. */
export function parseOverlap(raw) {
  const m = /^(\d{1,6})([smhd])?$/.exec(raw);
  if (!m || (m[2] === undefined && m[1] !== "0")) {
    throw new UsageError(`--overlap: a duration such as 7d, 12h or 30m (0: none), got ${JSON.stringify(raw)}`);
  }
  const seconds = Number(m[1]) * UNIT_SECONDS[m[2] ?? "s"];
  if (seconds > MAX_OVERLAP_SECONDS) throw new UsageError("--overlap: at most 90d");
  return seconds;
}

export async function appCreate(target, [name], { official = false, unhosted = false }) {
  const appName = text(name, "name");
  const secret = newSecret();
  const [rows] = execute(
    target,
    `INSERT INTO applications (name, official, unhosted_access, secret)
     VALUES (${sqlString(appName)}, ${official ? 1 : 0}, ${unhosted ? 1 : 0}, ${sqlString(secret)})
     RETURNING ${APPLICATION_COLUMNS}`,
  );
  return { application: await applicationView(rows[0]), secret };
}

export async function appList(target) {
  // Never the secrets: they are shown once, when made.
  const [rows] = execute(target, `SELECT ${APPLICATION_COLUMNS} FROM applications ORDER BY id`);
  return { applications: await Promise.all(rows.map(applicationView)) };
}

const NO_PREVIOUS = "previous_secret = NULL, previous_secret_expires_at = NULL";

/**
 * A new secret; the current one becomes the previous one and keeps signing for the overlap (docs/decisions.md,
 * "Secret rotation"), so installed apps keep working while they get the new one. A secret already in an overlap is
 * dropped: only the newest two sign. `--overlap 0` drops the old secret at once.
 */
export async function appRotateSecret(target, [rawId], { overlap = DEFAULT_OVERLAP }) {
  const seconds = parseOverlap(overlap);
  const id = await parseWireId(rawId, "a", "application id");
  const secret = newSecret();
  // SQLite evaluates every SET expression against the row as it was, so previous_secret gets the old secret.
  const previous = seconds > 0 ? `previous_secret = secret, previous_secret_expires_at = unixepoch() + ${seconds}` : NO_PREVIOUS;
  const [rows] = execute(
    target,
    `UPDATE applications SET ${previous}, secret = ${sqlString(secret)} WHERE id = ${sqlInt(id)}
     RETURNING ${APPLICATION_COLUMNS}`,
  );
  if (!rows.length) throw new NotFound(`no application ${id}a`);
  return { application: await applicationView(rows[0]), secret };
}

/** Ends a rotation's overlap now (the previous secret leaked, or every app has switched): only the current secret signs. */
export async function appEndOverlap(target, [rawId]) {
  const id = await parseWireId(rawId, "a", "application id");
  const where = `id = ${sqlInt(id)}`;
  const [[before], rows] = execute(
    target,
    `SELECT EXISTS (SELECT 1 FROM applications WHERE ${where} AND previous_secret IS NOT NULL
       AND previous_secret_expires_at > unixepoch()) AS open;
     UPDATE applications SET ${NO_PREVIOUS} WHERE ${where} RETURNING ${APPLICATION_COLUMNS}`,
  );
  if (!rows.length) throw new NotFound(`no application ${id}a`);
  return { application: await applicationView(rows[0]), ended: Boolean(before.open) };
}

/**
 * A staff user. The username must already be in the shape the app gives new accounts (usernameBase: lower-case
 * letters, digits and `_`, 3 to 24 characters), the email pass the app's email check; it is stored lower case.
 * The email is unverified unless the operator says it is theirs (`--email-verified`). Either way a staff account is never
 * matched to a social or identity-provider login by its email; its holder signs in and links (docs/decisions.md,
 * "External identity").
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
