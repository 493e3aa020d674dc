/**
 * KV holds the catalogue documents that are expensive to build (all.json, genre listings). Each key is
 * deleted by the writes that change it; the TTL is only a backstop.
 */
export const KV_KEYS = {
  // v2: reading order (locale collation); v1 values were in byte order.
  allContainers: "catalogue:all-containers:v2",
  // v2: items carry `set`, and `all` holds both sets. Genres are reference data (migrations only), so these keys
  // are never invalidated by API writes; a migration that changes genres bumps the version.
  genres: (set: "general" | "music" | "all") => `catalogue:genres:${set}:v2`,
} as const;

const TTL_SECONDS = 3600;

export async function cachedJson<T>(kv: KVNamespace, key: string, build: () => Promise<T>): Promise<T> {
  const hit = await kv.get<T>(key, "json");
  if (hit !== null) return hit;
  const value = await build();
  await kv.put(key, JSON.stringify(value), { expirationTtl: TTL_SECONDS });
  return value;
}

/** Called by every write that changes which containers exist, their titles, type or state. */
export async function invalidateCatalogueListings(kv: KVNamespace) {
  await kv.delete(KV_KEYS.allContainers);
}
