import { z } from "zod";
import { findVideoWithContainer } from "../db/queries/catalogue";
import type { Deps } from "../services/deps";
import {
  RESTORE_INLINE_CUES,
  finishRestore,
  manageableTrack,
  refuseWhileTrackBusy,
  writeRestore,
  type TrackChange,
} from "../services/subtitle-edits";
import { SUBTITLE_LANGUAGE_RE } from "../services/subtitles";
import { latestVersion, versionCues, versionRow, type Track } from "../services/subtitle-versions";
import { formatId } from "../lib/ids";
import { completion } from "./completion";
import { PermanentJobError, defineJob } from "./define";
import { enqueue } from "./enqueue";
import type { JobDeps } from "./types";

const RestoreParams = z.object({
  videoId: z.number().int().positive(),
  language: z.string().regex(SUBTITLE_LANGUAGE_RE),
  number: z.number().int().positive(),
});

/**
 * `subtitle-restore`: makes a large track's texts those of one of its versions (docs/api.md, "Subtitle versions and reports"), in
 * chunks keyed by the job so a replay writes nothing twice, then records the version the restore made and queues the
 * completion recompute. The result names the version restored and the one made (null when the track already held it).
 */
export const subtitleRestore = defineJob({
  type: "subtitle-restore",
  params: RestoreParams,
  payload: null,
  async handler({ db, env, job, params, progress }) {
    const { videoId, language, number } = params;
    if (!job.createdBy) throw new PermanentJobError("the restoring user no longer exists");
    const found = await findVideoWithContainer(db, videoId);
    if (!found) throw new PermanentJobError(`video ${formatId(videoId, "v")} no longer exists`);
    const t = { videoId, language };
    const version = await versionRow(db, t, number).catch(() => {
      throw new PermanentJobError(`version ${number} of the ${language} subtitles is no longer kept`);
    });
    const cues = await versionCues({ env }, version);
    await progress(10);
    const scope = { ...t, containerId: found.container.id, userId: job.createdBy };
    const written = await writeRestore(db, `restore:${job.id}`, scope, cues, progress);
    const made = await finishRestore({ db, env }, t, { userId: job.createdBy, applicationId: job.applicationId, number });
    const next = await enqueue(
      { db, env, requestId: job.requestId ?? undefined },
      completion,
      { videoIds: [videoId], containerIds: [found.container.id] },
      { createdBy: job.createdBy },
    );
    return {
      restored_from: number,
      version: made?.number ?? (await latestVersion(db, t))?.number ?? null,
      cues: cues.length,
      removed: written.removed,
      rows_written: written.rows_written,
      completion_job: formatId(next.id, "j"),
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
  const { container } = await manageableTrack(deps, change.user, t);
  const version = await versionRow(db, t, number);
  await refuseWhileTrackBusy(db, t);
  if (version.cues > RESTORE_INLINE_CUES) {
    const job = await enqueue(
      { db, env, requestId: deps.requestId } satisfies JobDeps,
      subtitleRestore,
      { ...t, number },
      { createdBy: change.user.id, applicationId: change.applicationId ?? undefined },
    );
    return { job } as const;
  }
  const cues = await versionCues(deps, version);
  const scope = { ...t, containerId: container.id, userId: change.user.id };
  await writeRestore(db, `restore:${crypto.randomUUID()}`, scope, cues);
  const made = await finishRestore(deps, t, { userId: change.user.id, applicationId: change.applicationId, number });
  await enqueue(deps, completion, { videoIds: [t.videoId], containerIds: [container.id] }, { createdBy: change.user.id });
  return { version: made ?? (await latestVersion(db, t))!, created: made !== null } as const;
}
