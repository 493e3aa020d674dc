import { containerQuery } from "../db/queries/catalogue";
import {
  type GlossaryTermValues,
  allGlossaryTermsQuery,
  countGlossaryQuery,
  deleteGlossaryStatement,
  deleteTermQuery,
  glossaryPageQuery,
  glossaryTermQuery,
  insertTermWithinLimit,
  updateTermQuery,
  upsertTermsStatements,
} from "../db/queries/glossary";
import { runBatchResults } from "../db/raw-batch";
import { batchWith } from "../db/rider";
import type { ContainerRow, GlossaryTermRow } from "../db/schema";
import { ApiError, VCODE } from "../lib/errors";
import { formatId } from "../lib/ids";
import type { Paging } from "../lib/paging";
import type { CacheScope } from "../lib/route-properties";
import type { User } from "../types";
import { caller, requireVisibleContainer } from "./access";
import { afterWrite } from "./after-write";
import { manageableContainer } from "./catalogue";
import { type Deps, viewer } from "./deps";
import { GLOSSARY_MAX_TERMS, glossaryCsv, readGlossaryCsv } from "./glossary-csv";

export { GLOSSARY_MAX_TERMS };

/** The edge generation of a series' glossary reads, which only the glossary's writes bump (docs/decisions.md, "Glossary"). */
export const glossaryScope = (containerId: number): CacheScope => `glossary:${containerId}`;

const LIMIT_REACHED = `a series holds at most ${GLOSSARY_MAX_TERMS} glossary terms`;

/** A write that met `glossary_terms_container_language_term`: the series already has this term in this language. */
function duplicateTerm(err: unknown): never {
  let unique = false;
  // drizzle wraps the driver's error: the constraint is named in a cause.
  for (let e: unknown = err; e instanceof Error && !unique; e = e.cause) unique = e.message.includes("UNIQUE constraint failed");
  if (unique) {
    throw new ApiError(VCODE.conflict, "term: the series' glossary already has this term in this language", {
      details: [{ field: "term", message: "already in the series' glossary in this language (edit that term instead)" }],
    });
  }
  throw err;
}

/** The container, when the caller may see it (the public-container rule of the other container reads). */
async function visible(deps: Deps, user: User | undefined, found: ContainerRow | undefined) {
  return requireVisibleContainer(caller(deps.db, await viewer(deps, user)), found);
}

/** One page of a series' terms, oldest first, read in one batch with the container (and the count, when asked). */
export async function glossaryPage(deps: Deps, user: User | undefined, containerId: number, p: Paging) {
  const { db } = deps;
  const reads = [containerQuery(db, containerId), glossaryPageQuery(db, containerId, p.offset, p.limit)] as const;
  const [found, rows, counted] = (await batchWith(db, deps.session, [
    ...reads,
    ...(p.withPaging ? [countGlossaryQuery(db, containerId)] : []),
  ])) as [ContainerRow[], GlossaryTermRow[], Array<{ n: number }>?];
  await visible(deps, user, found[0]);
  const total = counted?.[0]?.n ?? 0;
  return { rows, count: async () => total };
}

/** Every term of a series (at most GLOSSARY_MAX_TERMS), read with the container. */
async function everyTerm(deps: Deps, user: User | undefined, containerId: number) {
  const { db } = deps;
  const [found, rows] = await batchWith(db, deps.session, [containerQuery(db, containerId), allGlossaryTermsQuery(db, containerId)]);
  await visible(deps, user, found[0]);
  return rows;
}

/** The glossary as CSV (docs/api.md, "Glossary": columns, and the protection of cells that look like formulas). */
export async function glossaryCsvExport(deps: Deps, user: User | undefined, containerId: number) {
  return glossaryCsv(await everyTerm(deps, user, containerId));
}

export async function createTerm(deps: Deps, user: User | undefined, containerId: number, values: GlossaryTermValues) {
  await manageableContainer(deps, user, containerId);
  const rows = await insertTermWithinLimit(deps.db, containerId, values, GLOSSARY_MAX_TERMS).catch(duplicateTerm);
  if (!rows.length) {
    throw new ApiError(VCODE.conflict, LIMIT_REACHED, { details: [{ field: "glossary", message: `${LIMIT_REACHED}; delete one first` }] });
  }
  await afterWrite(deps, { scopes: [glossaryScope(containerId)] });
  return rows[0];
}

export async function updateTerm(
  deps: Deps,
  user: User | undefined,
  containerId: number,
  termId: number,
  set: Partial<GlossaryTermValues>,
) {
  await manageableContainer(deps, user, containerId);
  const rows = Object.keys(set).length
    ? await updateTermQuery(deps.db, containerId, termId, set).catch(duplicateTerm)
    : await glossaryTermQuery(deps.db, containerId, termId);
  if (!rows.length) throw ApiError.notFound("no such term in this series' glossary");
  if (Object.keys(set).length) await afterWrite(deps, { scopes: [glossaryScope(containerId)] });
  return rows[0];
}

export async function deleteTerm(deps: Deps, user: User | undefined, containerId: number, termId: number) {
  await manageableContainer(deps, user, containerId);
  const deleted = await deleteTermQuery(deps.db, containerId, termId);
  if (!deleted.length) throw ApiError.notFound("no such term in this series' glossary");
  await afterWrite(deps, { scopes: [glossaryScope(containerId)] });
}

export type ImportMode = "replace" | "merge";

/**
 * A CSV import: every row checked first (a malformed one is a 400 naming its line and column), then one D1 batch
 * (`replace`: the glossary emptied, then the rows; `merge`: the rows added, or written over the term of the same
 * language and text), so nothing is half applied. The limit is checked against the terms the series has, read just
 * before the batch.
 */
export async function importGlossaryCsv(deps: Deps, user: User | undefined, containerId: number, text: string, mode: ImportMode) {
  await manageableContainer(deps, user, containerId);
  const rows = readGlossaryCsv(text);
  const { db } = deps;
  let created = rows.length;
  let total = rows.length;
  if (mode === "merge") {
    const existing = await allGlossaryTermsQuery(db, containerId);
    const keys = new Set(existing.map((t) => `${t.language}\u0000${t.term}`));
    created = rows.filter((r) => !keys.has(`${r.language}\u0000${r.term}`)).length;
    total = existing.length + created;
    if (total > GLOSSARY_MAX_TERMS) {
      throw ApiError.field("csv", `${LIMIT_REACHED}: it has ${existing.length} and the file adds ${created} new ones`);
    }
  }
  const statements = [...(mode === "replace" ? [deleteGlossaryStatement(containerId)] : []), ...upsertTermsStatements(containerId, rows)];
  if (statements.length) await runBatchResults(db, statements);
  await afterWrite(deps, { scopes: [glossaryScope(containerId)] });
  return { mode, rows: rows.length, created, updated: rows.length - created, terms: total };
}

/** The wire id of a term. */
export const termWireId = (id: number) => formatId(id, "k");
