import type { DB } from "../db/client";
import { videoManagerQuery, videoWithContainer, videoWithContainerQuery } from "../db/queries/catalogue";
import { subtitlesUpdatedEvent, type SubtitlesCause } from "../db/queries/catalogue-events";
import { videoGlossaryQuery } from "../db/queries/glossary";
import { videoPlacementQuery } from "../db/queries/shards";
import { activeTrackJobsQuery, announceOnceStatements, jobCreatorQuery, type ImportScope } from "../db/queries/subtitles";
import { runBatch } from "../db/raw-batch";
import { ApiError } from "../lib/errors";
import { jobCreatorRefusal } from "./access";
import type { Deps } from "./deps";
import type { Terms } from "./subtitle-checks";
import { trackShard, type Track } from "./subtitle-versions";

/**
 * What the jobs that rewrite a whole track (the import, a large restore) share: the refusal while one is queued or
 * running, their first catalogue batch, and their `subtitles.updated` recorded once whatever their deliveries
 * (docs/decisions.md, "Subtitle versions", "Subtitles on the shards").
 */

/** Job types that rewrite a whole track: a restore waits for none of them to be queued or running. */
const TRACK_JOB_TYPES = ["srt-import", "subtitle-restore"] as const;

/** A 409 while a job that rewrites the track is queued or running: two whole-track writers would interleave. */
export async function refuseWhileTrackBusy(db: DB, t: Track, types: readonly string[] = TRACK_JOB_TYPES, except?: number) {
  const [busy] = await activeTrackJobsQuery(db, t.videoId, t.language, types);
  if (busy && busy.id !== except) {
    throw ApiError.conflict(`the ${t.language} subtitles are being rewritten by job ${busy.id}j (${busy.type}); try again when it ends`);
  }
}

/**
 * What a job that writes a track reads first, in one catalogue batch: the video and its container, their placement,
 * the user it acts for (the name copied into the rows) and whether they manage the container. The job acts for its
 * creator, whoever runs it (a staff retry too): their rights now, not when it was queued, as a request asks them
 * (staff, or a listed manager), and the series' glossary terms (the final checks of the track's writes: docs/decisions.md,
 * "Quality checks"). `refused` says why it may not run at all; no `found`: the video is gone. Either way
 * the job fails for good.
 */
export async function trackJobStart({ db, env }: Pick<Deps, "db" | "env">, videoId: number, userId: number) {
  const [found, placed, creator, manager, terms] = await db.batch([
    videoWithContainerQuery(db, videoId),
    videoPlacementQuery(db, videoId),
    jobCreatorQuery(db, userId),
    videoManagerQuery(db, videoId, userId),
    videoGlossaryQuery(db, videoId),
  ]);
  const vc = videoWithContainer(found);
  const user = creator[0];
  if (user && !vc) return {};
  const refused = jobCreatorRefusal(user, vc?.container.id ?? 0, manager.length > 0);
  if (refused || !vc || !user) return { refused };
  // Every container has a directory row (a trigger writes it): a missing one is a fault, retried as any other.
  if (!placed[0]) throw new Error(`container ${vc.container.id} has no shard placement`);
  return { found: vc, username: user.username, store: { ...trackShard({ env }, vc, placed[0]), terms: terms as Terms } };
}

/** `subtitles.updated` for a job's change: recorded once per job, however many deliveries reach this point. */
export async function announceOnce(db: DB, jobId: number, scope: ImportScope, cause: SubtitlesCause) {
  await runBatch(db, announceOnceStatements(jobId, subtitlesUpdatedEvent(scope, cause)));
}
