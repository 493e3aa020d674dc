import { desc, getTableColumns, sql, type SQL } from "drizzle-orm";
import { COUNT_LIMIT } from "../../lib/paging";
import type { DB } from "../client";
import { jobs, type JOB_STATUSES } from "../schema";
import type { Job } from "./jobs";

/** The staff's listing of jobs (`GET /v4/jobs.json`, `npm run admin -- jobs list`): a page by the index of its filters. */

/** The staff listing's filters: any of them, `createdFrom` inclusive and `createdUntil` exclusive (unix seconds). */
export interface JobFilters {
  status?: (typeof JOB_STATUSES)[number];
  type?: string;
  createdFrom?: number;
  createdUntil?: number;
}

/** The index whose equality columns are exactly the filters given, each ending in created_at (migration 0027). */
const listingIndex = (f: JobFilters) =>
  f.status !== undefined && f.type !== undefined
    ? "jobs_status_type_created"
    : f.status !== undefined
      ? "jobs_status_created"
      : f.type !== undefined
        ? "jobs_type_created"
        : "jobs_created";

/** The filters as one condition over the listing index's columns (`1` when there are none). */
function listingWhere(f: JobFilters): SQL {
  const terms = [
    f.status === undefined ? undefined : sql`status = ${f.status}`,
    f.type === undefined ? undefined : sql`type = ${f.type}`,
    f.createdFrom === undefined ? undefined : sql`created_at >= ${f.createdFrom}`,
    f.createdUntil === undefined ? undefined : sql`created_at < ${f.createdUntil}`,
  ].filter((t): t is SQL => t !== undefined);
  return terms.length ? sql.join(terms, sql` AND `) : sql`1`;
}

/**
 * Every column of a job, decoded as drizzle decodes the table's: as plain SQL fields, which drizzle accepts from a
 * `FROM` it did not write (its own columns it would refuse there, the table not being "part of the query").
 */
const jobColumns = Object.fromEntries(
  Object.entries(getTableColumns(jobs)).map(([key, column]) => [key, sql`${column}`.mapWith(column)]),
) as {
  [K in keyof Job]: SQL<Job[K]>;
};

/**
 * One page of jobs, newest first: a backwards walk of the index of the filters given (INDEXED BY, so the plan does not
 * depend on the planner's guess), which holds every column the filters and the order read. SQLite reads a row only
 * once it is on the page (the rows the offset skips are index entries alone), so a page reads `offset + limit` rows.
 */
export const jobPageQuery = (db: DB, f: JobFilters, offset: number, limit: number) =>
  db
    .select(jobColumns)
    .from(sql`${jobs} INDEXED BY ${sql.raw(listingIndex(f))}`)
    .where(listingWhere(f))
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(limit)
    .offset(offset);

/** Only for `with_paging=true`: the jobs the filters match, up to `COUNT_LIMIT`, from the same index alone. */
export async function countJobs(db: DB, f: JobFilters) {
  const row = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM (SELECT 1 FROM jobs INDEXED BY ${sql.raw(listingIndex(f))}
    WHERE ${listingWhere(f)} LIMIT ${COUNT_LIMIT})`);
  return Number(row?.n ?? 0);
}
