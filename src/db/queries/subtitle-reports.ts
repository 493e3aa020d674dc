import { sql } from "drizzle-orm";
import { COUNT_LIMIT } from "../../lib/paging";
import { runBatchResults } from "../raw-batch";
import type { ShardDB } from "../shards";
import type { REPORT_ACTIONS, REPORT_STATUSES } from "../schema";
import { nextShardId, nextShardIdStatement } from "./shard-rows";

/**
 * Reports of subtitles and their moderation (docs/decisions.md, "Subtitle versions"): a report copies where the
 * subtitle sits, its text and the track's version when it is made, so a container's reports are listed from one index
 * (reports_container_status) and a restore knows which version came before the reported change. They live on the
 * container's shard (docs/decisions.md, "Subtitles on the shards"), with the reporter's name copied into the row.
 */

export type ReportStatus = (typeof REPORT_STATUSES)[number];
export type ReportAction = (typeof REPORT_ACTIONS)[number];

/** A report with its reporter's name, as the moderation routes show it. Times are unix seconds. */
export interface ReportRow {
  id: number;
  subtitleId: number;
  userId: number;
  username: string;
  reason: string;
  videoId: number | null;
  containerId: number | null;
  language: string | null;
  text: string | null;
  version: number | null;
  status: ReportStatus;
  resolution: ReportAction | null;
  resolvedBy: number | null;
  resolvedAt: number | null;
  createdAt: number;
}

const COLUMNS = sql.raw(`r.id AS id, r.subtitle_id AS subtitleId, r.user_id AS userId, r.username AS username,
  r.reason AS reason, r.video_id AS videoId, r.container_id AS containerId, r.language AS language, r.text AS text,
  r.version AS version, r.status AS status, r.resolution AS resolution, r.resolved_by AS resolvedBy,
  r.resolved_at AS resolvedAt, r.created_at AS createdAt`);

/**
 * A user's report of a subtitle on its shard, with where it sits, its text now and its track's last version number
 * (null when the track has none) read in the same statement, so the report holds what was there when it was made. The
 * id comes from the shard's range (a repeat wastes one, which is fine). The unique (subtitle, user) index makes a
 * repeated report store nothing: true when stored. The WHERE clause is required: SQLite reads `ON CONFLICT` after a
 * SELECT without one as a join constraint.
 */
export async function insertReport(
  db: ShardDB,
  shard: number,
  report: { userId: number; username: string; subtitleId: number; reason: string },
) {
  const [, inserted] = await runBatchResults(db, [
    nextShardIdStatement(db, shard).getSQL(),
    sql`INSERT INTO reports
        (id, subtitle_id, user_id, username, reason, video_id, container_id, language, text, version)
      SELECT ${nextShardId(shard)}, s.id, ${report.userId}, ${report.username}, ${report.reason}, s.video_id, s.container_id,
        s.language, s.text,
        (SELECT sv.number FROM subtitle_versions sv WHERE sv.video_id = s.video_id AND sv.language = s.language
          ORDER BY sv.number DESC LIMIT 1)
      FROM subtitles s
      WHERE s.id = ${report.subtitleId}
      ON CONFLICT (subtitle_id, user_id) DO NOTHING
      RETURNING id`,
  ]);
  return inserted.results.length > 0;
}

interface ReportFilters {
  containerId: number;
  statuses: readonly ReportStatus[];
  language?: string;
}

/** The ids of one status's reports in the container, newest first: a walk of reports_container_status backwards. */
const statusArm = (f: ReportFilters, status: ReportStatus) =>
  sql`SELECT id FROM reports INDEXED BY reports_container_status
    WHERE container_id = ${f.containerId} AND status = ${status}${f.language === undefined ? sql`` : sql` AND language = ${f.language}`}`;

/**
 * One page of a container's reports, newest first. Each status is one walk of reports_container_status in id order;
 * with both, SQLite merges the two ordered walks (a compound SELECT with ORDER BY is a merge, not a sort), so a page
 * reads about `offset + limit` index rows whatever the container holds. A `language` filter reads the row of each
 * report passed. Then the page's reports and reporters by primary key; CROSS JOIN keeps the page outermost, so rows
 * come out in its order with no sort.
 */
export function reportPageQuery(db: ShardDB, f: ReportFilters, offset: number, limit: number) {
  const arms = sql.join(
    f.statuses.map((s) => statusArm(f, s)),
    sql` UNION ALL `,
  );
  return db.all<ReportRow>(sql`SELECT ${COLUMNS}
    FROM (${arms} ORDER BY id DESC LIMIT ${limit} OFFSET ${offset}) p
    CROSS JOIN reports r ON r.id = p.id`);
}

/** Only for `with_paging=true`: the container's reports of the statuses (the index alone without `language`), up to `COUNT_LIMIT`. */
export async function countReports(db: ShardDB, f: ReportFilters) {
  const statuses = sql.join(
    f.statuses.map((s) => sql`${s}`),
    sql`, `,
  );
  const row = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM (SELECT 1 FROM reports INDEXED BY reports_container_status
    WHERE container_id = ${f.containerId} AND status IN (${statuses})${f.language === undefined ? sql`` : sql` AND language = ${f.language}`}
    LIMIT ${COUNT_LIMIT})`);
  return Number(row?.n ?? 0);
}

/** One report with its reporter's name, on one shard. */
export const findReport = (db: ShardDB, id: number) =>
  db.get<ReportRow | undefined>(sql`SELECT ${COLUMNS} FROM reports r WHERE r.id = ${id}`);

/** Whether version `number` of a track is still kept (a restore needs it). */
export const versionKept = async (db: ShardDB, videoId: number, language: string, number: number) =>
  (await db.get<{ id: number } | undefined>(
    sql`SELECT id FROM subtitle_versions WHERE video_id = ${videoId} AND language = ${language} AND number = ${number}`,
  )) !== undefined;

/**
 * Marks an open report resolved, by whom, when and how. Nothing when it is no longer open (another moderator resolved
 * it first): the caller answers 409. Returns the columns it wrote.
 */
export async function markReportResolved(db: ShardDB, id: number, action: ReportAction, by: number) {
  const [row] = await db.all<Pick<ReportRow, "status" | "resolution" | "resolvedBy" | "resolvedAt">>(sql`UPDATE reports
    SET status = 'resolved', resolution = ${action}, resolved_by = ${by}, resolved_at = unixepoch()
    WHERE id = ${id} AND status = 'open'
    RETURNING status, resolution, resolved_by AS resolvedBy, resolved_at AS resolvedAt`);
  return row;
}
