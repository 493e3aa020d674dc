/**
 * The isolate's own copy of the answers it most recently stored in, or found in, `caches.default`: the first tier
 * of the edge cache (src/middleware/cache.ts). A lookup in `caches.default` is I/O; this one is a Map read. Keys carry
 * the data's generations (src/services/edge-cache.ts), so an entry here is exactly as fresh as the shared one under
 * the same key; the caller still checks its age. Bounded by entries and bytes, least recently used out first.
 */
export type TierEntry = { body: ArrayBuffer; headers: [string, string][]; storedAt: number };

export const ISOLATE_TIER_MAX_ENTRIES = 256;
export const ISOLATE_TIER_MAX_BYTES = 8 * 1024 * 1024;
/** A larger answer (a long list, a big timed-comment track) is left to the shared tier alone. */
const MAX_ENTRY_BYTES = 256 * 1024;

export class IsolateTier {
  private entries = new Map<string, TierEntry>();
  private bytes = 0;

  get(key: string): TierEntry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Map order is insertion order: re-inserting makes it the most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: TierEntry) {
    if (entry.body.byteLength > MAX_ENTRY_BYTES) return;
    this.delete(key);
    this.entries.set(key, entry);
    this.bytes += entry.body.byteLength;
    for (const [oldest, old] of this.entries) {
      if (this.entries.size <= ISOLATE_TIER_MAX_ENTRIES && this.bytes <= ISOLATE_TIER_MAX_BYTES) break;
      this.entries.delete(oldest);
      this.bytes -= old.body.byteLength;
    }
  }

  delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.body.byteLength;
  }

  clear() {
    this.entries.clear();
    this.bytes = 0;
  }

  get size() {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}
