import { z } from "zod";
import { recordContainerCleanup } from "../db/queries/shards";
import { DRAIN_STATEMENTS, drainShardCleanups } from "../services/shard-cleanups";
import { deleteContainer } from "../services/catalogue-writes";
import { type ContainerRemoval, removeContainerInChunks } from "../services/container-delete";
import { type ContainerVersionsRemoval, removeContainerVersions } from "../services/subtitle-retention";
import type { User } from "../types";
import { afterWrite } from "../services/after-write";
import { ContinueJob, defineJob, STATEMENTS_PER_DELIVERY } from "./define";
import { enqueue } from "./enqueue";
import type { JobDeps } from "./types";

const ContainerDeleteParams = z.object({
  containerId: z.number().int().positive(),
  /** Statements one delivery makes before it checkpoints (docs/decisions.md, "Jobs that continue"). */
  statementsPerDelivery: z.number().int().min(5).max(900).default(STATEMENTS_PER_DELIVERY),
  /** The tallies so far, written at each checkpoint (absent on the first delivery). */
  versions: z.custom<ContainerVersionsRemoval>().optional(),
  removal: z.custom<ContainerRemoval>().optional(),
  /** Shard rows its cleanup deleted so far (a continuation that drains on). */
  shardRows: z.number().int().min(0).optional(),
});

/**
 * `container-delete`: removes a container too large to delete in its request, a chunk per statement so that
 * no other request waits long behind it (src/services/container-delete.ts). The container was hidden when
 * the job was queued. Idempotent: a replay deletes what is left, and a container already gone succeeds with
 * nothing deleted. Its videos' subtitle versions go first, rows then their R2 snapshot objects
 * (src/services/subtitle-retention.ts): the rows would cascade with the videos, but the objects live outside D1.
 * Result `{container_id, deleted: {table: rows}, statements, max_rows_read, snapshots, shard_rows}`
 * (`deleted`: catalogue rows, `deleted.subtitle_versions`: version rows; `snapshots`: R2 objects; `shard_rows`: the
 * rows its shard cleanup deleted).
 */
export const containerDelete = defineJob({
  type: "container-delete",
  params: ContainerDeleteParams,
  payload: null,
  async handler({ db, env, params, progress, renew }) {
    // The whole container's shard rows, recorded first: its videos' deletes then add no row each (a continuation
    // recorded them already).
    if (!params.versions) await recordContainerCleanup(db, params.containerId);
    // Stops before a statement once this delivery has made its share (a statement, or a video's snapshot objects).
    let spent = 0;
    let state: Pick<typeof params, "versions" | "removal" | "shardRows"> = { versions: params.versions, removal: params.removal };
    const checkpoint = (cost: number) => {
      spent += cost;
      if (spent > params.statementsPerDelivery) throw new ContinueJob(state);
    };
    // A video's snapshot objects cost R2 requests (a listing and a delete), counted with the statements.
    let videos = params.versions?.videos ?? 0;
    const versions = await removeContainerVersions({ db, env }, params.containerId, () => progress(0), {
      prior: params.versions,
      checkpoint: (sofar) => {
        state = { ...state, versions: { ...sofar } };
        checkpoint(1 + 2 * (sofar.videos - videos));
        videos = sofar.videos;
      },
    });
    const removal = await removeContainerInChunks(db, params.containerId, progress, {
      prior: params.removal,
      renew,
      checkpoint: (sofar) => {
        state = { versions, removal: sofar, shardRows: params.shardRows };
        checkpoint(1);
      },
    });
    // container.deleted was recorded with the container row's delete (a replay that finds it gone records none).
    await afterWrite({ db, env }, { events: removal.deleted.containers > 0 });
    // Its shard rows (timed comments and the subtitle family: docs/decisions.md, "Subtitles on the shards"), through
    // the cleanup recorded first, a drain at a time until none is left. A drain's statements count with the others,
    // but a delivery always makes its first drain (at most DRAIN_STATEMENTS more), so every delivery gets on.
    let shardRows = params.shardRows ?? 0;
    for (let drains = 0; ; drains++) {
      state = { versions, removal, shardRows };
      if (drains) checkpoint(DRAIN_STATEMENTS);
      else spent += DRAIN_STATEMENTS;
      const drained = await drainShardCleanups({ db, env });
      shardRows += drained.rows;
      // A shard that failed was skipped and the others drained; the job retries for it, as for any failure, and the
      // sweeper drains it meanwhile if it answers again.
      if (drained.failed.length)
        throw new Error(`shard cleanups failed on shard ${drained.failed.join(", ")}: their rows wait in shard_cleanups`);
      if (!drained.left) break;
    }
    return {
      ...removal,
      deleted: { subtitle_versions: versions.rows, ...removal.deleted },
      statements: removal.statements + versions.statements,
      max_rows_read: Math.max(removal.max_rows_read, versions.maxRowsRead),
      snapshots: versions.objects,
      shard_rows: shardRows,
    };
  },
});

/**
 * DELETE /v4/containers/<id>.json: a small container is deleted at once (null); a large one is hidden and its
 * removal queued (the job row). `applicationId`: the application that signed the request, which hears how the job ends.
 */
export async function startContainerDelete(deps: JobDeps, user: User, containerId: number, applicationId?: number) {
  if ((await deleteContainer(deps, containerId)) === "deleted") return null;
  return enqueue(deps, containerDelete, { containerId }, { createdBy: user.id, applicationId });
}
