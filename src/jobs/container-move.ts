import { z } from "zod";
import { mergeJobParams } from "../db/queries/jobs";
import { endDrain, findPlacement, isDrainingFrom, startMove, switchMove } from "../db/queries/shards";
import { clearDerived, containerRowCounts, containerRowsAfter, DELETE_ORDER, deleteRows, insertRows } from "../db/queries/shard-rows";
import { SHARD_TABLES, type ShardTable } from "../db/shard-schema";
import { emptyStats, instrument } from "../db/client";
import { createShardDb, shardBinding, type ShardDB } from "../db/shards";
import { formatId } from "../lib/ids";
import { syncShardFacts } from "../services/shard-facts";
import { ContinuationParams, costSoFar } from "./continuation";
import { ContinueJob, defineJob, LostClaim, PermanentJobError } from "./define";

export const ContainerMoveParams = z.object({
  containerId: z.number().int().positive(),
  /** The shard the container was on when the move was asked for: its rows there go once the directory has switched. */
  from: z.number().int().positive(),
  to: z.number().int().positive(),
  /** How long writes already past the directory check get to land before the copy starts (docs/decisions.md, "Shards"). */
  graceMs: z.number().int().min(0).max(60_000).default(2000),
  /** Where the copy stands, written at each checkpoint: the table (index in SHARD_TABLES) and the last rowid copied. */
  cursor: z.object({ table: z.number().int().min(0), after: z.number().int().min(0) }).optional(),
  ...ContinuationParams,
});

/** Rows one copy statement reads from the source (and one batch writes to the target). */
export const MOVE_CHUNK_ROWS = 500;

/**
 * `container-move`: moves a container's shard rows from shard `from` to shard `to` (docs/decisions.md, "Shards").
 * 1. The directory marks the move (`moving_to`): reads stay on `from`, writes answer 503 with Retry-After.
 * 2. After `graceMs` (writes that read the directory before the mark land meanwhile), the target's rows of the
 *    container (left by a run that crashed) go, then every table is copied in rowid order, a chunk at a time, a row
 *    after the rows it refers to. The counts the shard's triggers keep are not copied: the target's triggers build
 *    them as the rows arrive.
 * 3. The copy is checked (the same row count per table on both), then the directory switches to `to` (conditional
 *    on the mark, so it happens once) and writes resume there.
 * 4. The rows on `from` are deleted, a chunk at a time; only once the directory names another shard (a container
 *    deleted before or during the move: from both shards, whatever its cleanup left or a copy wrote after it).
 * Re-run after a crash at any point, it resumes: before the switch it copies again, after it only deletes.
 * Result `{container_id, from, to, rows: {table: n}, statements, d1_rows_read, d1_rows_written, ms}` (the shards' cost).
 */
/**
 * Every row of a container on a shard, a chunk per statement, what refers to a row first; then its zeroed counts.
 * The lease is renewed before each chunk (docs/decisions.md, "Exclusive claims"): a delivery that lost its job to
 * another stops before its next chunk rather than delete what the other has copied, or made live.
 */
async function deleteAll(db: ShardDB, containerId: number, checkpoint: () => void, renew: () => Promise<void>) {
  for (const table of DELETE_ORDER) {
    do {
      checkpoint();
      await renew();
    } while ((await deleteRows(db, table, containerId, null, MOVE_CHUNK_ROWS)) === MOVE_CHUNK_ROWS);
  }
  await clearDerived(db, containerId);
}

export const containerMove = defineJob({
  type: "container-move",
  params: ContainerMoveParams,
  payload: null,
  async handler({ db, env, job, params, progress, renew }) {
    const started = Date.now();
    const { containerId, from, to } = params;
    // What the move cost on the shards, as D1 counts it (the job's result).
    const d1 = emptyStats();
    const open = (shard: number) => {
      try {
        return createShardDb(instrument(shardBinding(env, shard), d1));
      } catch (err) {
        throw new PermanentJobError(err instanceof Error ? err.message : String(err));
      }
    };
    if (from === to) throw new PermanentJobError("from and to are the same shard");
    const [source, target] = [open(from), open(to)];
    const rows = { ...Object.fromEntries(SHARD_TABLES.map((t) => [t, 0])), ...params.copied } as Record<ShardTable, number>;
    const cost = costSoFar(params.cost, d1, started);
    // A delivery that has used its statements stops here; the next one resumes from `cursor` (or, once the directory
    // has switched, deletes what is left on the source, which needs no cursor).
    let cursor = params.cursor;
    const checkpoint = () => {
      if (d1.queries >= params.statementsPerDelivery) throw new ContinueJob({ cursor: cursor ?? null, copied: rows, cost: cost() });
    };

    let placement = await findPlacement(db, containerId);
    // Not yet switched (a container already on `to`, or gone, only has its leftovers deleted below).
    const toCopy = placement && !(placement.shard === to && placement.movingTo === null);
    if (placement && toCopy) {
      if (placement.shard !== from)
        throw new PermanentJobError(`container ${formatId(containerId, "c")} is on shard ${placement.shard}, not ${from}`);
      if (placement.movingTo !== to) {
        if (!(await startMove(db, containerId, to, Math.floor(Date.now() / 1000)))) {
          if (await isDrainingFrom(db, containerId, to))
            throw new PermanentJobError(
              `container ${formatId(containerId, "c")} is still being deleted from shard ${to} (an earlier move away from it): move it again once that cleanup is worked off (shards list: cleanups)`,
            );
          throw new PermanentJobError(`container ${formatId(containerId, "c")} is moving to shard ${placement.movingTo}`);
        }
        if (params.graceMs) await scheduler.wait(params.graceMs);
      }
      // Rows of this container already on the target are not live (the directory names the source): a partial copy
      // of a run that crashed, or of a move abandoned earlier. They go first, so the copy is exactly the source's. A
      // continuation has cleared them already and resumes at its cursor (what a crash after it wrote is skipped).
      if (!cursor) {
        await deleteAll(target, containerId, checkpoint, renew);
        cursor = { table: 0, after: 0 };
      }
      for (let stage = cursor.table; stage < SHARD_TABLES.length; stage++) {
        const table = SHARD_TABLES[stage];
        for (let after: number = stage === cursor.table ? cursor.after : 0; ;) {
          cursor = { table: stage, after };
          checkpoint();
          await renew();
          const chunk = await containerRowsAfter(source, table, containerId, after, MOVE_CHUNK_ROWS);
          await insertRows(target, table, chunk);
          rows[table] += chunk.length;
          if (chunk.length < MOVE_CHUNK_ROWS) break;
          after = chunk[chunk.length - 1]._rowid;
          if ((rows[table] / MOVE_CHUNK_ROWS) % 20 === 0) await progress(Math.round((80 * stage) / SHARD_TABLES.length));
        }
      }
      const [there, here] = await Promise.all([containerRowCounts(source, containerId), containerRowCounts(target, containerId)]);
      const short = SHARD_TABLES.filter((t) => there[t] !== here[t]);
      // A difference means rows changed under the copy: the retry copies again from the start.
      if (short.length) {
        if (!(await mergeJobParams(db, job, { cursor: null, copied: null }))) throw new LostClaim(job.id);
        throw new Error(`copy incomplete: ${short.map((t) => `${t} ${here[t]} of ${there[t]}`).join(", ")}`);
      }
      // Only while this delivery holds the job, in the switch's own statement: a delivery that lost it to another
      // (its lease ran out) must not make its copy live over the other's (docs/decisions.md, "Exclusive claims").
      // The progress after it checks the claim: nothing switched and the job still held means the mark is gone (the
      // container deleted meanwhile), and the deletes below go by the directory as ever.
      await switchMove(db, containerId, to, job);
      // The switch re-sent the container's facts (src/db/triggers/shards.sql); carried now, the new shard has the
      // catalogue's at once rather than at the next sync (a large container's rest goes with the sweeper's).
      await syncShardFacts({ db, env });
      await progress(80);
    }
    placement = await findPlacement(db, containerId);
    // Never from the shard the directory names. A container deleted during the move has no placement: its cleanup
    // (both shards) may have run before this copy wrote, so whatever is left of it goes from both.
    if (!placement || placement.shard !== from) {
      await deleteAll(source, containerId, checkpoint, renew);
      // The switch's cleanup of the source (src/db/triggers/shards.sql) is done: lists count the container there no
      // longer, and a move back may start. A deleted container's cleanups are its delete's to end.
      if (placement) await endDrain(db, containerId, from);
    }
    if (!placement) await deleteAll(target, containerId, checkpoint, renew);
    const total = cost();
    return {
      container_id: formatId(containerId, "c"),
      from,
      to,
      rows,
      statements: total.statements,
      d1_rows_read: total.rowsRead,
      d1_rows_written: total.rowsWritten,
      ms: total.ms,
    };
  },
});
