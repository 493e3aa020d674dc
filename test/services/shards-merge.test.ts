// Reads across shards merged in the Worker (docs/decisions.md, "Subtitles on the shards"): a row two shards hold is
// listed once.
import { describe, expect, it } from "vitest";
import type { ShardDB } from "../../src/db/shards";
import { pageAcrossShards, type ShardPart } from "../../src/services/shards";

type Row = { id: number; at: number };
const part = (shard: number): ShardPart => ({ shard, db: {} as ShardDB, leftOut: [] });
const newestFirst = (x: Row, y: Row) => y.at - x.at || y.id - x.id;

describe("pageAcrossShards", () => {
  it("keeps a row two shards return once, and still fills the page", async () => {
    const rows: Record<number, Row[]> = {
      1: [
        { id: 5, at: 50 },
        { id: 4, at: 40 },
        { id: 3, at: 30 },
      ],
      // Shard 2 holds 4 and 3 as well (a container whose source still has its rows), and 2 of its own.
      2: [
        { id: 4, at: 40 },
        { id: 3, at: 30 },
        { id: 2, at: 20 },
      ],
    };
    const read = async (p: ShardPart, limit: number) => rows[p.shard].slice(0, limit);
    const page = (offset: number, limit: number) => pageAcrossShards([part(1), part(2)], read, newestFirst, offset, limit, (r) => r.id);
    expect((await page(0, 3)).map((r) => r.id)).toEqual([5, 4, 3]);
    expect((await page(1, 2)).map((r) => r.id)).toEqual([4, 3]);
    expect((await page(2, 2)).map((r) => r.id)).toEqual([3, 2]);
  });
});
