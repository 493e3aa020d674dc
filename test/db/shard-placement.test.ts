// Placement by two random choices, the smaller shard taking the container (docs/decisions.md, "Shards"): a new, empty
// shard does not take every new container, and the sweeper records each shard's size that placement weighs.
import { env } from "cloudflare:workers";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { shardDirectory, shards } from "../../src/db/schema";
import { pruneVersions } from "../../src/services/subtitle-retention";
import { db } from "../helpers";
import { createContainer } from "../helpers/catalogue";

describe("placement of new containers", () => {
  it("records each shard's size on the sweeper's pass", async () => {
    await db().update(shards).set({ bytes: 0 });
    await pruneVersions({ db: db(), env });
    const sizes = await db().select({ id: shards.id, bytes: shards.bytes }).from(shards).orderBy(shards.id).all();
    expect(sizes.map((s) => s.id)).toEqual([1, 2]);
    for (const s of sizes) expect(s.bytes).toBeGreaterThan(0);
  });

  it("gives a new, empty shard some of the new containers, not every one", async () => {
    // Shards 1 and 2 are large; shard 3 has just been added (a row only: placement never opens a shard).
    await db().update(shards).set({ bytes: 5_000_000_000 });
    await db().insert(shards).values({ id: 3, bytes: 0, containers: 0 });
    try {
      const made = [];
      for (let i = 0; i < 30; i++) made.push((await createContainer()).id);
      const placed = await db()
        .select({ shard: shardDirectory.shard })
        .from(shardDirectory)
        .where(inArray(shardDirectory.containerId, made))
        .all();
      const onNew = placed.filter((p) => p.shard === 3).length;
      // Shard 3 is in 2 of the 3 pairs: about 20 of 30. All 30 there has odds (2/3)^30, about 1 in 190,000.
      expect(onNew).toBeGreaterThan(5);
      expect(onNew).toBeLessThan(30);
      await db().delete(shardDirectory).where(eq(shardDirectory.shard, 3));
    } finally {
      await db().update(shards).set({ accepting: false }).where(eq(shards.id, 3));
    }
  });
});
