import { subtitleTextsAfter, writeIndexFormsStatement } from "../db/queries/subtitle-search";
import type { ShardDB } from "../db/shards";
import { indexForm } from "../domain/search-text";

/** Lines read and written per statement pair: the JSON of 200 lines stays well under D1's 100 KB a statement. */
export const INDEX_CHUNK_LINES = 200;

export interface IndexProgress {
  /** The last line id indexed: the walk resumes after it. */
  afterId: number;
  /** Lines indexed so far, and those whose stored index form was missing or wrong. */
  indexed: number;
  corrected: number;
}

/**
 * Builds a shard's subtitle search index again, a chunk of lines at a time in id order (one container's with
 * `containerId`), from `from` (docs/operations.md, "Subtitle search index"): each line's index form computed here
 * (SQL cannot) and written with it, which rewrites its index entry through the update trigger. Lines written while it
 * runs are indexed by their own writes; a line edited between its read and its write keeps its writer's form.
 * `checkpoint(progress)` is called before each chunk: a continuing job throws there when its delivery's share is spent.
 */
export async function indexShardSubtitles(
  db: ShardDB,
  scope: { containerId?: number },
  from: IndexProgress,
  checkpoint: (progress: IndexProgress) => void,
): Promise<IndexProgress> {
  let progress = from;
  for (;;) {
    checkpoint(progress);
    const lines = await subtitleTextsAfter(db, { afterId: progress.afterId, containerId: scope.containerId, limit: INDEX_CHUNK_LINES });
    if (!lines.length) return progress;
    const rows = lines.map((l) => ({ id: l.id, t: l.text, x: indexForm(l.text) }));
    await writeIndexFormsStatement(db, rows);
    const corrected = rows.filter((r, i) => r.x !== lines[i].searchText).length;
    progress = { afterId: lines.at(-1)!.id, indexed: progress.indexed + lines.length, corrected: progress.corrected + corrected };
  }
}
