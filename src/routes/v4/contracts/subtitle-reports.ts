import { z } from "@hono/zod-openapi";
import { REPORT_ACTIONS, REPORT_STATUSES } from "../../../db/schema";
import { listEnvelopeSchema, pagingQuery } from "../../../lib/paging";
import { JobSchema } from "../jobs";
import { LanguageFilter } from "./catalogue-writes";
import { VersionSchema } from "./subtitle-versions";

export const ContainerReportsParams = z.object({
  container_id: z.string().openapi({ param: { name: "container_id", in: "path" }, example: "1c" }),
});

export const ReportParams = z.object({
  report_id: z.string().openapi({ param: { name: "report_id", in: "path" }, example: "3r" }),
});

const REPORT_STATUS_FILTERS = [...REPORT_STATUSES, "all"] as const;

export const ReportListQuery = z.object({
  ...pagingQuery,
  language: LanguageFilter.optional().openapi({ description: "only reports of subtitles in this language" }),
  status: z.enum(REPORT_STATUS_FILTERS).default("open").openapi({ description: "`open` (the default), `resolved` or `all`" }),
});

const SubtitleReportSchema = z
  .object({
    id: z.string().openapi({ example: "3r" }),
    subtitle: z.object({
      id: z.string().openapi({ example: "8s" }),
      language: z.string().nullable().openapi({ example: "ko" }),
      text: z.string().nullable().openapi({ description: "the subtitle's text when it was reported" }),
      video_id: z.string().nullable().openapi({ example: "1v" }),
    }),
    reporter: z.object({ id: z.string().openapi({ example: "12u" }), username: z.string(), url: z.object({ api: z.string() }) }),
    reason: z.string(),
    version: z.number().int().nullable().openapi({ description: "the track's version when reported (null: none was kept)" }),
    status: z.enum(REPORT_STATUSES),
    created_at: z.string(),
    resolution: z
      .object({
        action: z.enum(REPORT_ACTIONS),
        by: z.string().nullable().openapi({ description: "user id of who resolved it (null: that user is gone)", example: "7u" }),
        at: z.string().nullable(),
      })
      .nullable(),
  })
  .openapi("SubtitleReport");

export const SubtitleReportList = listEnvelopeSchema(SubtitleReportSchema, "SubtitleReportList");

export const ResolveBody = z
  .object({
    action: z.enum(REPORT_ACTIONS).openapi({
      description: "`dismiss`: nothing to change; `restore`: bring back the version before the reported change",
    }),
  })
  .openapi("SubtitleReportResolve");

export const ReportResolved = z
  .object({
    report: SubtitleReportSchema,
    version: VersionSchema.optional().openapi({
      description: "restore: the version it made, or the current one when the track already held that text",
    }),
    changed: z.boolean().optional().openapi({ description: "restore: whether the track's text changed" }),
    job: JobSchema.optional().openapi({ description: "restore of a large track: the queued `subtitle-restore` job" }),
  })
  .openapi("SubtitleReportResolved");
