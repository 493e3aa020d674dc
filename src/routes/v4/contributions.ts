import { createRoute } from "@hono/zod-openapi";
import { parseId } from "../../lib/ids";
import { paging } from "../../lib/paging";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonResponse } from "../../lib/schemas";
import { viewContext } from "../../lib/view-context";
import { contributionCountOfUser, contributionsOfUser, contributorsOfContainer } from "../../services/contributions";
import { depsOf } from "../../services/deps";
import { containerContributorView, userContributionView } from "../../views/contribution";
import { DEMO_IDS, idParam } from "./contracts/catalogue";
import {
  ContainerContributors,
  ContributionCount,
  ContributionCountQuery,
  ContributionsQuery,
  UserContributions,
} from "./contracts/contributions";

const PUBLIC = "Public (no token needed): `Cache-Control: public`, ETag, 304.";
const DERIVED =
  "Derived from subtitle histories: `segments` counts timing changes, `subtitles` text changes (every history " +
  "row, re-edits included).";

const userContributions = withProperties(
  createRoute({
    method: "get",
    path: "/{user_id}/contributions",
    summary: "Containers a user contributed to (bare array)",
    description:
      `${DERIVED} Most contributions first (ties: newer container first); containers not in the normal state ` +
      `are left out. \`page\`, \`per_page\` (25, clamped to 100) and \`type\`. ${PUBLIC}`,
    request: { params: idParam("user_id", DEMO_IDS.user), query: ContributionsQuery },
    responses: { 200: jsonResponse(UserContributions, "`[{container, segments, subtitles}]`"), ...errorResponses(400, 404) },
  }),
  { cache: "public", sessionInBatch: true, sharedWithUsers: true },
);

const userCount = withProperties(
  createRoute({
    method: "get",
    path: "/{user_id}/contributions/count",
    summary: "Number of contributions of a user",
    description:
      '`{"count": N}`: the user\'s segment and subtitle history rows over every container (with `type`, only ' + `that kind). ${PUBLIC}`,
    request: { params: idParam("user_id", DEMO_IDS.user), query: ContributionCountQuery },
    responses: { 200: jsonResponse(ContributionCount, "the count"), ...errorResponses(400, 404) },
  }),
  { cache: "public", sessionInBatch: true, sharedWithUsers: true },
);

/** Under `/v4/container` (the interface's singular) and, as an alias, `/v4/containers`. */
const contributors = (alias: boolean) =>
  withProperties(
    createRoute({
      method: "get",
      path: "/{container_id}/contributions",
      summary: !alias
        ? "Contributors of a container (bare array; the interface's singular `container`)"
        : "Contributors of a container (alias of `/v4/container/<id>/contributions.json`)",
      description:
        `${DERIVED} Most contributions first (ties: newer user first). \`page\`, \`per_page\` (25, clamped to ` +
        `100) and \`type\`. Containers not in the normal state are 404 except to their managers and staff. ${PUBLIC}`,
      request: { params: idParam("container_id", DEMO_IDS.container.series), query: ContributionsQuery },
      responses: {
        200: jsonResponse(ContainerContributors, "`[{user, segments, subtitles}]`"),
        ...errorResponses(400, 404),
      },
    }),
    { cache: "public", sessionInBatch: true, sharedWithUsers: true },
  );

/** Under `/v4/users`. */
export const userContributionsRouter = routeGroup({ tag: "contributions" })
  .openapi(userContributions, async (c) => {
    const userId = parseId(c.req.valid("param").user_id, "u");
    const q = c.req.valid("query");
    const p = paging(q);
    const rows = await contributionsOfUser(depsOf(c), userId, q.type, p.offset, p.perPage);
    const ctx = viewContext(c);
    return c.json(
      rows.map((r) => userContributionView(r, ctx)),
      200,
    );
  })
  .openapi(userCount, async (c) => {
    const userId = parseId(c.req.valid("param").user_id, "u");
    return c.json({ count: await contributionCountOfUser(depsOf(c), userId, c.req.valid("query").type) }, 200);
  });

/** Under `/v4/container`, and under `/v4/containers` as its alias. */
export const containerContributionsRouter = (alias = false) =>
  routeGroup({ tag: "contributions" }).openapi(contributors(alias), async (c) => {
    const containerId = parseId(c.req.valid("param").container_id, "c");
    const q = c.req.valid("query");
    const p = paging(q);
    const rows = await contributorsOfContainer(depsOf(c), c.get("user"), containerId, q.type, p.offset, p.perPage);
    const ctx = viewContext(c);
    return c.json(
      rows.map((r) => containerContributorView(r, ctx)),
      200,
    );
  });
