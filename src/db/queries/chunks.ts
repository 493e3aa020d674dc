/** D1 binds at most 100 parameters per statement, so id lists are read in chunks of this many. */
const IDS_PER_LOOKUP = 100;

/**
 * Runs one `IN (...)` lookup per chunk of ids (in parallel) and concatenates the rows. (An
 * `IN (SELECT value FROM json_each(?))` would bind once, but D1 counts three rows read per id against two.)
 */
export async function inChunks<T>(ids: number[], lookup: (chunk: number[]) => Promise<T[]>): Promise<T[]> {
  const chunks: number[][] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_LOOKUP) chunks.push(ids.slice(i, i + IDS_PER_LOOKUP));
  return (await Promise.all(chunks.map(lookup))).flat();
}
