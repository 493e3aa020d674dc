import type { DB } from "../db/client";
import { CHUNK_TABLES, deleteContainerChunk, deleteEmptiedContainer, type ChunkTable } from "../db/queries/container-delete";
import { formatId } from "../lib/ids";

/**
 * A container whose delete would take more rows than this with it (videos, segments, subtitles, timed
 * comments, subtitle histories) is not deleted in the request: it is hidden at once and a `container-delete`
 * job removes it in chunks. Below it, one statement does everything in a few milliseconds.
 */
export const CONTAINER_DELETE_SYNC_ROWS = 500;
/**
 * Videos one chunk statement deletes: each deleted video rebuilds its container's document, which counts the videos
 * still there, so a chunk costs about (chunk x remaining videos) rows.
 */
const DELETE_CHUNK_VIDEOS = 10;

export interface ContainerRemoval extends Record<string, unknown> {
  container_id: string;
  /** Rows deleted directly per table (cascades and triggers not counted). */
  deleted: Record<ChunkTable | "containers", number>;
  statements: number;
  /** The most rows D1 read for one statement: the bound on what any other request waits behind. */
  max_rows_read: number;
}

/**
 * Removes a container a chunk at a time, leaves first, the container row last. Replays are harmless: every
 * chunk deletes what is still there, and a container already gone ends with nothing deleted.
 */
export async function removeContainerInChunks(
  db: DB,
  containerId: number,
  progress: (percent: number) => Promise<void>,
  resume: { prior?: ContainerRemoval; checkpoint?: (sofar: ContainerRemoval) => void; renew?: () => Promise<void> } = {},
): Promise<ContainerRemoval> {
  const deleted = {
    ...Object.fromEntries([...CHUNK_TABLES, "containers"].map((t) => [t, 0])),
    ...resume.prior?.deleted,
  } as ContainerRemoval["deleted"];
  let statements = resume.prior?.statements ?? 0;
  let maxRowsRead = resume.prior?.max_rows_read ?? 0;
  const sofar = (): ContainerRemoval => ({
    container_id: formatId(containerId, "c"),
    deleted: { ...deleted },
    statements,
    max_rows_read: maxRowsRead,
  });
  const count = (table: ChunkTable | "containers", cost: { deleted: number; rowsRead: number }) => {
    deleted[table] += cost.deleted;
    statements += 1;
    maxRowsRead = Math.max(maxRowsRead, cost.rowsRead);
  };
  for (const [stage, table] of CHUNK_TABLES.entries()) {
    const limit = DELETE_CHUNK_VIDEOS;
    for (let chunk = 1; ; chunk++) {
      // A job that must stop (its statements for this delivery spent) stops here and goes on from `sofar()`; each
      // chunk deletes what is still there, so the next delivery simply starts over the stages.
      resume.checkpoint?.(sofar());
      // The job's lease, renewed before every chunk, not only with progress: a delivery that lost its job stops
      // here (docs/decisions.md, "Exclusive claims").
      await resume.renew?.();
      const cost = await deleteContainerChunk(db, containerId, table, limit);
      count(table, cost);
      // A short chunk was the last one.
      if (cost.deleted < limit) break;
      // Progress is also the job's sign of life to the sweeper on a long run.
      if (chunk % 20 === 0) await progress(Math.round((100 * stage) / (CHUNK_TABLES.length + 1)));
    }
    await progress(Math.round((100 * (stage + 1)) / (CHUNK_TABLES.length + 1)));
  }
  count("containers", await deleteEmptiedContainer(db, containerId));
  return sofar();
}
