// `npm run admin -- search index-titles`: the index form of every title written before migration 0041 (or by SQL
// that did not set it), so v4 search finds words inside their Chinese, Japanese and Korean titles (docs/operations.md,
// "Title search index form"). The walk is scripts/title-index-forms.mjs, shared with the seeds.
import { fillTitleIndexForms } from "../title-index-forms.mjs";
import { loadAppCode } from "./app-code.mjs";
import { NotFound } from "./commands.mjs";
import { UsageError, execute, sqlInt, sqlString } from "./d1.mjs";

/** Walks every title of `target`'s catalogue, a page per `wrangler d1 execute`; answers the titles read and written. */
export async function searchIndexTitles(target) {
  const { indexForm } = await loadAppCode();
  const run = (sql) => execute(target, sql)[0];
  const progress = ({ read, written }) => console.error(`  ${read} titles read, ${written} index forms written`);
  return fillTitleIndexForms(run, indexForm, progress);
}

export function printIndexed({ read, written }) {
  console.log(`${read} titles read; ${written} index forms written (each re-indexed its container or video)`);
}

/** The note an index job queued here carries until the sweeper sends it (`d1 execute` cannot send a queue message). */
const INDEX_NOTE = "queued by an operator (npm run admin -- search index-subtitles); the next sweep sends it";

/**
 * `search index-subtitles [<container>]`: queues a `subtitle-search-index` job (src/jobs/subtitle-search-index.ts) on
 * every shard of the catalogue's `shards` table, or on the container's shard: each builds the subtitle search index of
 * its lines again (docs/operations.md, "Subtitle search index"). The job rows are due at once, so the sweeper sends
 * them within a minute.
 */
export const searchIndexSubtitles = (target, args) => queueShardJobs(target, args, "subtitle-search-index", INDEX_NOTE);

/** The note a checks job queued here carries until the sweeper sends it. */
const CHECKS_NOTE = "queued by an operator (npm run admin -- subtitles check); the next sweep sends it";

/**
 * `subtitles check [<container>] [--all]`: queues a `subtitle-checks` job (src/jobs/subtitle-checks.ts) on every shard,
 * or on the container's shard: each stores the quality checks of the cues written before they existed, or with
 * `--all` checks every track again (as a glossary write does for its series: docs/operations.md, "Quality checks of
 * existing subtitles").
 */
export const subtitlesCheck = (target, args, { all = false } = {}) =>
  queueShardJobs(target, args, "subtitle-checks", CHECKS_NOTE, all ? { all: true } : {});

/** One job of `type` a shard (or on the container's shard, for its rows only), due at once, `extra` in its params. */
async function queueShardJobs(target, [rawContainer], type, note, extra = {}) {
  let containerId;
  if (rawContainer !== undefined) {
    const { tryParseId } = await loadAppCode();
    containerId = tryParseId(/^\d+$/.test(rawContainer) ? `${rawContainer}c` : rawContainer, "c");
    if (containerId === null) throw new UsageError(`container id: expected <n>c or <n>, got ${JSON.stringify(rawContainer)}`);
  }
  const [shards] = execute(
    target,
    containerId === undefined
      ? "SELECT id AS shard FROM shards ORDER BY id"
      : `SELECT shard FROM shard_directory WHERE container_id = ${sqlInt(containerId)}`,
  );
  if (!shards.length) throw new NotFound(containerId === undefined ? "no shard in the catalogue" : `no container ${containerId}c`);
  const values = shards
    .map(({ shard }) => JSON.stringify({ shard, ...(containerId === undefined ? {} : { containerId }), ...extra }))
    .map((params) => `(${sqlString(type)}, ${sqlString(params)}, ${sqlString(note)}, unixepoch())`);
  const [jobs] = execute(target, `INSERT INTO jobs (type, params, error, lease_until) VALUES ${values.join(", ")} RETURNING id, params`);
  return { type, jobs: jobs.map((j) => ({ id: `${j.id}j`, params: JSON.parse(j.params) })) };
}

export function printIndexJobs({ type, jobs }) {
  for (const j of jobs) {
    const scope = j.params.containerId ? `container ${j.params.containerId}c on shard ${j.params.shard}` : `shard ${j.params.shard}`;
    console.log(`job ${j.id} (${type}, ${scope}) queued`);
  }
  console.log("the sweeper sends them within a minute; follow each with: npm run admin -- jobs show <id>");
}
