import { env } from "cloudflare:workers";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findJob, insertJob } from "../../src/db/queries/jobs";
import { allocateShardIdsStatement, firstAllocatedId } from "../../src/db/queries/shard-rows";
import { videoFactsRowsStatements } from "../../src/db/queries/shard-facts";
import { runBatch } from "../../src/db/raw-batch";
import { containerFacets, containers, subtitleCompletions, videos } from "../../src/db/schema";
import { subtitles } from "../../src/db/shard-schema";
import { recomputeCompletions } from "../../src/services/completions";
import { db } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { createSubtitles, videoShard } from "../helpers/localisation";
import { shardOf } from "../helpers/shards";
import { deliver } from "../helpers/subtitles";

/**
 * A video with `n` segments and, per language, texts on the first k of them (`""` texts count as none), on its
 * container's shard (docs/decisions.md, "Subtitles on the shards").
 */
async function videoWith(
  containerId: number,
  n: number,
  texts: Record<string, number>,
  opts: { state?: "normal" | "pending"; blank?: string } = {},
) {
  const video = await createVideo(containerId, { state: opts.state ?? "normal" });
  if (!n) return video.id;
  const spec: Record<string, number | string[]> = { ...texts };
  if (opts.blank) spec[opts.blank] = Array.from({ length: n }, () => "  ");
  await createSubtitles(video.id, n, spec);
  return video.id;
}

/** The recompute as the job runs it: the catalogue and the shards (opened from the bindings). */
const recompute = (scope: { videoIds: number[]; containerIds: number[] }) => recomputeCompletions({ db: db(), env }, scope);

const completionsOf = async (kind: "c" | "v", id: number) =>
  Object.fromEntries(
    (
      await db()
        .select({ language: subtitleCompletions.language, percent: subtitleCompletions.percent })
        .from(subtitleCompletions)
        .where(and(eq(subtitleCompletions.resourceKind, kind), eq(subtitleCompletions.resourceId, id)))
        .all()
    ).map((r) => [r.language, r.percent]),
  );

const docVersions = async (videoIds: number[], containerId: number) => ({
  videos: (
    await db()
      .select({ v: videos.docVersion })
      .from(videos)
      .where(sql`${videos.id} IN (${sql.join(videoIds, sql`, `)})`)
      .all()
  ).map((r) => r.v),
  container: (await db().select({ v: containers.docVersion }).from(containers).where(eq(containers.id, containerId)).get())!.v,
});

describe("completion recompute", () => {
  it("per video: floor(100 × segments with text / segments); blank texts do not count", async () => {
    const c = await createContainer({ title: "Completion videos" });
    const v = await videoWith(c.id, 3, { en: 3, fr: 1 }, { blank: "de" });
    const empty = await videoWith(c.id, 0, {});
    await recompute({ videoIds: [v, empty], containerIds: [] });
    expect(await completionsOf("v", v)).toEqual({ en: 100, fr: 33 });
    expect(await completionsOf("v", empty)).toEqual({});
  });

  it("per container: weighted by segments over its normal-state videos (not an average of the videos)", async () => {
    const c = await createContainer({ title: "Completion weighting" });
    const long = await videoWith(c.id, 4, { en: 4 });
    const short = await videoWith(c.id, 1, { fr: 1 });
    const pending = await videoWith(c.id, 10, { en: 10, ko: 10 }, { state: "pending" });
    await recompute({ videoIds: [long, short, pending], containerIds: [c.id] });
    // en: (4 + 0) / (4 + 1) = 80 (the mean of 100 and 0 would be 50); fr: 1 / 5 = 20; the pending video adds nothing.
    expect(await completionsOf("c", c.id)).toEqual({ en: 80, fr: 20 });
    expect(await completionsOf("v", pending)).toEqual({ en: 100, ko: 100 });

    // The triggers carried the values into the documents and the listing facets (threshold 50 %).
    const container = await db().select({ doc: containers.doc }).from(containers).where(eq(containers.id, c.id)).get();
    expect(container?.doc?.subtitle_completions).toEqual({ en: 80, fr: 20 });
    const video = await db().select({ doc: videos.doc }).from(videos).where(eq(videos.id, long)).get();
    expect(video?.doc?.subtitle_completions).toEqual({ en: 100 });
    const facets = (
      await db().select({ f: containerFacets.facet }).from(containerFacets).where(eq(containerFacets.containerId, c.id)).all()
    ).map((r) => r.f);
    expect(facets).toContain("sub:en");
    expect(facets).not.toContain("sub:fr");
  });

  it("writes nothing when nothing changed, and deletes languages that lost their last text", async () => {
    const c = await createContainer({ title: "Completion idempotence" });
    const a = await videoWith(c.id, 2, { en: 2, fr: 1 });
    const b = await videoWith(c.id, 2, { en: 1 });
    const scope = { videoIds: [a, b], containerIds: [c.id] };
    await recompute(scope);
    const versions = await docVersions([a, b], c.id);
    const again = await recompute(scope);
    expect(again.rows_written).toBe(0);
    expect(await docVersions([a, b], c.id)).toEqual(versions);

    const { db: shard } = await videoShard(a);
    await shard.delete(subtitles).where(and(eq(subtitles.videoId, a), eq(subtitles.language, "fr")));
    await recompute(scope);
    expect(await completionsOf("v", a)).toEqual({ en: 100 });
    expect(await completionsOf("c", c.id)).toEqual({ en: 75 });
    const video = await db().select({ doc: videos.doc }).from(videos).where(eq(videos.id, a)).get();
    expect(video?.doc?.subtitle_completions).toEqual({ en: 100 });
  });

  it("reads each container's subtitles on its own shard", async () => {
    // Containers go to the shard holding the fewest: a few more and one lands on the other test shard.
    const a = await createContainer({ title: "Completion shard a" });
    let b = await createContainer({ title: "Completion shard b" });
    while ((await shardOf(b.id)).shard === (await shardOf(a.id)).shard) b = await createContainer({ title: "Completion shard b" });
    const va = await videoWith(a.id, 4, { en: 1 });
    const vb = await videoWith(b.id, 2, { en: 2, de: 1 });
    await recompute({ videoIds: [va, vb], containerIds: [a.id, b.id] });
    expect([await completionsOf("v", va), await completionsOf("v", vb)]).toEqual([{ en: 25 }, { en: 100, de: 50 }]);
    expect([await completionsOf("c", a.id), await completionsOf("c", b.id)]).toEqual([{ en: 25 }, { en: 100, de: 50 }]);
  });

  it("runs as a queued job with {videoIds, containerIds} params", async () => {
    const c = await createContainer({ title: "Completion job" });
    const v = await videoWith(c.id, 4, { es: 3 });
    const job = await insertJob(db(), { type: "completion", params: { videoIds: [v], containerIds: [c.id] } });
    const outcome = await deliver({ type: "completion", jobId: job.id });
    expect(outcome.explicitAcks).toHaveLength(1);
    expect(await findJob(db(), job.id)).toMatchObject({ status: "succeeded", result: { videos: 1, containers: 1 } });
    expect(await completionsOf("v", v)).toEqual({ es: 75 });
    expect(await completionsOf("c", c.id)).toEqual({ es: 75 });

    const bad = await insertJob(db(), { type: "completion", params: { videoIds: "all" } });
    await deliver({ type: "completion", jobId: bad.id });
    expect(await findJob(db(), bad.id)).toMatchObject({ status: "failed", error: "malformed completion parameters" });
  });

  it("speed: recomputes a container of 100 videos (20 segments each, 3 languages) in one job", async () => {
    const c = await createContainer({ title: "Completion hundred" });
    const ids: number[] = [];
    for (let i = 0; i < 100; i++) ids.push((await createVideo(c.id, { number: i + 1 })).id);
    // Bulk fixtures in SQL on the container's shard: the videos' facts, 2,000 segments, 20 per video, and texts in en
    // (all), fr (half), ko (video i: i % 21), ids from the shard's range.
    const { shard, db: shardDb } = await shardOf(c.id);
    const facts = ids.map((id, i) => ({ video_id: id, state: "normal", origin_language: "", number: i + 1 }));
    await runBatch(shardDb, [
      ...videoFactsRowsStatements(c.id, facts),
      allocateShardIdsStatement(shardDb, shard, 2000).getSQL(),
      sql`INSERT INTO segments (id, container_id, video_id, start_ms, end_ms)
        SELECT ${firstAllocatedId(shard, 2000)} + v.key * 20 + s.value, ${c.id}, v.value, s.value * 1000, s.value * 1000 + 900
        FROM json_each(${JSON.stringify(ids)}) v, json_each('[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19]') s`,
    ]);
    const texts = 2000 + 1000 + ids.reduce((sum, id) => sum + Math.min(20, id % 21), 0);
    await runBatch(shardDb, [
      allocateShardIdsStatement(shardDb, shard, texts).getSQL(),
      sql`INSERT INTO subtitles (id, container_id, segment_id, video_id, language, text)
        SELECT ${firstAllocatedId(shard, texts)} + row_number() OVER () - 1, s.container_id, s.id, s.video_id, l.value, 'x'
        FROM segments s JOIN json_each('["en","fr","ko"]') l
        WHERE s.video_id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))
          AND (l.value = 'en' OR (l.value = 'fr' AND s.start_ms < 10000) OR (l.value = 'ko' AND s.start_ms / 1000 < s.video_id % 21))`,
    ]);

    const job = await insertJob(db(), { type: "completion", params: { videoIds: ids, containerIds: [c.id] } });
    const started = performance.now();
    await deliver({ type: "completion", jobId: job.id });
    const elapsed = performance.now() - started;
    const done = await findJob(db(), job.id);
    expect(done).toMatchObject({ status: "succeeded", result: { videos: 100, containers: 1 } });
    console.log(JSON.stringify({ bench: "completion-100-videos", ms: Math.round(elapsed), rows_written: done?.result?.rows_written }));

    const expectedKo = Math.floor((100 * ids.reduce((sum, id) => sum + Math.min(20, id % 21), 0)) / 2000);
    expect(await completionsOf("c", c.id)).toEqual(expectedKo > 0 ? { en: 100, fr: 50, ko: expectedKo } : { en: 100, fr: 50 });
    expect(await completionsOf("v", ids[0])).toMatchObject({ en: 100, fr: 50 });
  });
});
