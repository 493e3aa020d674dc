import {
  countReports,
  findReport,
  markReportResolved,
  reportPageQuery,
  type ReportAction,
  type ReportRow,
  type ReportStatus,
} from "../db/queries/subtitle-reports";
import { versionsByNumberQuery } from "../db/queries/subtitle-versions";
import { REPORT_STATUSES } from "../db/schema";
import { ApiError } from "../lib/errors";
import { formatId } from "../lib/ids";
import type { Paging } from "../lib/paging";
import type { User } from "../types";
import { manageableContainer } from "./catalogue";
import type { Deps } from "./deps";
import type { Track } from "./subtitle-versions";

/**
 * Reports of subtitles as their container's moderators see them (docs/decisions.md, "Subtitle versions"): staff and
 * the container's managers list them and resolve each once, by dismissing it or by restoring the track's version from
 * before the reported change. Who may is the rule of `manageableContainer`: 404 to whoever cannot see the container,
 * 403 to whoever can see but not manage it.
 */

export type { ReportAction, ReportRow, ReportStatus };

/** The list's `status` filter: one status, or both. */
export type ReportStatusFilter = ReportStatus | "all";

export interface ReportListFilters {
  status: ReportStatusFilter;
  language?: string;
}

/** One page of a container's reports, newest first, with the count for `with_paging`. */
export async function reportPage(deps: Deps, user: User | undefined, containerId: number, f: ReportListFilters, p: Paging) {
  const container = await manageableContainer(deps, user, containerId);
  const filters = {
    containerId: container.id,
    statuses: f.status === "all" ? REPORT_STATUSES : [f.status],
    language: f.language,
  };
  const rows = await reportPageQuery(deps.db, filters, p.offset, p.limit);
  return { rows, count: () => countReports(deps.db, filters) };
}

/** What resolving a report will do: the report, and for a restore the track and the version to bring back. */
interface Plan {
  report: ReportRow;
  restore?: { track: Track; number: number };
}

/**
 * Checks that `user` may resolve the report and that it can be resolved with `action`: unknown is 404, then the
 * container's rule, then 409 for a report already resolved and for a restore with no earlier version kept (the report
 * was made against the track's first version, before any version was kept, or that version has been pruned).
 */
async function plan(deps: Deps, user: User, reportId: number, action: ReportAction): Promise<Plan> {
  const report = await findReport(deps.db, reportId);
  // A report whose place was never known (made before reports kept it) is on no container's list.
  if (!report || report.containerId === null || report.videoId === null || report.language === null) throw ApiError.notFound();
  await manageableContainer(deps, user, report.containerId);
  if (report.status === "resolved") {
    throw ApiError.conflict(`report ${formatId(report.id, "r")} is already resolved (${report.resolution ?? "no action"})`);
  }
  if (action === "dismiss") return { report };
  if (report.version === null || report.version <= 1) {
    throw ApiError.conflict(
      report.version === null
        ? "no earlier version is kept: the track had no version when the report was made"
        : "no earlier version is kept: the report was made against the track's first version",
    );
  }
  const track = { videoId: report.videoId, language: report.language };
  const number = report.version - 1;
  const [kept] = await versionsByNumberQuery(deps.db, track.videoId, track.language, [number]);
  if (!kept) throw ApiError.conflict(`no earlier version is kept: version ${number} of the ${track.language} subtitles is gone`);
  return { report, restore: { track, number } };
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
  const { report, restore } = await plan(deps, user, reportId, action);
  const restored = restore ? await restoreVersion(restore.track, restore.number) : undefined;
  const written = await markReportResolved(deps.db, report.id, action, user.id);
  if (!written) throw ApiError.conflict(`report ${formatId(report.id, "r")} is already resolved`);
  return { report: { ...report, ...written }, restored };
}
