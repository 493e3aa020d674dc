// The app's own rules, bundled from src/ the way the demo seed does it (scripts/demo/load-app-code.mjs): the
// password hash the login checks, the username shape the app gives new accounts, its email check and wire ids, the
// job statuses and how the API reads a point in time, the shard tables and their id ranges, the index form of search.
// Copies of them here would drift; a bundle of the sources cannot.
import { bundleAndImport } from "../demo/load-app-code.mjs";
import { ROOT } from "../lib.mjs";

const ENTRY = `
export { hashPassword, randomPassword, PBKDF2_ITERATIONS } from "./src/lib/password";
export { usernameBase } from "./src/services/identity/accounts";
export { formatId, tryParseId } from "./src/lib/ids";
export { parseInstant } from "./src/lib/time";
export { JOB_STATUSES } from "./src/db/schema/jobs";
export { SHARD_TABLES } from "./src/db/shard-schema";
export { SHARD_ID_RANGE } from "./src/db/queries/shard-rows";
export { indexForm } from "./src/domain/search-text";
import { z } from "zod";
// The email rule of external identities (src/services/identity/retailer.ts), stored lower case as they are.
export const emailSchema = z.email().max(254);
`;

let loaded;

/**
 * `{ hashPassword, randomPassword, usernameBase, formatId, tryParseId, parseInstant, JOB_STATUSES, SHARD_TABLES,
 * SHARD_ID_RANGE, indexForm, emailSchema }` from src/.
 */
export function loadAppCode() {
  loaded ??= build();
  return loaded;
}

function build() {
  return bundleAndImport({ stdin: { contents: ENTRY, resolveDir: ROOT, sourcefile: "admin-app-code.mjs", loader: "js" } });
}
