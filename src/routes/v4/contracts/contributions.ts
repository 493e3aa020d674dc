import { z } from "@hono/zod-openapi";
import { CONTAINER_TYPES } from "../../../db/schema";
import { pagingQuery } from "../../../lib/paging";

const TypeFilter = z
  .enum(["segments", "subtitles"], { error: "segments or subtitles" })
  .optional()
  .openapi({ description: "`segments` or `subtitles`: only entries with at least one contribution of that kind" });

export const ContributionsQuery = z.object({
  page: pagingQuery.page,
  per_page: pagingQuery.per_page,
  type: TypeFilter,
});

export const ContributionCountQuery = z.object({ type: TypeFilter });

const counts = {
  segments: z.number().int().openapi({ description: "timing (segment) changes" }),
  subtitles: z.number().int().openapi({ description: "subtitle text changes" }),
};

export const UserContributions = z
  .array(
    z.object({
      container: z.object({
        id: z.string().openapi({ example: "50c" }),
        type: z.enum(CONTAINER_TYPES),
        titles: z.record(z.string(), z.string()),
        url: z.object({ api: z.string() }),
      }),
      ...counts,
    }),
  )
  .openapi("UserContributions");

export const ContainerContributors = z
  .array(
    z.object({
      user: z.object({ id: z.string().openapi({ example: "12u" }), username: z.string(), url: z.object({ api: z.string() }) }),
      ...counts,
    }),
  )
  .openapi("ContainerContributors");

export const ContributionCount = z.object({ count: z.number().int() }).openapi("ContributionCount");
