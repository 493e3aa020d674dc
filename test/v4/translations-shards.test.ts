// Translations, votes, reports, captions and language totals across the shards (docs/decisions.md, "Subtitles on the
// shards"): two containers on different shards, lists merged in their order, rows named by their id alone found on the
// shard that holds them, totals summed, and a container moving between them counted once.
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { subtitleIdSpans } from "../../src/db/queries/captions";
import { changesAfter, endMove, setMoveState, startMoveLog } from "../../src/db/queries/shard-moves";
import { containerRowCounts, containerRowsAfter, insertRows } from "../../src/db/queries/shard-rows";
import { captionSuggestions, reports, SHARD_TABLES, translationVotes } from "../../src/db/shard-schema";
import { api, createApplication, errorBody, signedInUser, okJson } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { createSubtitles } from "../helpers/localisation";
import { shardOf } from "../helpers/shards";

type Fixture = Awaited<ReturnType<typeof createSubtitles>>;
type Item = { id: string; video_id: string; likes: number; dislikes: number };
type Page = { more: boolean; response: Item[]; count?: number };
type User = Awaited<ReturnType<typeof signedInUser>>;

let app: string;
let alice: User;
let a: { id: number; wireId: string };
let b: { id: number; wireId: string };
/** Subtitles of a's first video, b's video, a's second video: video ids in that order, a's on one shard, b's on the other. */
let a1: Fixture;
let b1: Fixture;
let a2: Fixture;

const wire = (f: Fixture, language: string) => f.subtitles.filter((s) => s.language === language).map((s) => `${s.id}s`);

beforeAll(async () => {
  app = (await createApplication()).wireId;
  alice = await signedInUser();
  a = await createContainer({ originLanguage: "ko" });
  b = await createContainer({ originLanguage: "ko" });
  const va1 = await createVideo(a.id, { number: 1 });
  const vb1 = await createVideo(b.id, { number: 1 });
  const va2 = await createVideo(a.id, { number: 2 });
  a1 = await createSubtitles(va1.id, 2, { ko: 2, en: 2 });
  b1 = await createSubtitles(vb1.id, 3, { ko: 3, en: 3, fr: ["fr 0", null, null] });
  a2 = await createSubtitles(va2.id, 2, { ko: 2, en: 2 });
});

describe("lists across shards", () => {
  it("places the two containers on different shards", async () => {
    expect((await shardOf(a.id)).shard).not.toBe((await shardOf(b.id)).shard);
  });

  it("lists a language's translations by video id then subtitle id, paged and counted over both shards", async () => {
    const expected = [...wire(a1, "en"), ...wire(b1, "en"), ...wire(a2, "en")];
    const all = (await okJson("/v4/translations.json", { app: app, query: { to: "en", with_paging: "true" } })) as Page;
    expect(all.response.map((t) => t.id)).toEqual(expected);
    expect(all.count).toBe(7);
    const pages: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const body = (await okJson("/v4/translations.json", { app: app, query: { to: "en", per_page: "2", page: `${page}` } })) as Page;
      expect(body.more, `page ${page}`).toBe(page < 4);
      pages.push(...body.response.map((t) => t.id));
    }
    expect(pages).toEqual(expected);
  });

  it("lists every translation newest first over both shards by creation time, not by the shard ranges of their ids", async () => {
    // b's shard issues the higher ids; make its translations the oldest, and a's second video's the newest.
    const age = async (f: Fixture, container: number, createdAt: number) =>
      (await shardOf(container)).binding
        .prepare("UPDATE subtitles SET created_at = ?1 WHERE video_id = ?2")
        .bind(createdAt, f.subtitles[0].videoId)
        .run();
    await age(b1, b.id, 1_000);
    await age(a1, a.id, 2_000);
    await age(a2, a.id, 3_000);
    try {
      const byAge = (f: Fixture) =>
        f.subtitles
          .filter((s) => s.language !== "ko")
          .map((s) => s.id)
          .sort((x, y) => y - x);
      const expected = [...byAge(a2), ...byAge(a1), ...byAge(b1)].map((id) => `${id}s`);
      const body = (await okJson("/v4/translations.json", { app: app, query: { per_page: "25" } })) as Page;
      expect(body.response.map((t) => t.id)).toEqual(expected);
    } finally {
      const now = Math.floor(Date.now() / 1000);
      for (const [f, c] of [
        [a1, a.id],
        [b1, b.id],
        [a2, a.id],
      ] as const)
        await age(f, c, now);
    }
  });

  it("lists every translation newest (then highest id) first over both shards", async () => {
    const ids = [...a1.subtitles, ...b1.subtitles, ...a2.subtitles].filter((s) => s.language !== "ko").map((s) => s.id);
    const expected = ids.sort((x, y) => y - x).map((id) => `${id}s`);
    const first = (await okJson("/v4/translations.json", { app: app, query: { per_page: "3", with_paging: "true" } })) as Page;
    expect(first).toMatchObject({ more: true, count: 8 });
    const second = (await okJson("/v4/translations.json", { app: app, query: { per_page: "3", page: "2" } })) as Page;
    const third = (await okJson("/v4/translations.json", { app: app, query: { per_page: "3", page: "3" } })) as Page;
    expect([...first.response, ...second.response, ...third.response].map((t) => t.id)).toEqual(expected);
  });

  it("sums the language totals of both shards", async () => {
    expect(await okJson("/v4/translations/languages.json", { app: app })).toEqual([
      { language: "en", count: 7 },
      { language: "fr", count: 1 },
    ]);
    expect(await okJson("/v4/captions/languages.json", { app: app })).toEqual([{ language: "ko", count: 7 }]);
  });

  it("sees each block of subtitle ids a shard holds, so a random start never falls between two ranges", async () => {
    const { db, binding } = await shardOf(b.id);
    const ids = b1.subtitles.map((s) => s.id);
    expect(await subtitleIdSpans(db)).toEqual([{ lo: Math.min(...ids), hi: Math.max(...ids) }]);
    // A row copied from the catalogue keeps its id, below every shard's range.
    await binding
      .prepare(
        "INSERT INTO subtitles (id, container_id, segment_id, video_id, language, text) SELECT 7, container_id, segment_id, video_id, 'de', 'x' FROM subtitles WHERE id = ?",
      )
      .bind(ids[0])
      .run();
    try {
      expect(await subtitleIdSpans(db)).toEqual([
        { lo: 7, hi: 7 },
        { lo: Math.min(...ids), hi: Math.max(...ids) },
      ]);
    } finally {
      await binding.prepare("DELETE FROM subtitles WHERE id = 7").run();
    }
  });

  it("draws captions from both shards", async () => {
    const containers = new Set<string>();
    for (let i = 0; i < 30 && containers.size < 2; i++) {
      containers.add(
        ((await okJson("/v4/captions/random.json", { app: app, query: { from: "ko", to: "es" } })) as { container_id: string })
          .container_id,
      );
    }
    expect([...containers].sort()).toEqual([a.wireId, b.wireId].sort());
  });
});

describe("rows named by their id alone, on either shard", () => {
  it("votes on a translation where its subtitle is, and lists the counts", async () => {
    for (const [fixture, container] of [
      [a1, a],
      [b1, b],
    ] as const) {
      const target = fixture.at("en", 0);
      const res = await api(`/v4/translations/${target.wireId}/like.json`, { method: "POST", app, token: alice.token });
      expect(await res.json()).toEqual({ id: target.wireId, likes: 1, dislikes: 0, vote: 1 });
      const { db } = await shardOf(container.id);
      const [vote] = await db.select().from(translationVotes).where(eq(translationVotes.subtitleId, target.id));
      expect(vote).toMatchObject({ userId: alice.user.id, containerId: container.id, value: 1 });
    }
    const listed = (await okJson("/v4/translations.json", { app: app, query: { to: "en" } })) as Page;
    expect(listed.response.filter((t) => t.likes === 1).map((t) => t.id)).toEqual([a1.at("en", 0).wireId, b1.at("en", 0).wireId]);
  });

  it("stores reports and suggestions on the subtitle's shard, with the names they show", async () => {
    const original = b1.at("ko", 1);
    expect(
      (await api(`/v4/translations/${original.wireId}/report.json`, { method: "POST", app, token: alice.token, json: { reason: "typo" } }))
        .status,
    ).toBe(201);
    const suggestion = await api("/v4/captions.json", {
      method: "POST",
      app,
      token: alice.token,
      json: { origin_subtitle_id: original.wireId, language: "es", content: "Hola" },
    });
    expect(suggestion.status).toBe(201);
    const { db } = await shardOf(b.id);
    const [report] = await db
      .select()
      .from(reports)
      .where(and(eq(reports.subtitleId, original.id), eq(reports.userId, alice.user.id)));
    expect(report).toMatchObject({ username: alice.user.username, containerId: b.id, reason: "typo", text: "ko 1" });
    const [stored] = await db.select().from(captionSuggestions).where(eq(captionSuggestions.originSubtitleId, original.id));
    expect(stored).toMatchObject({ id: ((await suggestion.json()) as { id: number }).id, containerId: b.id, content: "Hola" });
  });
});

describe("while a container's rows are not where the lists expect them", () => {
  it("counts a container moving to the other shard once; its writes go on during the copy and are refused under the fence", async () => {
    // The move's copy is under way: a's rows on both shards, the directory naming the target.
    const source = await shardOf(a.id);
    const target = await shardOf(b.id);
    for (const table of SHARD_TABLES) await insertRows(target.db, table, await containerRowsAfter(source.db, table, a.id, 0, 1000));
    expect((await containerRowCounts(target.db, a.id)).subtitles).toBe(8);
    await env.DB.prepare("UPDATE shard_directory SET moving_to = ? WHERE container_id = ?").bind(target.shard, a.id).run();
    const en = (await okJson("/v4/translations.json", { app: app, query: { to: "en", with_paging: "true" } })) as Page;
    expect(en.count).toBe(7);
    expect(en.response.map((t) => t.id)).toEqual([...wire(a1, "en"), ...wire(b1, "en"), ...wire(a2, "en")]);
    expect(((await okJson("/v4/translations.json", { app: app, query: { with_paging: "true" } })) as Page).count).toBe(8);
    expect(await okJson("/v4/translations/languages.json", { app: app })).toEqual([
      { language: "en", count: 7 },
      { language: "fr", count: 1 },
    ]);
    // Its writes go on to the source during the copy, logged there for the target, and are refused (503) only under
    // the move's fence (docs/decisions.md, "Online moves").
    await startMoveLog(source.db, a.id);
    const vote = await api(`/v4/translations/${a1.at("en", 1).wireId}/dislike.json`, { method: "POST", app, token: alice.token });
    expect(vote.status).toBe(200);
    expect(await changesAfter(source.db, a.id, 0, 10)).toEqual([expect.objectContaining({ tableName: "translation_votes" })]);
    await setMoveState(source.db, a.id, "fenced");
    const fenced = await api(`/v4/translations/${a2.at("en", 1).wireId}/dislike.json`, { method: "POST", app, token: alice.token });
    expect(fenced.status).toBe(503);
    expect(fenced.headers.get("retry-after")).toBe("5");
    expect((await errorBody(fenced)).error).toContain("moving");
    expect(await endMove(source.db, a.id, 100)).toBe(true);
  });
});
