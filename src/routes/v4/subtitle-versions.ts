import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { TRACK_EXTENSIONS } from "../../domain/subtitles/write-file";
import { ApiError } from "../../lib/errors";
import { formatId, parseId } from "../../lib/ids";
import { lastServedPage, listEnvelope, pageUrl, paging } from "../../lib/paging";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonResponse } from "../../lib/schemas";
import { signingApplicationId } from "../../jobs/enqueue";
import { startRestore } from "../../jobs/subtitle-restore";
import { depsOf } from "../../services/deps";
import { SUBTITLE_LANGUAGE_RE } from "../../services/subtitles";
import { RESTORE_INLINE_CUES } from "../../services/subtitle-edits";
import { compareVersions, versionFile, versionPage, type Track } from "../../services/subtitle-versions";
import type { AppEnv } from "../../types";
import { jobView } from "../../views/job";
import { versionView } from "../../views/subtitle-version";
import { TimingQuery, TrackFileContent, timingChange } from "./contracts/subtitles";
import { answerTrackFile, requestedFile } from "./subtitle-tracks";
import {
  CompareParams,
  CompareQuery,
  ComparisonSchema,
  RestoreCreated,
  TrackParams,
  VersionFileParams,
  VersionList,
  VersionListQuery,
  VersionParams,
} from "./contracts/subtitle-versions";
import { JobEnvelope } from "./jobs";

/** The track a path names; a malformed language or version number is a 400 naming it. */
export function trackOf(params: { video_id: string; language: string }): Track {
  if (!SUBTITLE_LANGUAGE_RE.test(params.language)) throw ApiError.field("language", "a lowercase language code such as en or pt-br");
  return { videoId: parseId(params.video_id, "v"), language: params.language };
}

function versionNumber(raw: string, field = "number") {
  if (!/^[1-9][0-9]{0,8}$/.test(raw)) throw ApiError.field(field, "a version number: 1, 2, 3…");
  return Number(raw);
}

const OFFICIAL = "Official applications, like the other subtitle routes; the video must be visible to the caller.";
const EXTENSIONS = TRACK_EXTENSIONS.join(", ");

const list = withProperties(
  createRoute({
    tags: ["subtitle_versions"],
    method: "get",
    path: "/{video_id}/subtitle_tracks/{language}/versions",
    summary: "The versions of a subtitle track, newest first",
    description:
      `${OFFICIAL} Every import, edit, restore and deletion of the language made one (identical content makes none); ` +
      "each with its number, author, signing application, cause, time, cue count, completion after the change and content " +
      'hash. Versions are kept 90 days, then the newest 50 per track (docs/api.md, "Subtitle versions and reports"). Paged.',
    request: { params: TrackParams, query: VersionListQuery },
    responses: { 200: jsonResponse(VersionList, "the v4 list envelope of versions"), ...errorResponses(400, 403, 404) },
  }),
  { security: ["officialApp"], cache: "user" },
);

const file = withProperties(
  createRoute({
    tags: ["subtitle_versions"],
    method: "get",
    path: "/{video_id}/subtitle_tracks/{language}/versions/{file}",
    summary: "One version of a subtitle track, in any track format",
    description:
      `${OFFICIAL} \`file\` is \`<number>.<ext>\` with \`ext\` one of ${EXTENSIONS}, written by the same writers as the ` +
      "track; `offset_ms`, `fps_from` and `fps_to` as there. A version never changes: its ETag is its content hash.",
    request: { params: VersionFileParams, query: TimingQuery },
    responses: {
      200: { description: "the file", content: TrackFileContent },
      304: { description: "not modified" },
      ...errorResponses(400, 403, 404),
    },
  }),
  { security: ["officialApp"], cache: "user" },
);

const compare = withProperties(
  createRoute({
    tags: ["subtitle_versions"],
    method: "get",
    path: "/{video_id}/subtitle_tracks/{language}/versions/{number}/compare/{other}",
    summary: "Compare two versions of a subtitle track",
    description:
      `${OFFICIAL} From version \`number\` to version \`other\`: cues \`added\`, \`removed\`, \`retimed\` (same text, other ` +
      "times) and `changed` (matched by timing, with a word-level diff of the text as `edits`), each in time order, and " +
      "their `counts`. Paged: page `p` holds items `(p-1)×per_page` to `p×per_page` of each of the four lists; `more` says " +
      "whether any list goes on.",
    request: { params: CompareParams, query: CompareQuery },
    responses: { 200: jsonResponse(ComparisonSchema, "the comparison"), ...errorResponses(400, 403, 404) },
  }),
  { security: ["officialApp"], cache: "user" },
);

const restore = withProperties(
  createRoute({
    tags: ["subtitle_versions"],
    method: "post",
    path: "/{video_id}/subtitle_tracks/{language}/versions/{number}/restore",
    summary: "Restore a version of a subtitle track (staff and the container's managers)",
    description:
      "Official applications, with the token of staff or of a manager of the video's container. Makes the track's texts " +
      `those of version \`number\` as a new version (cause \`restore\`). At most ${RESTORE_INLINE_CUES} cues: at once, 201 ` +
      "with the new version (200 with the current one when the track already holds that text). Larger: a " +
      "`subtitle-restore` job (202). Announces `subtitles.updated` with cause `restore` and recomputes completions. 409 " +
      "while an import or another restore of the track is queued or running.",
    request: { params: VersionParams },
    responses: {
      200: jsonResponse(RestoreCreated, "the track already held that text"),
      201: jsonResponse(RestoreCreated, "the version the restore made"),
      202: jsonResponse(JobEnvelope, "the queued subtitle-restore job"),
      ...errorResponses(400, 401, 403, 404, 409),
    },
  }),
  { security: ["officialApp", "user"], writeLimit: "imports" },
);

type CompareBody = {
  from: number;
  to: number;
  more: boolean;
  pagination: { next: string | null; previous: string | null };
};

function pageOf<T>(items: T[], offset: number, perPage: number) {
  return { items: items.slice(offset, offset + perPage), more: items.length > offset + perPage };
}

async function answerCompare(
  c: Context<AppEnv>,
  params: { video_id: string; language: string; number: string; other: string },
  q: { page?: number; per_page?: number },
) {
  const t = trackOf(params);
  const n = versionNumber(params.number);
  const m = versionNumber(params.other, "other");
  const { comparison } = await compareVersions(depsOf(c), c.get("user"), t, n, m);
  const p = paging(q);
  const parts = {
    added: pageOf(comparison.added, p.offset, p.perPage),
    removed: pageOf(comparison.removed, p.offset, p.perPage),
    retimed: pageOf(comparison.retimed, p.offset, p.perPage),
    changed: pageOf(comparison.changed, p.offset, p.perPage),
  };
  const more = Object.values(parts).some((x) => x.more);
  const body: CompareBody = {
    from: n,
    to: m,
    more,
    pagination: {
      next: more && p.page < lastServedPage(p.perPage) ? pageUrl(c.req.url, p.page + 1) : null,
      previous: p.page > 1 ? pageUrl(c.req.url, p.page - 1) : null,
    },
  };
  return {
    ...body,
    counts: {
      added: comparison.added.length,
      removed: comparison.removed.length,
      retimed: comparison.retimed.length,
      changed: comparison.changed.length,
      unchanged: comparison.unchanged,
    },
    added: parts.added.items,
    removed: parts.removed.items,
    retimed: parts.retimed.items,
    changed: parts.changed.items,
  };
}

/** Under `/v4/videos`. */
export const subtitleVersionsRouter = routeGroup({ tag: "subtitle_versions" })
  .openapi(list, async (c) => {
    const t = trackOf(c.req.valid("param"));
    const p = paging(c.req.valid("query"));
    const { rows, count } = await versionPage(depsOf(c), c.get("user"), t, p);
    const origin = new URL(c.req.url).origin;
    const body = await listEnvelope(
      c.req.url,
      p,
      rows,
      (v) => versionView(v, origin),
      (v) => String(v.number),
      async () => count,
    );
    return c.json(body, 200);
  })
  .openapi(file, async (c) => {
    const params = c.req.valid("param");
    const t = trackOf(params);
    const { name, ext } = requestedFile(c, params.file, TRACK_EXTENSIONS, "<number>");
    const number = versionNumber(name, "file");
    const found = await versionFile(depsOf(c), c.get("user"), t, number, ext, timingChange(c.req.valid("query")));
    return answerTrackFile(c, found, `${formatId(t.videoId, "v")}.${t.language}.v${number}.${ext}`);
  })
  .openapi(compare, async (c) => c.json(await answerCompare(c, c.req.valid("param"), c.req.valid("query")), 200))
  .openapi(restore, async (c) => {
    const params = c.req.valid("param");
    const t = trackOf(params);
    const deps = depsOf(c);
    const outcome = await startRestore(
      deps,
      { user: c.get("user")!, applicationId: signingApplicationId(c) ?? null },
      t,
      versionNumber(params.number),
    );
    const origin = new URL(c.req.url).origin;
    if (outcome.job) return c.json({ job: jobView(outcome.job, origin) }, 202);
    const body = { version: versionView(outcome.version, origin), changed: outcome.created };
    return outcome.created ? c.json(body, 201) : c.json(body, 200);
  });
