// The isolate tier of the edge cache (src/lib/isolate-tier.ts): bounded by entries and bytes, least recently used out.
import { describe, expect, it } from "vitest";
import { ISOLATE_TIER_MAX_BYTES, ISOLATE_TIER_MAX_ENTRIES, IsolateTier } from "../../src/lib/isolate-tier";

const entry = (bytes: number) => ({ body: new ArrayBuffer(bytes), headers: [] as [string, string][], storedAt: 0 });

describe("the isolate tier", () => {
  it("keeps at most ISOLATE_TIER_MAX_ENTRIES answers, dropping the least recently used", () => {
    const tier = new IsolateTier();
    for (let i = 0; i < ISOLATE_TIER_MAX_ENTRIES; i++) tier.set(`k${i}`, entry(10));
    expect(tier.get("k0")).toBeDefined(); // now the most recently used
    tier.set("new", entry(10));
    expect(tier.size.entries).toBe(ISOLATE_TIER_MAX_ENTRIES);
    expect(tier.get("k1")).toBeUndefined();
    expect(tier.get("k0")).toBeDefined();
    expect(tier.get("new")).toBeDefined();
  });

  it("keeps at most ISOLATE_TIER_MAX_BYTES, and leaves answers over 256 KiB to the shared tier", () => {
    const tier = new IsolateTier();
    const size = 200 * 1024;
    const fits = Math.floor(ISOLATE_TIER_MAX_BYTES / size);
    for (let i = 0; i <= fits; i++) tier.set(`k${i}`, entry(size));
    expect(tier.size.bytes).toBeLessThanOrEqual(ISOLATE_TIER_MAX_BYTES);
    expect(tier.get("k0")).toBeUndefined();
    expect(tier.get(`k${fits}`)).toBeDefined();
    tier.set("huge", entry(300 * 1024));
    expect(tier.get("huge")).toBeUndefined();
  });

  it("replacing a key counts its bytes once; clear empties it", () => {
    const tier = new IsolateTier();
    tier.set("a", entry(100));
    tier.set("a", entry(50));
    expect(tier.size).toEqual({ entries: 1, bytes: 50 });
    tier.clear();
    expect(tier.size).toEqual({ entries: 0, bytes: 0 });
  });
});
