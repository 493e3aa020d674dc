import { z } from "zod";
import { mergeJobParams } from "../db/queries/jobs";
import type { Deps } from "../services/deps";
import {
  RESTORE_INLINE_CUES,
  finishRestore,
  manageableTrack,
  restoreInline,
  restoreProblem,
  writeRestore,
  type TrackChange,
} from "../services/subtitle-edits";
import { announceOnce, refuseWhileTrackBusy, trackJobStart } from "../services/track-jobs";
import { SUBTITLE_LANGUAGE_RE } from "../services/subtitles";
import { latestVersion, versionCues, versionRow, type Track } from "../services/subtitle-versions";
import { ApiError } from "../lib/errors";
import { formatId } from "../lib/ids";
import { completion, queueCompletion } from "./completion";
import { LostClaim, PermanentJobError, defineJob } from "./define";
import { enqueue } from "./enqueue";
import type { JobDeps } from "./types";

const RestoreParams = z.object({
  videoId: z.number().int().positive(),
  language: z.string().regex(SUBTITLE_LANGUAGE_RE),
  number: z.number().int().positive(),
  /** Set before the first write when the restore changes the track, so a replay that finds it done still announces it. */
  changes: z.boolean().optional(),
});

/**
 * `subtitle-restore`: makes a large track's texts those of one of its versions (docs/api.md, "Subtitle versions and reports"), in
 * chunks on the container's shard keyed by the job so a replay writes nothing twice, then announces the change once
 * (a catalogue write after the shard's: docs/decisions.md, "Subtitles on the shards"), records the version the
 * restore made and queues the completion recompute. The result names the version restored and the one made (null
 * when the track already held it).
 */
export const subtitleRestore = defineJob({
  type: "subtitle-restore",
  params: RestoreParams,
  payload: null,
  async handler({ db, env, job, params, progress }) {
    const { videoId, language, number } = params;
    if (!job.createdBy) throw new PermanentJobError("the restoring user no longer exists");
    // The video, its placement, the restoring user and their rights now: one catalogue batch.
    const start = await trackJobStart({ db, env }, videoId, job.createdBy);
    if (start.refused) throw new PermanentJobError(start.refused);
    const { found, username, store } = start;
    if (!found || !username || !store) throw new PermanentJobError(`video ${formatId(videoId, "v")} no longer exists`);
    const t = { videoId, language };
    const version = await versionRow(store.db, t, number).catch(() => {
      throw new PermanentJobError(`version ${number} of the ${language} subtitles is no longer kept`);
    });
    const cues = await versionCues({ env }, version);
    // startRestore refused this already; a job queued before the limits held is refused here, before any write.
    const problem = restoreProblem(cues);
    if (problem) throw new PermanentJobError(`version ${number} cannot be restored: ${problem}`);
    await progress(10);
    const scope = { ...t, containerId: found.container.id, userId: job.createdBy, username };
    const written = await writeRestore(store, `restore:${job.id}`, scope, cues, progress, async () => {
      // A restore that only removes cues leaves no history to find on a replay: what it will change is noted first.
      if (!params.changes) if (!(await mergeJobParams(db, job, { changes: true }))) throw new LostClaim(job.id);
    });
    if (written.changed || params.changes) await announceOnce(db, job.id, scope, "restore");
    const made = await finishRestore({ db, env }, store, t, { userId: job.createdBy, applicationId: job.applicationId, number });
    const next = await queueCompletion({ db, env }, job, { videoIds: [videoId], containerIds: [found.container.id] });
    return {
      restored_from: number,
      version: made?.number ?? (await latestVersion(store.db, t))?.number ?? null,
      cues: cues.length,
      removed: written.removed,
      rows_written: written.rows_written,
      completion_job: next,
    };
  },
});

/**
 * Restores version `number` of a track for staff and the container's managers: at once (one transaction) when it has at
 * most RESTORE_INLINE_CUES cues, else as a queued job. Refused (409) while an import or another restore of the track is
 * queued or running. `version` is the version the restore made, or the current one when the track already held that
 * content.
 */
export async function startRestore(deps: Deps, change: TrackChange, t: Track, number: number) {
  const { db, env } = deps;
  const { container, store } = await manageableTrack(deps, change.user, t.videoId);
  const version = await versionRow(store.db, t, number);
  await refuseWhileTrackBusy(db, t);
  // The limits are checked on the version's cues here, whichever way it is restored, so a refusal is a 400 at once.
  const cues = await versionCues(deps, version);
  const problem = restoreProblem(cues);
  if (problem) throw ApiError.field("number", `version ${number} cannot be restored: ${problem}`);
  if (version.cues > RESTORE_INLINE_CUES) {
    const job = await enqueue(
      { db, env, requestId: deps.requestId } satisfies JobDeps,
      subtitleRestore,
      { ...t, number },
      { createdBy: change.user.id, applicationId: change.applicationId ?? undefined },
    );
    return { job } as const;
  }
  const scope = { ...t, containerId: container.id, userId: change.user.id, username: change.user.username };
  await restoreInline(deps, store, scope, cues);
  const made = await finishRestore(deps, store, t, { userId: change.user.id, applicationId: change.applicationId, number });
  await enqueue(deps, completion, { videoIds: [t.videoId], containerIds: [container.id] }, { createdBy: change.user.id });
  return { version: made ?? (await latestVersion(store.db, t))!, created: made !== null } as const;
}
