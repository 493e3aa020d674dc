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
export async function searchIndexSubtitles(target, [rawContainer]) {
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
    .map(({ shard }) => JSON.stringify({ shard, ...(containerId === undefined ? {} : { containerId }) }))
    .map((params) => `('subtitle-search-index', ${sqlString(params)}, ${sqlString(INDEX_NOTE)}, unixepoch())`);
  const [jobs] = execute(target, `INSERT INTO jobs (type, params, error, lease_until) VALUES ${values.join(", ")} RETURNING id, params`);
  return { jobs: jobs.map((j) => ({ id: `${j.id}j`, params: JSON.parse(j.params) })) };
}

export function printIndexJobs({ jobs }) {
  for (const j of jobs) {
    const scope = j.params.containerId ? `container ${j.params.containerId}c on shard ${j.params.shard}` : `shard ${j.params.shard}`;
    console.log(`job ${j.id} (subtitle-search-index, ${scope}) queued`);
  }
  console.log("the sweeper sends them within a minute; follow each with: npm run admin -- jobs show <id>");
}
