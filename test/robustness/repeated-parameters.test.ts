// A repeated query parameter and the edge cache (docs/decisions.md, "Paging ceiling and repeated parameters"): a
// handler reads the last of a repeated scalar, so the cache key keeps the order of a parameter's values. When the key
// sorted them, `?page=3&page=2` stored page 2 under the key of `?page=2&page=3`, which was then served page 2.
import { describe, expect, it } from "vitest";
import { edgeKey } from "../../src/services/edge-cache";
import { api, createApplication } from "../helpers";
import { createContainer } from "../helpers/catalogue";

type Json = any;

const cacheOf = (res: Response) => /cache;desc="(\w+)"/.exec(res.headers.get("server-timing") ?? "")?.[1] ?? null;
const idsOf = async (res: Response) => ((await res.json()) as Json).response.map((c: Json) => c.id) as string[];

describe("repeated query parameters", () => {
  it("keep their order in the cache key; other parameters are still sorted", () => {
    const key = (q: string) => edgeKey(`https://api.test/v4/containers.json?${q}`, {}, ["1"]);
    expect(key("page=3&page=2")).not.toBe(key("page=2&page=3"));
    expect(key("per_page=1&page=3&page=2")).toBe(key("page=3&per_page=1&page=2"));
    expect(key("page=2&per_page=1")).toBe(key("per_page=1&page=2"));
  });

  it("?page=3&page=2 and ?page=2&page=3 are never served each other's body", async () => {
    for (let i = 0; i < 4; i++) await createContainer({ title: `Repeated ${i}` });
    const page = async (n: number) => idsOf(await api("/v4/containers.json", { query: { per_page: "1", page: String(n) } }));
    const [two, three] = [await page(2), await page(3)];
    expect(two).not.toEqual(three);
    // Stored first, then the other order: each is its last page, both times (the second read is a hit of its own).
    for (const [sent, expected, cache] of [
      ["page=3&page=2", two, "miss"],
      ["page=2&page=3", three, "miss"],
      ["page=3&page=2", two, "hit"],
      ["page=2&page=3", three, "hit"],
    ] as const) {
      const res = await api(`/v4/containers.json?per_page=1&${sent}`);
      expect(res.status, sent).toBe(200);
      expect(cacheOf(res), sent).toBe(cache);
      expect(await idsOf(res), sent).toEqual(expected);
    }
  });

  it("app= given twice is its last value, as every scalar parameter", async () => {
    const known = (await createApplication()).wireId;
    // Unsigned: a signed request naming an unknown application is a 401 whatever its order.
    const lastKnown = await api(`/v4/containers.json?app=999999a&app=${known}`, { unsigned: true });
    expect(lastKnown.status).toBe(200);
    expect(lastKnown.headers.get("x-app-ignored")).toBeNull();
    const lastUnknown = await api(`/v4/containers.json?app=${known}&app=999999a`, { unsigned: true });
    expect(lastUnknown.status).toBe(200);
    expect(lastUnknown.headers.get("x-app-ignored")).toBe("unknown");
  });
});
