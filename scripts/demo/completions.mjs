// The demo's subtitle_completions, computed by the completion job's own statements (src/db/queries/completions.ts,
// grouped by src/services/completions.ts `completionWork`), not by a copy of their rule: the segments and subtitles
// are on the shards and the percentages in the catalogue (docs/decisions.md, "Subtitles on the shards"), so seedLocal
// (scripts/lib.mjs) reads the scope in the catalogue, runs each shard's aggregate statements right after that shard's
// rows are written, and applies the job's write statements to the catalogue. `app` is loadAppCode()'s bundle; its
// sqlText renders each statement for `wrangler d1 execute`, which takes no parameters.

/** The demo's videos and containers whose completions the seed computes: those with rows on the shards. */
function scope(shardRows) {
  return { videoIds: shardRows.videoFacts.map((v) => v.video_id), containerIds: shardRows.containerFacts.map((c) => c.container_id) };
}

/**
 * Three catalogue reads: the job's scope queries (each video's placement; each container's placement and normal
 * videos, as the catalogue has them) and the completions the catalogue holds for them now.
 */
export function completionScopeSql(app, shardRows) {
  const { videoIds, containerIds } = scope(shardRows);
  return [
    app.sqlText(app.videoPlacementsQuery(app.catalogueQueries, videoIds)),
    app.sqlText(app.containerScopeQuery(app.catalogueQueries, containerIds)),
    `SELECT resource_kind, resource_id, language, percent FROM subtitle_completions
      WHERE (resource_kind = 'v' AND resource_id IN (SELECT value FROM json_each('${JSON.stringify(videoIds)}')))
      OR (resource_kind = 'c' AND resource_id IN (SELECT value FROM json_each('${JSON.stringify(containerIds)}')))`,
  ];
}

/**
 * From the scope reads' rows: per shard its two aggregate statements (`[videos, containers]`, in that order), and
 * `done`, the videos and containers they cover.
 */
export function completionReads(app, placedVideos, placedContainers) {
  const { work, done } = app.completionWork(placedVideos, placedContainers);
  const statements = new Map(
    work.map((w) => [
      w.placement.shard,
      [app.sqlText(app.videoPercentsSql(w.videoIds)), app.sqlText(app.containerPercentsSql(w.containerVideos))],
    ]),
  );
  return { statements, done };
}

const key = (kind, r) => `${kind}:${r.id}:${r.language}`;

/**
 * The job's catalogue statements for the percentages the shards gave (`[[videoRows, containerRows]]`, one pair per
 * shard), and how many rows they change against `current` (the scope's rows now). A re-seed changes none, and gets
 * no statements: the job's would write nothing, and skipping them saves a wrangler run.
 */
export function completionWrites(app, done, shardPercents, current) {
  const videos = shardPercents.flatMap(([v]) => v);
  const containers = shardPercents.flatMap(([, c]) => c);
  const covered = new Set([...done.videos.map((id) => `v:${id}`), ...done.containers.map((id) => `c:${id}`)]);
  const now = new Map(
    current
      .filter((r) => covered.has(`${r.resource_kind}:${r.resource_id}`))
      .map((r) => [key(r.resource_kind, { id: r.resource_id, language: r.language }), r.percent]),
  );
  const computed = new Map([...videos.map((r) => [key("v", r), r.percent]), ...containers.map((r) => [key("c", r), r.percent])]);
  const changed =
    [...computed].filter(([k, percent]) => now.get(k) !== percent).length + [...now.keys()].filter((k) => !computed.has(k)).length;
  if (!changed) return { statements: [], changed };
  const statements = [
    ...app.completionWriteStatements("v", done.videos, videos),
    ...app.completionWriteStatements("c", done.containers, containers),
  ].map(app.sqlText);
  return { statements, changed };
}
