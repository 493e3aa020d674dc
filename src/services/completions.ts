import { z } from "zod";
import type { DB } from "../db/client";
import { findContainer } from "../db/queries/catalogue";
import {
  completionWriteStatements,
  containerPercents,
  containerScopeQuery,
  docVersionsQuery,
  normalVideoIds,
  readCompletions,
  videoPercents,
  videoPlacementsQuery,
  videoVisibility,
  type Percent,
} from "../db/queries/completions";
import { completionEventStatements } from "../db/queries/catalogue-events";
import type { Placement } from "../db/queries/shards";
import { runBatchResults } from "../db/raw-batch";
import { formatId } from "../lib/ids";
import type { User } from "../types";
import { caller, canSeeVideo, requireVisibleContainer } from "./access";
import type { Deps } from "./deps";
import { readShard } from "./shards";

/** `POST /v4/subtitle_completions.json` takes at most this many video ids. */
export const MAX_COMPLETION_VIDEO_IDS = 100;

/** `jobs.params` of a completion job. */
export const CompletionParams = z.object({
  videoIds: z.array(z.number().int().positive()).max(10_000).default([]),
  containerIds: z.array(z.number().int().positive()).max(10_000).default([]),
});
export type CompletionParams = z.infer<typeof CompletionParams>;

/** What one shard is asked: its videos' percentages, and its containers' over their normal videos. */
interface ShardWork {
  placement: Placement;
  videoIds: number[];
  containerVideos: Array<[number, number]>;
}

/**
 * What a recompute covers, from one catalogue batch: the doc versions (for the events), each video's placement, each
 * container's placement and normal videos; grouped by shard (`completionWork`).
 */
async function recomputeScope(db: DB, videoIds: number[], containerIds: number[]) {
  const [videoVersions, containerVersions, placedVideos, placedContainers] = await db.batch([
    docVersionsQuery(db, "v", videoIds),
    docVersionsQuery(db, "c", containerIds),
    videoPlacementsQuery(db, videoIds),
    containerScopeQuery(db, containerIds),
  ]);
  const pairs = (rows: { id: number; version: number }[]) => rows.map((r) => [r.id, r.version] as [number, number]);
  const { work, done } = completionWork(placedVideos, placedContainers);
  return { before: { videos: pairs(videoVersions), containers: pairs(containerVersions) }, work, done };
}

/**
 * What each shard is asked, from the rows of `videoPlacementsQuery` and `containerScopeQuery`. A resource that is
 * gone has no row and is left out (its completions went with it). `done`: the videos and containers whose percentages
 * the shards give. The demo seed groups its own completions with it too (scripts/demo/completions.mjs).
 */
export function completionWork(
  placedVideos: Array<Placement & { videoId: number }>,
  placedContainers: Array<Placement & { videos: string }>,
) {
  const work = new Map<number, ShardWork>();
  const at = (p: Placement) => {
    let w = work.get(p.shard);
    if (!w) work.set(p.shard, (w = { placement: p, videoIds: [], containerVideos: [] }));
    return w;
  };
  const done = { videos: [] as number[], containers: [] as number[] };
  for (const v of placedVideos) {
    at(v).videoIds.push(v.videoId);
    done.videos.push(v.videoId);
  }
  for (const c of placedContainers) {
    at(c).containerVideos.push(...(JSON.parse(c.videos) as number[]).map((v) => [c.containerId, v] as [number, number]));
    done.containers.push(c.containerId);
  }
  return { work: [...work.values()], done };
}

/**
 * Recomputes the materialised completions of some videos and containers. The catalogue says where each one's
 * subtitles are (one batch), each shard computes its percentages with one aggregate statement per scope (in parallel),
 * then one catalogue batch (one transaction) writes them: an upsert that writes only changed percentages and a delete
 * of languages left without text, so a replay writes nothing. The subtitle_completions triggers then rebuild the video
 * and container documents and the `sub:<lang>` facets, only for the rows whose percent changed. The same transaction
 * records completion.updated for each video and container whose percentages changed (docs/decisions.md, "Signed
 * webhooks"); `events` says how many, so the caller knows whether to wake the webhook consumer.
 */
export async function recomputeCompletions(deps: Pick<Deps, "db" | "env" | "shards">, params: CompletionParams) {
  const { db } = deps;
  const videoIds = [...new Set(params.videoIds)];
  const containerIds = [...new Set(params.containerIds)];
  const { before, work, done } = await recomputeScope(db, videoIds, containerIds);
  const computed = await Promise.all(
    work.map(async (w) => {
      const shard = readShard(deps, w.placement);
      const [v, c] = await Promise.all([
        w.videoIds.length ? videoPercents(shard, w.videoIds) : ([] as Percent[]),
        w.containerVideos.length ? containerPercents(shard, w.containerVideos) : ([] as Percent[]),
      ]);
      return { v, c };
    }),
  );
  const statements = [
    ...completionWriteStatements(
      "v",
      done.videos,
      computed.flatMap((r) => r.v),
    ),
    ...completionWriteStatements(
      "c",
      done.containers,
      computed.flatMap((r) => r.c),
    ),
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
