// The app code the demo seed runs instead of keeping copies of it: load-app-code.mjs bundles this entry
// (TypeScript sources included) into plain JS. Not meant to be imported directly.

import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { containerCompletionStatements, videoCompletionStatements } from "../../src/db/queries/completions";

export { hashPasswordWithSalt } from "../../src/lib/password";

const dialect = new SQLiteSyncDialect();

/**
 * The statements the completion job runs (recomputeCompletions) for these videos and containers, as plain SQL
 * with the ids inlined, for `wrangler d1 execute --file`.
 */
export function completionSql(videoIds, containerIds) {
  return [...videoCompletionStatements(videoIds), ...containerCompletionStatements(containerIds)].map(
    (statement) => dialect.sqlToQuery(statement.inlineParams()).sql,
  );
}
