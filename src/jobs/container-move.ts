import { z } from "zod";
import { mergeJobParams } from "../db/queries/jobs";
import { endDrain, findPlacement, isDrainingFrom, startMove, switchMove } from "../db/queries/shards";
import { clearDerived, containerRowsAfter, DELETE_ORDER, deleteRows, insertRows } from "../db/queries/shard-rows";
import { endMove, lastChange, loggedSince, setMoveState, startMoveLog } from "../db/queries/shard-moves";
import { MOVED_TABLES, SHARD_TABLES, type ShardTable } from "../db/shard-schema";
import { emptyStats, instrument } from "../db/client";
import type { ShardDB } from "../db/shards";
import { formatId } from "../lib/ids";
import { checkChangedSince, checkChunk, countsDiffer, REPLAY_WINDOW, replayWindow } from "../services/move-steps";
import { syncShardFacts } from "../services/shard-facts";
import { ContinuationParams, costSoFar } from "./continuation";
import { ContinueJob, defineJob, LostClaim, PermanentJobError } from "./define";
import { jobShard } from "./shard-walk";

const ContainerMoveParams = z.object({
  containerId: z.number().int().positive(),
  /** The shard the container was on when the move was asked for: its rows there go once the directory has switched. */
  from: z.number().int().positive(),
  to: z.number().int().positive(),
  /** Where the copy stands, written at each checkpoint: the table (index in SHARD_TABLES) and the last rowid copied. */
  cursor: z.object({ table: z.number().int().min(0), after: z.number().int().min(0) }).optional(),
  /** The position in the source's change log replayed on the target so far. */
  replayed: z.number().int().min(0).optional(),
  /** The content check's pass: the log position when it began, and its cursor (table in MOVED_TABLES, last rowid). */
  check: z.object({ since: z.number().int().min(0), table: z.number().int().min(0), after: z.number().int().min(0) }).optional(),
  /** The table (index in the delete order) the drain of the source is on. */
  drained: z.number().int().min(0).optional(),
  /** What the move has done so far, for its result: changes replayed, rows compared, how long writes were refused. */
  tally: z
    .object({ replayed: z.number().int(), compared: z.number().int(), fencedMs: z.number().int().nullable().default(null) })
    .optional(),
  ...ContinuationParams,
});

/** Rows one copy statement reads from the source (and one batch writes to the target). */
export const MOVE_CHUNK_ROWS = 500;

/**
 * Statements kept for the fenced part of a move (its replay of the tail, its checks, the switch; at most half a
 * delivery's): a delivery with fewer left continues first, so the fence never spans two deliveries.
 */
const FENCE_RESERVE_STATEMENTS = 120;

/**
 * `container-move`: moves a container's shard rows from shard `from` to shard `to` while it keeps taking writes
 * (docs/decisions.md, "Online moves").
 * 1. The directory marks the move (`moving_to`); reads and writes stay on `from`, whose triggers log every change of
 *    the container's rows from now on (`move_fences` row, state `logging`).
 * 2. The target's rows of the container (left by a run that crashed, or an abandoned move) go, then every table is
 *    copied in rowid order, a chunk at a time. The counts the shard's triggers keep are not copied: the target's
 *    triggers build them as the rows arrive.
 * 3. The log is replayed on the target (each row named read back as it is now), then the copy is checked row by row
 *    against the source, a difference allowed only for a row the log names since the check began; the log is
 *    replayed again.
 * 4. The fence: from now writes of the container on `from` are refused (503), whoever read the placement when. The
 *    tail of the log is replayed, the counts compared and every row changed since the check compared again; then
 *    the directory switches to `to` (conditional on the mark and the claim) and writes resume there. A difference
 *    lowers the fence and copies again.
 * 5. The rows on `from` are deleted, a chunk at a time (the fence lets these deletes pass), then the fence and its
 *    log. Only once the directory names another shard (a container deleted during the move: from both shards).
 * Re-run after a crash at any point, it resumes where its params say.
 * Result `{container_id, from, to, rows: {table: n}, replayed, compared, fenced_ms, statements, d1_rows_read,
 * d1_rows_written, ms}` (the shards' cost; `fenced_ms` is the time writes were refused, of the delivery that switched).
 */
/**
 * Every row of a container on a shard, a chunk per statement, what refers to a row first; then its zeroed counts.
 * The lease is renewed before each chunk (docs/decisions.md, "Exclusive claims"): a delivery that lost its job to
 * another stops before its next chunk rather than delete what the other has copied, or made live.
 */
async function deleteAll(
  db: ShardDB,
  containerId: number,
  checkpoint: () => void,
  renew: () => Promise<void>,
  { passFence = true, position = { table: 0 } }: { passFence?: boolean; position?: { table: number } } = {},
) {
  for (; position.table < DELETE_ORDER.length; position.table++) {
    do {
      checkpoint();
      await renew();
    } while ((await deleteRows(db, DELETE_ORDER[position.table], containerId, null, MOVE_CHUNK_ROWS, passFence)) === MOVE_CHUNK_ROWS);
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
    const open = (shard: number) => jobShard(env, shard, (binding) => instrument(binding, d1));
    if (from === to) throw new PermanentJobError("from and to are the same shard");
    const [source, target] = [open(from), open(to)];
    const rows = { ...Object.fromEntries(SHARD_TABLES.map((t) => [t, 0])), ...params.copied } as Record<ShardTable, number>;
    const tally = params.tally ?? { replayed: 0, compared: 0, fencedMs: null };
    const cost = costSoFar(params.cost, d1, started);
    // A delivery that has used its statements stops here; the next one resumes from the positions below (or, once the
    // directory has switched, deletes what is left on the source, which needs none).
    let cursor = params.cursor;
    let replayed = params.replayed ?? 0;
    let check = params.check;
    // The source's drain resumes at the table it was on (each delete there is three statements: the fence's pass).
    const drain = { table: params.drained ?? 0 };
    const state = () => ({
      cursor: cursor ?? null,
      replayed,
      check: check ?? null,
      drained: drain.table,
      copied: rows,
      tally,
      cost: cost(),
    });
    const checkpoint = () => {
      if (d1.queries >= params.statementsPerDelivery) throw new ContinueJob(state());
    };
    /** Replays the log on the target until a window comes back short: the backlog is worked off, as of now. */
    const catchUp = async (withCheckpoints: boolean) => {
      for (;;) {
        if (withCheckpoints) checkpoint();
        await renew();
        const step = await replayWindow(source, target, containerId, replayed);
        replayed = step.position;
        tally.replayed += step.changes;
        if (step.changes < REPLAY_WINDOW) return;
      }
    };
    /** Starts over: the target's copy is not the source's, so it is cleared and copied again by the retry. */
    const copyAgain = async (reason: string) => {
      if (!(await mergeJobParams(db, job, { cursor: null, replayed: null, check: null, copied: null }))) throw new LostClaim(job.id);
      throw new Error(`copy differs from the source (${reason}): copying again`);
    };

    let placement = await findPlacement(db, containerId);
    // Not yet switched (a container already on `to`, or gone, only has its leftovers deleted below).
    const toCopy = placement && !(placement.shard === to && placement.movingTo === null);
    if (placement && toCopy) {
      if (placement.shard !== from)
        throw new PermanentJobError(`container ${formatId(containerId, "c")} is on shard ${placement.shard}, not ${from}`);
      if (placement.movingTo !== to && !(await startMove(db, containerId, to, Math.floor(Date.now() / 1000)))) {
        if (await isDrainingFrom(db, containerId, to))
          throw new PermanentJobError(
            `container ${formatId(containerId, "c")} is still being deleted from shard ${to} (an earlier move away from it): move it again once that cleanup is worked off (shards list: cleanups)`,
          );
        throw new PermanentJobError(`container ${formatId(containerId, "c")} is moving to shard ${placement.movingTo}`);
      }
      // The log starts before the first row is read: every change from now on is either in the copy or in the log.
      // Before the switch a fence stands only within a delivery, so one found standing was left by a delivery that
      // died under it: it goes down, and writes flow while this one catches up.
      await startMoveLog(source, containerId);
      await setMoveState(source, containerId, "logging");
      // Rows of this container already on the target are not live (the directory names the source): a partial copy
      // of a run that crashed, or of a move abandoned earlier. They go first, so the copy is exactly the source's. A
      // continuation has cleared them already and resumes at its cursor (what a crash after it wrote is skipped).
      if (!cursor) {
        await deleteAll(target, containerId, checkpoint, renew, { passFence: false });
        cursor = { table: 0, after: 0 };
        replayed = 0;
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
          if ((rows[table] / MOVE_CHUNK_ROWS) % 20 === 0) await progress(Math.round((60 * stage) / SHARD_TABLES.length));
        }
      }
      cursor = { table: SHARD_TABLES.length, after: 0 };
      await catchUp(true);
      await progress(60);
      // The check by content, while writes flow: a row that differs must be one the log names since the check began
      // (it changed meanwhile, and is compared again under the fence); any other is a fault of the copy.
      check ??= { since: await lastChange(source, containerId), table: 0, after: 0 };
      for (let stage = check.table; stage < MOVED_TABLES.length; stage++) {
        const table = MOVED_TABLES[stage];
        for (let after: number | null = stage === check.table ? check.after : 0; after !== null;) {
          check = { ...check, table: stage, after };
          checkpoint();
          await renew();
          const step = await checkChunk(source, target, table, containerId, after);
          tally.compared += step.compared;
          if (step.differ.length) {
            const logged = new Set(await loggedSince(source, containerId, check.since, table, step.differ));
            const unexplained = step.differ.filter((k) => !logged.has(k));
            if (unexplained.length) await copyAgain(`${table} ${unexplained.slice(0, 5).join(", ")}`);
          }
          after = step.next;
        }
      }
      check = { ...check, table: MOVED_TABLES.length, after: 0 };
      await catchUp(true);
      await progress(70);
      // The fenced part runs within one delivery: one without the statements for it continues first.
      const reserve = Math.min(FENCE_RESERVE_STATEMENTS, params.statementsPerDelivery / 2);
      if (d1.queries + reserve > params.statementsPerDelivery) throw new ContinueJob(state());
      const fencedAt = Date.now();
      await setMoveState(source, containerId, "fenced");
      let switched = false;
      try {
        await catchUp(false);
        const short = await countsDiffer(source, target, containerId);
        if (short.length) await copyAgain(short.join(", "));
        const changed = await checkChangedSince(source, target, containerId, check.since);
        tally.compared += changed.compared;
        if (changed.differ.length) await copyAgain(changed.differ.slice(0, 5).join(", "));
        // Only while this delivery holds the job, in the switch's own statement: a delivery that lost it to another
        // (its lease ran out) must not make its copy live over the other's (docs/decisions.md, "Exclusive claims").
        // The progress after it checks the claim: nothing switched and the job still held means the mark is gone
        // (the container deleted meanwhile), and the deletes below go by the directory as ever.
        switched = !!(await switchMove(db, containerId, to, job));
      } finally {
        // A refused check, a lost claim or a crash of the statement: writes flow on the source again, and the move
        // fences again when it resumes.
        if (!switched) await setMoveState(source, containerId, "logging");
      }
      tally.fencedMs = Date.now() - fencedAt;
      // The switch re-sent the container's facts (src/db/triggers/shards.sql); carried now, the new shard has the
      // catalogue's at once rather than at the next sync (a large container's rest goes with the sweeper's).
      await syncShardFacts({ db, env });
      await progress(80);
    }
    placement = await findPlacement(db, containerId);
    // Never from the shard the directory names. A container deleted during the move has no placement: its cleanup
    // (both shards) may have run before this copy wrote, so whatever is left of it goes from both.
    if (!placement || placement.shard !== from) {
      await deleteAll(source, containerId, checkpoint, renew, { position: drain });
      // Nothing of the container is left here: its fence and log go, a statement per chunk of the log.
      while (!(await endMove(source, containerId, MOVE_CHUNK_ROWS))) checkpoint();
      // The switch's cleanup of the source (src/db/triggers/shards.sql) is done: lists count the container there no
      // longer, and a move back may start. A deleted container's cleanups are its delete's to end.
      if (placement) await endDrain(db, containerId, from);
    }
    if (!placement) {
      await deleteAll(target, containerId, checkpoint, renew);
      while (!(await endMove(target, containerId, MOVE_CHUNK_ROWS))) checkpoint();
    }
    const total = cost();
    return {
      container_id: formatId(containerId, "c"),
      from,
      to,
      rows,
      replayed: tally.replayed,
      compared: tally.compared,
      fenced_ms: tally.fencedMs,
      statements: total.statements,
      d1_rows_read: total.rowsRead,
      d1_rows_written: total.rowsWritten,
      ms: total.ms,
    };
  },
});
