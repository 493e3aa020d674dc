// Reads across shards merged in the Worker (docs/decisions.md, "Subtitles on the shards"): a row two shards hold is
// listed once; a row named by its id is looked for on the shard that issued the id first.
import { describe, expect, it } from "vitest";
import type { ShardDB } from "../../src/db/shards";
import { SHARD_ID_RANGE } from "../../src/db/queries/shard-rows";
import { findOnShards, keysetAcrossShards, pageAcrossShards, type ShardPart } from "../../src/services/shards";

type Row = { id: number; at: number };
const part = (shard: number): ShardPart => ({ shard, db: { shard } as unknown as ShardDB, leftOut: [] });
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

describe("keysetAcrossShards", () => {
  it("asks each shard for `limit` rows after the position only, keeps a row two shards return once, and cuts the page", async () => {
    const rows: Record<number, Row[]> = {
      1: [5, 4, 3, 1].map((id) => ({ id, at: id * 10 })),
      // Shard 2 holds 4 and 3 as well (a move's window), and 2 of its own.
      2: [4, 3, 2].map((id) => ({ id, at: id * 10 })),
    };
    const asked: number[] = [];
    const after = (position: Row) => async (p: ShardPart, limit: number) => {
      asked.push(limit);
      return rows[p.shard].filter((r) => newestFirst(r, position) > 0).slice(0, limit);
    };
    const page = await keysetAcrossShards([part(1), part(2)], after({ id: 5, at: 50 }), newestFirst, 3, (r) => r.id);
    expect(page.map((r) => r.id)).toEqual([4, 3, 2]);
    expect(asked).toEqual([3, 3]);
    const next = await keysetAcrossShards([part(1), part(2)], after(page[page.length - 1]), newestFirst, 3, (r) => r.id);
    expect(next.map((r) => r.id)).toEqual([1]);
  });
});

describe("findOnShards", () => {
  const parts = [part(1), part(2), part(3)];
  /** A lookup over fake shards holding `held` (shard → ids), recording which shards were asked. */
  const lookup = (held: Record<number, number[]>) => {
    const asked: number[] = [];
    const find = async (db: ShardDB) => {
      const shard = (db as unknown as { shard: number }).shard;
      asked.push(shard);
      return held[shard]?.includes(id) ? { shard } : undefined;
    };
    let id = 0;
    return { asked, find: (wanted: number) => ((id = wanted), findOnShards(parts, wanted, find)) };
  };

  it("asks only the shard whose range issued the id when that shard holds it", async () => {
    const id = 2 * SHARD_ID_RANGE + 7;
    const { asked, find } = lookup({ 2: [id] });
    expect(await find(id)).toEqual({ shard: 2 });
    expect(asked).toEqual([2]);
  });

  it("finds a row whose container moved since on another shard, asking the issuer first", async () => {
    const id = 2 * SHARD_ID_RANGE + 7;
    const { asked, find } = lookup({ 3: [id] });
    expect(await find(id)).toEqual({ shard: 3 });
    expect(asked[0]).toBe(2);
    expect([...asked].sort()).toEqual([1, 2, 3]);
  });

  it("asks every shard at once for an id no shard in the map issued (a row copied from the catalogue)", async () => {
    const { asked, find } = lookup({ 1: [7] });
    expect(await find(7)).toEqual({ shard: 1 });
    expect([...asked].sort()).toEqual([1, 2, 3]);
    expect(await find(9 * SHARD_ID_RANGE + 1)).toBeUndefined();
  });
});
