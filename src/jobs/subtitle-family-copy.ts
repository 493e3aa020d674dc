import { z } from "zod";
import { emptyStats, instrument } from "../db/client";
import { mergeJobParams } from "../db/queries/jobs";
import { containerFactsStatement, videoFactsRowsStatements } from "../db/queries/shard-facts";
import { clearDerived, deleteRows, insertRows } from "../db/queries/shard-rows";
import { findContainer } from "../db/queries/catalogue";
import { findPlacement, markSubtitlesCopied } from "../db/queries/shards";
import { catalogueFamilyCounts, containerVideoFacts, derivedCounts, familyRowsAfter } from "../db/queries/subtitle-family-copy";
import { runBatch } from "../db/raw-batch";
import { SUBTITLE_FAMILY_TABLES, type SubtitleFamilyTable } from "../db/shard-schema";
import { createShardDb, shardBinding } from "../db/shards";
import { containerRowCounts } from "../db/queries/shard-rows";
import { formatId } from "../lib/ids";
import { ContinuationParams, costSoFar } from "./continuation";
import { ContinueJob, defineJob, LostClaim, PermanentJobError } from "./define";

export const SubtitleFamilyCopyParams = z.object({
  containerId: z.number().int().positive(),
  /** Where the copy stands, written at each checkpoint: the video (its index in id order), the table, the last rowid. */
  cursor: z.object({ video: z.number().int().min(0), table: z.number().int().min(0), after: z.number().int().min(0) }).optional(),
  ...ContinuationParams,
});

/** Rows one copy statement reads from the catalogue (and one statement writes to the shard). */
export const COPY_CHUNK_ROWS = 500;

/**
 * `subtitle-family-copy`: copies a container's subtitle family from the catalogue to the shard the directory names
 * (docs/decisions.md, "Shards: the subtitle family"), the first step of moving the family out of the catalogue.
 * 1. The shard's copy of the container's family (left by an earlier run) goes, then its facts are written where the
 *    shard has none (a sync's newer facts stay).
 * 2. Each table is copied a video at a time in rowid order, a chunk per statement; the rows keep their catalogue ids.
 *    The shard's triggers flag translations and count as the rows arrive.
 * 3. The copy is checked: the same rows per table, and the counts the shard's triggers derived equal to the ones the
 *    catalogue's triggers keep. A difference fails the job with both sides named (a write during the copy: run it
 *    again; anything else is a fault of the triggers).
 * 4. The directory marks the container's subtitles as on the shard: its routes, which answered 503 until then, use the
 *    shard. The catalogue's rows stay (untouched, read by nothing) until the migration that drops those tables.
 * Idempotent: a run starts from a cleared copy, or from its last checkpoint when the copy took more statements than
 * one delivery may make (rows a crash wrote past the checkpoint are skipped). A container already marked is left as
 * it is: its shard holds the rows written since, which a copy would clear.
 * Result `{container_id, shard, rows: {table: n}, statements, d1_rows_read, d1_rows_written, ms}` (the shard's cost).
 */
export const subtitleFamilyCopy = defineJob({
  type: "subtitle-family-copy",
  params: SubtitleFamilyCopyParams,
  payload: null,
  async handler({ db, env, job, params, progress, renew }) {
    const started = Date.now();
    const { containerId } = params;
    const [container, placement] = await Promise.all([findContainer(db, containerId), findPlacement(db, containerId)]);
    if (!container || !placement) throw new PermanentJobError(`no container ${formatId(containerId, "c")}`);
    // A move copies the shard's rows as they are; this copy waits until the container has one home (a retry).
    if (placement.movingTo !== null) throw new Error(`container ${formatId(containerId, "c")} is moving; retry after the move`);
    // Its shard is where its subtitles are written now: clearing the shard's rows for a copy would lose them.
    if (placement.subtitlesCopied) return { container_id: formatId(containerId, "c"), shard: placement.shard, already_copied: true };
    const d1 = emptyStats();
    const shard = createShardDb(instrument(shardBinding(env, placement.shard), d1));
    let catalogueReads = 0;
    const rows = { ...Object.fromEntries(SUBTITLE_FAMILY_TABLES.map((t) => [t, 0])), ...params.copied } as Record<
      SubtitleFamilyTable,
      number
    >;
    const cost = costSoFar(params.cost, d1, started);
    let cursor = params.cursor;
    const checkpoint = () => {
      if (d1.queries + catalogueReads >= params.statementsPerDelivery) {
        throw new ContinueJob({ cursor: cursor ?? null, copied: rows, cost: cost() });
      }
    };

    const videos = await containerVideoFacts(db, containerId);
    if (!cursor) {
      for (const table of [...SUBTITLE_FAMILY_TABLES].reverse()) {
        // The lease renewed before each chunk (docs/decisions.md, "Exclusive claims"): a delivery that lost its job
        // stops before it clears what the delivery holding it now has copied.
        do {
          checkpoint();
          await renew();
        } while ((await deleteRows(shard, table, containerId, null, COPY_CHUNK_ROWS)) === COPY_CHUNK_ROWS);
      }
      await clearDerived(shard, containerId);
      const facts = { containerId, state: container.state, originLanguage: container.originLanguage, changeId: 0 };
      await runBatch(shard, [containerFactsStatement(facts), ...videoFactsRowsStatements(containerId, videos)]);
      cursor = { video: 0, table: 0, after: 0 };
    }

    for (let i = cursor.video; i < videos.length; i++) {
      const first: boolean = i === cursor.video;
      for (let t: number = first ? cursor.table : 0; t < SUBTITLE_FAMILY_TABLES.length; t++) {
        const table = SUBTITLE_FAMILY_TABLES[t];
        for (let after: number = first && t === cursor.table ? cursor.after : 0; ;) {
          cursor = { video: i, table: t, after };
          checkpoint();
          await renew();
          catalogueReads++;
          const chunk = await familyRowsAfter(db, table, videos[i].video_id, after, COPY_CHUNK_ROWS);
          await insertRows(shard, table, chunk);
          rows[table] += chunk.length;
          if (chunk.length < COPY_CHUNK_ROWS) break;
          after = chunk[chunk.length - 1]._rowid;
        }
      }
      if (i % 20 === 19) await progress(Math.round((90 * (i + 1)) / videos.length));
    }

    const [catalogue, copied, derived] = await Promise.all([
      catalogueFamilyCounts(db, containerId),
      containerRowCounts(shard, containerId),
      derivedCounts(shard, containerId),
    ]);
    const differences = [
      ...SUBTITLE_FAMILY_TABLES.filter((t) => catalogue.rows[t] !== copied[t]).map((t) => `${t}: ${copied[t]} of ${catalogue.rows[t]}`),
      ...(["contributions", "languages"] as const)
        .filter((k) => catalogue.derived[k] !== derived[k])
        .map((k) => `${k}: "${derived[k]}" on the shard, "${catalogue.derived[k]}" in the catalogue`),
    ];
    if (differences.length) {
      // The next attempt copies again from the start.
      if (!(await mergeJobParams(db, job, { cursor: null, copied: null, cost: null }))) throw new LostClaim(job.id);
      throw new Error(`copy differs: ${differences.join("; ")}`);
    }
    // From here the container's subtitle routes use its shard (docs/decisions.md, "Subtitles on the shards").
    // Only while this delivery holds the job, in the mark's own statement (docs/decisions.md, "Exclusive claims"): a
    // delivery that lost it must not mark a copy the one holding it now may be clearing. Not marked and still held:
    // the container's directory row is gone (deleted meanwhile).
    if (!(await markSubtitlesCopied(db, containerId, job))) await progress(100);
    const total = cost();
    return {
      container_id: formatId(containerId, "c"),
      shard: placement.shard,
      rows,
      statements: total.statements,
      d1_rows_read: total.rowsRead,
      d1_rows_written: total.rowsWritten,
      ms: total.ms,
    };
  },
});
