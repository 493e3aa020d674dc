import { z } from "zod";
import type { DB } from "../db/client";
import { findContainer } from "../db/queries/catalogue";
import {
  completionDocVersions,
  containerCompletionStatements,
  normalVideoIds,
  readCompletions,
  videoCompletionStatements,
  videoVisibility,
} from "../db/queries/completions";
import { completionEventStatements } from "../db/queries/catalogue-events";
import { runBatchResults } from "../db/raw-batch";
import { formatId } from "../lib/ids";
import type { User } from "../types";
import { caller, canSeeVideo, requireVisibleContainer } from "./access";

/** `POST /v4/subtitle_completions.json` takes at most this many video ids. */
export const MAX_COMPLETION_VIDEO_IDS = 100;

/** `jobs.params` of a completion job. */
export const CompletionParams = z.object({
  videoIds: z.array(z.number().int().positive()).max(10_000).default([]),
  containerIds: z.array(z.number().int().positive()).max(10_000).default([]),
});
export type CompletionParams = z.infer<typeof CompletionParams>;

/**
 * Recomputes the materialised completions of some videos and containers: one aggregate upsert and one
 * delete per scope, all in one transaction. The subtitle_completions triggers then rebuild the video and
 * container documents and the `sub:<lang>` facets, only for the rows whose percent changed. The same
 * transaction records completion.updated for each video and container whose percentages changed (docs/decisions.md, "Signed webhooks");
 * `events` says how many, so the caller knows whether to wake the webhook consumer.
 */
export async function recomputeCompletions(db: DB, params: CompletionParams) {
  const videoIds = [...new Set(params.videoIds)];
  const containerIds = [...new Set(params.containerIds)];
  const before = await completionDocVersions(db, videoIds, containerIds);
  const statements = [
    ...(videoIds.length ? videoCompletionStatements(videoIds) : []),
    ...(containerIds.length ? containerCompletionStatements(containerIds) : []),
  ];
  const events = completionEventStatements(db, before);
  const results = await runBatchResults(db, [...statements, ...events]);
  const rowsWritten = results.reduce((sum, r) => sum + (r.meta?.rows_written ?? 0), 0);
  const recorded = results.slice(statements.length).reduce((sum, r) => sum + (r.results?.length ?? 0), 0);
  return { videos: videoIds.length, containers: containerIds.length, rows_written: rowsWritten, events: recorded };
}

type PercentMap = Record<string, number>;

function groupPercents(rows: Array<{ id: number; language: string; percent: number }>) {
  const byId = new Map<number, PercentMap>();
  for (const r of rows) {
    let m = byId.get(r.id);
    if (!m) byId.set(r.id, (m = {}));
    m[r.language] = r.percent;
  }
  return byId;
}

/**
 * Completions of the given videos, keyed by wire id in the order asked. Missing videos are left out, and so
 * are hidden ones (pending, blocked, or in a container that is not normal) unless the user manages them.
 */
export async function videoCompletions(db: DB, user: User | undefined, ids: number[]) {
  const unique = [...new Set(ids)];
  const rows = await videoVisibility(db, unique);
  const who = caller(db, user);
  const visible = new Set<number>();
  for (const r of rows) {
    if (await canSeeVideo(who, { video: r, container: { id: r.containerId, state: r.containerState } })) visible.add(r.id);
  }
  const shown = unique.filter((id) => visible.has(id));
  const percents = groupPercents(await readCompletions(db, "v", shown));
  return Object.fromEntries(shown.map((id) => [formatId(id, "v"), percents.get(id) ?? {}]));
}

/**
 * A container's normal-state videos keyed like `videoCompletions`, plus `"container"`; 404 when the container
 * is missing or hidden from the user.
 */
export async function containerCompletions(db: DB, user: User | undefined, containerId: number) {
  await requireVisibleContainer(caller(db, user), await findContainer(db, containerId));
  const ids = (await normalVideoIds(db, containerId)).map((r) => r.id);
  const [videoRows, containerRows] = await Promise.all([readCompletions(db, "v", ids), readCompletions(db, "c", [containerId])]);
  const percents = groupPercents(videoRows);
  const body: Record<string, PercentMap> = Object.fromEntries(ids.map((id) => [formatId(id, "v"), percents.get(id) ?? {}]));
  body.container = groupPercents(containerRows).get(containerId) ?? {};
  return body;
}
