import { createRoute } from "@hono/zod-openapi";
import { formatId, parseId } from "../../lib/ids";
import { listEnvelope, paging } from "../../lib/paging";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { signingApplicationId } from "../../jobs/enqueue";
import { startRestore } from "../../jobs/subtitle-restore";
import { depsOf } from "../../services/deps";
import { reportPage, resolveReport } from "../../services/subtitle-reports";
import { jobView } from "../../views/job";
import { subtitleReportView } from "../../views/subtitle-report";
import { versionView } from "../../views/subtitle-version";
import {
  ContainerReportsParams,
  ReportListQuery,
  ReportParams,
  ReportResolved,
  ResolveBody,
  SubtitleReportList,
} from "./contracts/subtitle-reports";

/**
 * Reports of subtitles for their container's moderators (docs/decisions.md, "Subtitle versions"): users report an
 * original subtitle (POST /v4/tranlslations/{subtitle_id}/report.json); staff and the container's managers list the
 * container's reports and resolve each, dismissing it or restoring the track's version from before the reported change.
 */
const WHO =
  "Official applications, with the token of staff or of a manager of the container (403 to other users who can see it, " +
  "404 to who cannot).";

const listRoute = withProperties(
  createRoute({
    tags: ["subtitle_reports"],
    method: "get",
    path: "/{container_id}/subtitle_reports",
    summary: "Reports of the container's subtitles (staff and the container's managers)",
    description:
      `${WHO} Newest first. \`status\`: \`open\` (the default), \`resolved\` or \`all\`; \`language\`: only that ` +
      "language's subtitles. Each report shows the subtitle as it was reported (its text then), the reporter, the " +
      "reason, the track's version when reported, and how it was resolved. Paged.",
    request: { params: ContainerReportsParams, query: ReportListQuery },
    responses: {
      200: jsonResponse(SubtitleReportList, "the v4 list envelope of reports"),
      ...errorResponses(400, 401, 403, 404),
    },
  }),
  { security: ["officialApp", "user"], cache: "user" },
);

const resolveRoute = withProperties(
  createRoute({
    tags: ["subtitle_reports"],
    method: "post",
    path: "/{report_id}/resolve",
    summary: "Resolve a subtitle report (staff and the container's managers)",
    description:
      `${WHO} \`{"action": "dismiss"}\` marks the report resolved; \`{"action": "restore"}\` first restores the ` +
      "track's version before the reported change (the report's `version` − 1) as the version restore route does " +
      "(a new version with cause `restore`, 200 with `version` and `changed`; a large track queues a " +
      "`subtitle-restore` job, 202 with `job`), then marks it resolved. Who, when and how are recorded. 409 for a " +
      "report already resolved, for a restore with no earlier version kept, and while an import or restore of the " +
      "track is queued or running.",
    request: { params: ReportParams, body: jsonBody(ResolveBody) },
    responses: {
      200: jsonResponse(ReportResolved, "the resolved report (and the restore's version)"),
      202: jsonResponse(ReportResolved, "the resolved report and the queued restore job"),
      ...errorResponses(400, 401, 403, 404, 409, 413),
    },
  }),
  { security: ["officialApp", "user"], writeLimit: "catalogue" },
);

/** Under `/v4/containers`. */
export const containerSubtitleReportsRouter = routeGroup({ tag: "subtitle_reports" }).openapi(listRoute, async (c) => {
  const q = c.req.valid("query");
  const p = paging(q);
  const containerId = parseId(c.req.valid("param").container_id, "c");
  const { rows, count } = await reportPage(depsOf(c), c.get("user"), containerId, { status: q.status, language: q.language }, p);
  const origin = new URL(c.req.url).origin;
  const body = await listEnvelope(
    c.req.url,
    p,
    rows,
    (r) => subtitleReportView(r, origin),
    (r) => formatId(r.id, "r"),
    count,
  );
  return c.json(body, 200);
});

/** Under `/v4/subtitle_reports`. */
export const subtitleReportsRouter = routeGroup().openapi(resolveRoute, async (c) => {
  const deps = depsOf(c);
  const user = c.get("user")!;
  const change = { user, applicationId: signingApplicationId(c) ?? null };
  const { report, restored } = await resolveReport(
    deps,
    user,
    parseId(c.req.valid("param").report_id, "r"),
    c.req.valid("json").action,
    (track, number) => startRestore(deps, change, track, number),
  );
  const origin = new URL(c.req.url).origin;
  const view = subtitleReportView(report, origin);
  if (restored?.job) return c.json({ report: view, job: jobView(restored.job, origin) }, 202);
  if (restored) return c.json({ report: view, version: versionView(restored.version, origin), changed: restored.created }, 200);
  return c.json({ report: view }, 200);
});
