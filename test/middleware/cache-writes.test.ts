// Every write keeps the cached public reads true (docs/decisions.md, "Edge cache"; docs/development.md, "Tests", the
// write table): after each write of test/helpers/write-effects.ts, and the jobs it enqueues, every public read answered
// through the caches equals the same read computed afresh. The test knows nothing of how a writer invalidates, only
// what the reads answer.
import { beforeAll, describe, expect, it } from "vitest";
import "../../src/app";
import { registeredRoutes } from "../../src/lib/route-registry";
import { lastJobId } from "../helpers/jobs";
import { type Answer, forceFresh, publicReads, type Read, readAll, settleJobs, staleReads } from "../helpers/public-reads";
import { exampleWrite, openApiDocument } from "../helpers/example-writes";
import { WRITES } from "../helpers/write-effects";
import { type EffectfulWrite, type WriteScene, writeScene } from "../helpers/write-scene";

const READS = new Set(["GET", "HEAD"]);

let scene: WriteScene;
let reads: Read[];

beforeAll(async () => {
  scene = await writeScene();
  reads = publicReads(scene.targets);
});

/** Forces every cache fresh and reads everything: the true answers, which also leaves every read warm again. */
async function freshAnswers(): Promise<Map<string, Answer>> {
  await forceFresh(scene.videoIds);
  return readAll(reads);
}

/** The write routes the table does not name, each sent as its declared example says (test/helpers/example-writes.ts). */
let declared: EffectfulWrite[] = [];
let undeclared: string[] = [];

beforeAll(async () => {
  const doc = await openApiDocument();
  const named = new Set(WRITES.map((w) => w.route));
  const unnamed = registeredRoutes().filter((r) => !READS.has(r.method) && !named.has(`${r.method} ${r.path}`));
  declared = unnamed.map((r) => exampleWrite(doc, r)).filter((w): w is EffectfulWrite => w !== undefined);
  undeclared = unnamed.map((r) => `${r.method} ${r.path}`).filter((route) => !declared.some((w) => w.route === route));
});

describe("the write table", () => {
  it("names every registered write route once, or the route declares an example body it is sent with", () => {
    const registered = registeredRoutes()
      .filter((r) => !READS.has(r.method))
      .map((r) => `${r.method} ${r.path}`);
    const named = WRITES.map((w) => w.route);
    expect(
      named.filter((r, i) => named.indexOf(r) !== i),
      "named twice",
    ).toEqual([]);
    expect(
      named.filter((r) => !registered.includes(r)),
      "named in the table (test/helpers/write-effects.ts) but not registered",
    ).toEqual([]);
    expect(undeclared, "write routes with neither a line in the table nor an example body on the route").toEqual([]);
    for (const w of WRITES) if ("noPublicEffect" in w) expect(w.noPublicEffect.trim(), w.route).not.toBe("");
  });

  it("reads every public GET, and a warm read of each 200 answer is a cache hit", async () => {
    const publicGets = registeredRoutes().filter((r) => r.method === "GET" && r.properties.cache === "public");
    expect(new Set(reads.map((r) => r.route))).toEqual(
      new Set([...publicGets.map((r) => `GET ${r.path}`), "GET /v4/videos/:video_id/subtitle_tracks/:file"]),
    );
    const first = await freshAnswers();
    const again = await readAll(reads);
    const edge = reads.filter((r) => r.route !== "GET /v4/videos/:video_id/subtitle_tracks/:file");
    const ok = edge.filter((r) => first.get(r.path)!.status === 200);
    expect(
      edge.filter((r) => !ok.includes(r)).map((r) => `${r.path}: ${first.get(r.path)!.status}`),
      "public reads that do not answer 200 on the scene",
    ).toEqual([]);
    expect(ok.filter((r) => again.get(r.path)!.cache !== "hit").map((r) => r.path)).toEqual([]);
  });
});

describe("after each write, every public read through the caches answers what it answers afresh", () => {
  it("runs the writes the routes declare, then those of the table, in order", { timeout: 240_000 }, async () => {
    const effectful = [...declared, ...WRITES.filter((w): w is EffectfulWrite => "write" in w)];
    const stale: string[] = [];
    const shown: string[] = [];
    let before = await freshAnswers();
    // Writes said to show nothing are checked together, up to the next write that shows something.
    let quiet: EffectfulWrite[] = [];
    const check = async (wrote: EffectfulWrite[]) => {
      const cached = await readAll(reads);
      const fresh = await freshAnswers();
      const label = wrote.map((w) => w.route).join(", ");
      stale.push(...staleReads(reads, cached, fresh).map((line) => `after ${label}: ${line}`));
      if (wrote.every((w) => w.showsNothing))
        shown.push(...staleReads(reads, before, fresh).map((line) => `${label} (said to show nothing) changed ${line}`));
      before = fresh;
    };
    for (const w of effectful) {
      if (quiet.length && (!w.showsNothing || w.prepare)) {
        await check(quiet);
        quiet = [];
      }
      if (w.prepare) {
        await w.prepare(scene);
        before = await freshAnswers();
      }
      const since = await lastJobId();
      const res = await w.write(scene);
      expect(res.status, `${w.route}: ${await res.clone().text()}`).toBe(w.ok);
      await settleJobs(since, w.route);
      if (w.showsNothing) quiet.push(w);
      else await check([w]);
    }
    if (quiet.length) await check(quiet);
    // `stale`: public reads a write left stale. `shown`: public reads changed by writes said to show nothing (give
    // such a write its own check, without `showsNothing`).
    expect({ stale, shown }).toEqual({ stale: [], shown: [] });
  });
});
