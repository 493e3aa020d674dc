// The app code the demo seed runs instead of keeping copies of it: load-app-code.mjs bundles this entry
// (TypeScript sources included) into plain JS. Not meant to be imported directly.

import { SQL, is } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { createDb } from "../../src/db/client";
import { sqlLiteral } from "./core.mjs";

export { hashPasswordWithSalt } from "../../src/lib/password";
// The index form v4 title search reads (src/domain/search-text.ts): the seed writes it with each title.
export { indexForm } from "../../src/domain/search-text";
// The quality checks (src/domain/subtitles/checks.ts, glossary-checks.ts): the seed stores each cue's mask as the
// API's writers do, so `checks_passing` and checks.json answer for the demo at once.
export { trackMasks } from "../../src/domain/subtitles/checks";
export { trackGlossary } from "../../src/domain/subtitles/glossary-checks";
// The completion job's rule (src/services/completions.ts): the seed computes the demo's completions with it.
export { completionWork } from "../../src/services/completions";
export {
  completionWriteStatements,
  containerPercentsSql,
  containerScopeQuery,
  videoPercentsSql,
  videoPlacementsQuery,
} from "../../src/db/queries/completions";

/** A catalogue client that only builds queries (`catalogueQueries.select()...`): nothing behind it ever runs them. */
export const catalogueQueries = createDb({});

const dialect = new SQLiteAsyncDialect();

/**
 * A drizzle statement (an `sql` template or a query builder) as SQL text with its parameters written in as literals:
 * `wrangler d1 execute` takes none. A builder's columns are named by its fields (`videoId`, ...) through a CTE's
 * column list, so the rows read back as the app's code reads them.
 */
export function sqlText(statement) {
  const { sql, params } = is(statement, SQL) ? dialect.sqlToQuery(statement) : statement.toSQL();
  let next = 0;
  // Placeholders are the `?` outside quoted strings and identifiers.
  const text = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?/g, (token) => (token === "?" ? sqlLiteral(params[next++]) : token));
  if (next !== params.length) throw new Error(`sqlText: ${params.length} parameters, ${next} placeholders`);
  if (is(statement, SQL)) return text;
  const names = Object.keys(statement.getSelectedFields()).map((name) => `"${name}"`);
  return `WITH q (${names.join(", ")}) AS (${text}) SELECT * FROM q`;
}
