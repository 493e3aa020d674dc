import type { CacheScope } from "../lib/route-properties";
import { log } from "../lib/log";
import { sendDeliveries } from "../webhooks/pump";
import type { Deps } from "./deps";
import { bumpGenerations } from "./edge-cache";
import { invalidateCatalogueListings } from "./kv-cache";
import { carryToShards } from "./shard-outboxes";
import { REQUEST_FACT_ROUNDS } from "./shard-facts";
import { invalidateSubtitleTrack } from "./subtitle-tracks";

/**
 * What a committed write changed, as its writer knows it; `afterWrite` turns it into every effect that must follow
 * (docs/decisions.md, "After a write"). A writer states facts about its change, never which cache to drop: a new
 * kind of cache or outbox is one more line here, and no writer changes.
 */
export type WriteEffects = {
  /** The write left rows in `shard_fact_changes` (a container's state or origin language, a video's state or number). */
  shardFacts?: boolean;
  /** The write left rows in `shard_cleanups` (a deleted video or container): its shard rows go now. */
  shardCleanups?: boolean;
  /** The cues of one video's track in one language changed. */
  track?: { videoId: number; language: string };
  /** Which containers exist, or a container's type, state or title changed: what the KV listings (all.json) hold. */
  listings?: boolean;
  /** The public reads whose answers may have changed, by the generation they are cached under. */
  scopes?: readonly CacheScope[];
  /** The write recorded webhook events (or made deliveries due): the consumer is asked to send them now. */
  events?: boolean;
};

/**
 * Every effect of a committed write, in one fixed order: the shard outboxes first (so a public read rebuilt after the
 * caches drop already sees the shards' copy of the change), then the cached track, the KV listings and the edge
 * generations, and the webhook deliveries last (a receiver that reads on an event reads the new answer). Never throws
 * for an effect: each one logs its own failure, as the write has committed.
 */
export async function afterWrite(deps: Pick<Deps, "db" | "env" | "shards">, effects: WriteEffects): Promise<void> {
  const { env } = deps;
  if (effects.shardFacts || effects.shardCleanups) {
    await carryToShards(deps, {
      factRounds: effects.shardFacts ? REQUEST_FACT_ROUNDS : undefined,
      cleanups: effects.shardCleanups,
    });
  }
  const { track } = effects;
  if (track) await logged("subtitle track", () => invalidateSubtitleTrack(env.CACHE, track.videoId, track.language));
  if (effects.listings) await logged("catalogue listings", () => invalidateCatalogueListings(env.CACHE));
  if (effects.scopes?.length) await bumpGenerations(env, ...effects.scopes);
  if (effects.events) await sendDeliveries(env);
}

/** A KV delete refused after the write committed: the key's TTL heals it, so the write still succeeds. */
async function logged(what: string, drop: () => Promise<void>) {
  await drop().catch((err: unknown) => log("error", { event: "after-write", message: `${what} not invalidated`, error: String(err) }));
}
