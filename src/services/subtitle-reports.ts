import { containerManagerQuery, containerQuery } from "../db/queries/catalogue";
import { containerPlacementQuery } from "../db/queries/shards";
import {
  countReports,
  findReport,
  markReportResolved,
  reportPageQuery,
  versionKept,
  type ReportAction,
  type ReportRow,
  type ReportStatus,
} from "../db/queries/subtitle-reports";
import { batchWith } from "../db/rider";
import { REPORT_STATUSES } from "../db/schema";
import { ApiError } from "../lib/errors";
import { formatId } from "../lib/ids";
import type { Paging } from "../lib/paging";
import type { ShardDB } from "../db/shards";
import type { User } from "../types";
import { caller, requireManager } from "./access";
import type { Deps } from "./deps";
import { findOnShards, shardMap, readShard, writeShard } from "./shards";
import type { Track } from "./subtitle-versions";

/**
 * Reports of subtitles as their container's moderators see them (docs/decisions.md, "Subtitle versions"): staff and
 * the container's managers list them and resolve each once, by dismissing it or by restoring the track's version from
 * before the reported change. Who may is the rule of `manageableContainer`: 404 to whoever cannot see the container,
 * 403 to whoever can see but not manage it. Reports live on their container's shard (docs/decisions.md, "Subtitles on
 * the shards"): the container, its placement and the caller's manager row are one catalogue batch, then the shard.
 */

export type { ReportAction, ReportRow, ReportStatus };

/** The list's `status` filter: one status, or both. */
type ReportStatusFilter = ReportStatus | "all";

interface ReportListFilters {
  status: ReportStatusFilter;
  language?: string;
}

/**
 * The container when `user` may manage it (the rule of `manageableContainer`), with its placement: one catalogue batch
 * that carries the manager lookup too, so the rule costs no second trip.
 */
async function manageablePlacement(deps: Deps, user: User | undefined, containerId: number) {
  const { db } = deps;
  const [rows, placed, managers] = await batchWith(db, deps.session, [
    containerQuery(db, containerId),
    containerPlacementQuery(db, containerId),
    containerManagerQuery(db, containerId, user?.id ?? 0),
  ]);
  const known = new Map([[containerId, user !== undefined && (user.staff || managers.length > 0)]]);
  const { container } = await requireManager(caller(db, user, known), rows[0] && { container: rows[0] });
  if (!placed[0]) throw ApiError.notFound();
  return { container, placement: placed[0] };
}

/** One page of a container's reports, newest first, with the count for `with_paging`. */
export async function reportPage(deps: Deps, user: User | undefined, containerId: number, f: ReportListFilters, p: Paging) {
  const { container, placement } = await manageablePlacement(deps, user, containerId);
  const shard = readShard(deps, placement);
  const filters = {
    containerId: container.id,
    statuses: f.status === "all" ? REPORT_STATUSES : [f.status],
    language: f.language,
  };
  const rows = await reportPageQuery(shard, filters, p.offset, p.limit);
  return { rows, count: () => countReports(shard, filters) };
}

/** What resolving a report will do: the report, and for a restore the track and the version to bring back. */
interface Plan {
  report: ReportRow;
  /** The database of the container's shard that records the resolution (503 while the container moves). */
  shard: ShardDB;
  restore?: { track: Track; number: number };
}

/**
 * Checks that `user` may resolve the report and that it can be resolved with `action`: unknown is 404 (the report is
 * looked for on the shard its id's range names first, then on the others: `findOnShards`), then the container's
 * rule, then 409 for a report already resolved and for a restore with no earlier version kept (the report was made
 * against the track's first version, before any version was kept, or that version has been pruned).
 */
async function plan(deps: Deps, user: User, reportId: number, action: ReportAction): Promise<Plan> {
  const report = await findOnShards(await shardMap(deps), reportId, (db) => findReport(db, reportId));
  // A report whose place was never known (made before reports kept it) is on no container's list.
  if (!report || report.containerId === null || report.videoId === null || report.language === null) throw ApiError.notFound();
  const { placement } = await manageablePlacement(deps, user, report.containerId);
  const { db: shard } = writeShard(deps, placement);
  if (report.status === "resolved") {
    throw ApiError.conflict(`report ${formatId(report.id, "r")} is already resolved (${report.resolution ?? "no action"})`);
  }
  if (action === "dismiss") return { report, shard };
  if (report.version === null || report.version <= 1) {
    throw ApiError.conflict(
      report.version === null
        ? "no earlier version is kept: the track had no version when the report was made"
        : "no earlier version is kept: the report was made against the track's first version",
    );
  }
  const track = { videoId: report.videoId, language: report.language };
  const number = report.version - 1;
  if (!(await versionKept(shard, track.videoId, track.language, number))) {
    throw ApiError.conflict(`no earlier version is kept: version ${number} of the ${track.language} subtitles is gone`);
  }
  return { report, shard, restore: { track, number } };
}

/**
 * Resolves an open report (staff and the container's managers). `dismiss` only records it; `restore` first brings back
 * the version before the reported change (report.version − 1) through `restoreVersion`, which the route gives (the
 * restore may queue a job, and services do not reach jobs), then records it. Who, when and how are recorded once the
 * action is done; a report resolved by someone else in the meantime is a 409, as if it had been resolved before.
 */
export async function resolveReport<R>(
  deps: Deps,
  user: User,
  reportId: number,
  action: ReportAction,
  restoreVersion: (track: Track, number: number) => Promise<R>,
): Promise<{ report: ReportRow; restored?: R }> {
  const { report, shard, restore } = await plan(deps, user, reportId, action);
  const restored = restore ? await restoreVersion(restore.track, restore.number) : undefined;
  const written = await markReportResolved(shard, report.id, action, user.id);
  if (!written) throw ApiError.conflict(`report ${formatId(report.id, "r")} is already resolved`);
  return { report: { ...report, ...written }, restored };
}
