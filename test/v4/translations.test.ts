import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { reports } from "../../src/db/shard-schema";
import { api, createApplication, errorBody, rowsRead, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { createSubtitles } from "../helpers/localisation";
import { shardOf } from "../helpers/shards";

type User = Awaited<ReturnType<typeof signedInUser>>;
type Fixture = Awaited<ReturnType<typeof createSubtitles>>;
type Item = {
  id: string;
  segment: { start_ms: number; end_ms: number };
  video_id: string;
  language: string;
  text: string;
  original: { id: string; language: string; text: string } | null;
  likes: number;
  dislikes: number;
  author: { id: string; username: string } | null;
};
type Page = { more: boolean; response: Item[]; count?: number };

const SPELLINGS = ["tranlslations", "translations"] as const;
let app: string;
let author: User;
let alice: User;
let bob: User;
let series: { id: number; wireId: string };
let ep1: { id: number; wireId: string };
let ep2: { id: number; wireId: string };
let englishVideo: { id: number; wireId: string };
let hidden: { id: number; wireId: string };
let subs1: Fixture;
let subsEnglish: Fixture;
let subsHidden: Fixture;

beforeAll(async () => {
  app = (await createApplication()).wireId;
  [author, alice, bob] = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
  // A Korean series: episode 2 is created first so episode order differs from id order.
  series = await createContainer({ originLanguage: "ko" });
  ep2 = await createVideo(series.id, { number: 2 });
  ep1 = await createVideo(series.id, { number: 1 });
  hidden = await createVideo(series.id, { number: 3, state: "blocked" });
  subs1 = await createSubtitles(ep1.id, 6, { ko: 6, en: 4, es: [null, "es 1", null, "es 3", null, null] }, { authorId: author.user.id });
  await createSubtitles(ep2.id, 3, { ko: 3, en: 3 });
  subsHidden = await createSubtitles(hidden.id, 2, { ko: 2, en: 2 });
  // A video of the same series whose own origin language is English: its Korean subtitles are translations.
  englishVideo = await createVideo(series.id, { number: 4, originLanguage: "en" });
  subsEnglish = await createSubtitles(englishVideo.id, 3, { en: 3, ko: 2 });
});

describe("translations: happy path", () => {
  it("lists a video's translations under both spellings, with timing, original, author and votes", async () => {
    for (const spelling of SPELLINGS) {
      const res = await api(`/v4/${spelling}.json`, { app: app, query: { video_id: `${ep1.wireId}` } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Page;
      expect(body.more).toBe(false);
      // Korean is the origin: never listed. English first, then Spanish, each in id order.
      expect(body.response.map((t) => t.text)).toEqual(["en 0", "en 1", "en 2", "en 3", "es 1", "es 3"]);
      expect(body.response[4]).toEqual({
        id: subs1.at("es", 1).wireId,
        segment: { start_ms: 1000, end_ms: 1900 },
        video_id: ep1.wireId,
        language: "es",
        text: "es 1",
        original: { id: subs1.at("ko", 1).wireId, language: "ko", text: "ko 1" },
        likes: 0,
        dislikes: 0,
        author: { id: author.id, username: author.user.username },
        created_at: expect.stringMatching(/Z$/),
        updated_at: expect.stringMatching(/Z$/),
      });
    }
  });

  it("filters a video by target and origin language", async () => {
    const es = (await (await api("/v4/translations.json", { app: app, query: { video_id: `${ep1.wireId}`, to: "es" } })).json()) as Page;
    expect(es.response.map((t) => t.id)).toEqual([subs1.at("es", 1).wireId, subs1.at("es", 3).wireId]);
    const fromKo = (await (
      await api("/v4/translations.json", { app: app, query: { video_id: `${ep1.wireId}`, from: "ko", to: "en" } })
    ).json()) as Page;
    expect(fromKo.response).toHaveLength(4);
    const fromEn = (await (
      await api("/v4/translations.json", { app: app, query: { video_id: `${ep1.wireId}`, from: "en" } })
    ).json()) as Page;
    expect(fromEn.response).toEqual([]);
    const toOrigin = (await (
      await api("/v4/translations.json", { app: app, query: { video_id: `${ep1.wireId}`, to: "ko" } })
    ).json()) as Page;
    expect(toOrigin.response).toEqual([]);
  });

  it("lists a container's translations in episode order, leaving out hidden videos and originals", async () => {
    const res = await api("/v4/tranlslations.json", { app: app, query: { container_id: `${series.wireId}`, to: "en" } });
    const body = (await res.json()) as Page;
    // Episode 1 (4), episode 2 (3); the blocked episode 3 is left out; in episode 4 English is the origin.
    expect(body.response.map((t) => t.video_id)).toEqual([...Array(4).fill(ep1.wireId), ...Array(3).fill(ep2.wireId)]);
    const ko = (await (
      await api("/v4/tranlslations.json", { app: app, query: { container_id: `${series.wireId}`, to: "ko" } })
    ).json()) as Page;
    expect(ko.response.map((t) => t.id)).toEqual([subsEnglish.at("ko", 0).wireId, subsEnglish.at("ko", 1).wireId]);
    expect(ko.response[0].original).toEqual({ id: subsEnglish.at("en", 0).wireId, language: "en", text: "en 0" });
  });

  it("lists every translation into a language, by video, skipping videos where it is the origin", async () => {
    const ko = (await (await api("/v4/translations.json", { app: app, query: { to: "ko" } })).json()) as Page;
    expect(ko.response.map((t) => t.id)).toEqual([subsEnglish.at("ko", 0).wireId, subsEnglish.at("ko", 1).wireId]);
    const en = (await (await api("/v4/translations.json", { app: app, query: { to: "en", from: "ko", per_page: "5" } })).json()) as Page;
    expect(en.more).toBe(true);
    expect(en.response.map((t) => t.video_id)).toEqual([...Array(3).fill(ep2.wireId), ep1.wireId, ep1.wireId]);
    const page2 = (await (
      await api("/v4/translations.json", { app: app, query: { to: "en", from: "ko", per_page: "5", page: "2", with_paging: "true" } })
    ).json()) as Page;
    expect(page2).toMatchObject({ more: false, count: 7 });
    expect(page2.response.map((t) => t.text)).toEqual(["en 2", "en 3"]);
  });

  it("counts one vote per user: a new vote replaces the old one", async () => {
    const targets = [subs1.at("en", 2), subs1.at("en", 3)];
    for (const [i, spelling] of SPELLINGS.entries()) {
      const target = targets[i];
      const base = `/v4/${spelling}/${target.wireId}`;
      expect(await (await api(`${base}/like.json`, { method: "POST", app, token: alice.token })).json()).toEqual({
        id: target.wireId,
        likes: 1,
        dislikes: 0,
        vote: 1,
      });
      expect(await (await api(`${base}/like.json`, { method: "POST", app, token: alice.token })).json()).toMatchObject({
        likes: 1,
        dislikes: 0,
      });
      expect(await (await api(`${base}/dislike.json`, { method: "POST", app, token: alice.token })).json()).toEqual({
        id: target.wireId,
        likes: 0,
        dislikes: 1,
        vote: -1,
      });
      const bobs = await api(`${base}/like.json`, {
        method: "POST",
        app,
        token: bob.token,
        json: { origin_subtitle_id: subs1.at("ko", 2).wireId, reason: "nice" },
      });
      expect(bobs.status).toBe(200);
      expect(await bobs.json()).toEqual({ id: target.wireId, likes: 1, dislikes: 1, vote: 1 });
    }
    // An empty JSON body is no body.
    const empty = await api(`/v4/translations/${targets[0].wireId}/like.json?app=${app}&token=${bob.token}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    expect(await empty.json()).toEqual({ id: targets[0].wireId, likes: 1, dislikes: 1, vote: 1 });
    const list = (await (await api("/v4/translations.json", { app: app, query: { video_id: `${ep1.wireId}`, to: "en" } })).json()) as Page;
    const voted = new Set(targets.map((t) => t.wireId));
    expect(list.response.filter((t) => voted.has(t.id)).map((t) => [t.likes, t.dislikes])).toEqual([
      [1, 1],
      [1, 1],
    ]);
    expect(list.response.filter((t) => !voted.has(t.id)).every((t) => t.likes === 0 && t.dislikes === 0)).toBe(true);
  });

  it("stores one report per user and original subtitle", async () => {
    const original = subs1.at("ko", 3);
    const first = await api(`/v4/tranlslations/${original.wireId}/report.json`, {
      method: "POST",
      app,
      token: alice.token,
      json: { reason: "typo in the name" },
    });
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ ok: true });
    const again = await api(`/v4/translations/${original.wireId}/report.json`, {
      method: "POST",
      app,
      token: alice.token,
      json: { reason: "still wrong" },
    });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ ok: true });
    expect((await api(`/v4/translations/${original.wireId}/report.json`, { method: "POST", app, token: bob.token })).status).toBe(201);
    // Reports live on the container's shard (docs/decisions.md, "Subtitles on the shards").
    const { db: shard } = await shardOf(series.id);
    const rows = await shard.select().from(reports).where(eq(reports.subtitleId, original.id)).all();
    expect(rows.map((r) => [r.userId, r.reason]).sort()).toEqual(
      [
        [alice.user.id, "typo in the name"],
        [bob.user.id, ""],
      ].sort(),
    );
    const mine = await shard
      .select()
      .from(reports)
      .where(and(eq(reports.subtitleId, original.id), eq(reports.userId, alice.user.id)))
      .all();
    expect(mine).toHaveLength(1);
  });

  it("counts translation languages from the trigger-kept counts, current at once", async () => {
    for (const spelling of SPELLINGS) {
      const res = await api(`/v4/${spelling}/languages.json`, { app: app });
      expect(res.status).toBe(200);
      // Visible videos only: en 4+3 (episode 4's English is its origin), ko 2, es 2.
      expect(await res.json()).toEqual([
        { language: "en", count: 7 },
        { language: "es", count: 2 },
        { language: "ko", count: 2 },
      ]);
    }
    const extra = await createVideo(series.id, { number: 5 });
    await createSubtitles(extra.id, 2, { ko: 2, de: 2 });
    // docs/decisions.md, "Language counts are kept by triggers": no five-minute KV copy any more; the counts are
    // read whole (one row per language).
    const fresh = await api("/v4/translations/languages.json", { app: app });
    expect(await fresh.json()).toContainEqual({ language: "de", count: 2 });
    expect(rowsRead(fresh)).toBeLessThanOrEqual(20);
  });
});

describe("translations: bad input", () => {
  it("refuses filter combinations that would scan, naming the field", async () => {
    const cases: Array<[string, string]> = [
      ["&from=ko", "to"],
      ["&origin_language=ko", "to"],
      [`&container_id=${series.wireId}&origin_language=ko`, "to"],
      [`&container_id=${series.wireId}`, "to"],
      [`&video_id=${ep1.wireId}&container_id=${series.wireId}&to=en`, "container_id"],
      ["&video_id=12c", "video_id"],
      ["&container_id=12v&to=en", "container_id"],
      ["&to=english", "to"],
      ["&to=en&from=en", "to"],
      ["&target_language=en&origin_language=EN", "target_language"],
      ["&target_language=english", "target_language"],
      ["&origin_language=k&to=en", "origin_language"],
      ["&to=en&target_language=es", "target_language"],
      [`&video_id=${ep1.wireId}&from=ko&origin_language=en`, "origin_language"],
    ];
    for (const spelling of SPELLINGS) {
      for (const [query, field] of cases) {
        const res = await api(`/v4/${spelling}.json?${query}`, { app });
        expect(res.status, query).toBe(400);
        const err = await errorBody(res);
        expect(err.vcode).toBe(5002);
        expect(
          err.details?.map((d) => d.field),
          query,
        ).toContain(field);
      }
    }
  });

  it("answers 404 for an unknown or hidden video or container", async () => {
    expect((await api("/v4/translations.json", { app: app, query: { video_id: "999999999v" } })).status).toBe(404);
    expect((await api("/v4/translations.json", { app: app, query: { video_id: `${hidden.wireId}` } })).status).toBe(404);
    expect((await api("/v4/translations.json", { app: app, query: { container_id: "999999999c", to: "en" } })).status).toBe(404);
  });

  it("votes only on existing, visible translations; reports only originals", async () => {
    const original = subs1.at("ko", 0);
    const translation = subs1.at("en", 0);
    for (const spelling of SPELLINGS) {
      expect((await api(`/v4/${spelling}/999999999s/like.json`, { method: "POST", app, token: alice.token })).status).toBe(404);
      expect((await api(`/v4/${spelling}/12v/like.json`, { method: "POST", app, token: alice.token })).status).toBe(404);
      expect(
        (await api(`/v4/${spelling}/${subsHidden.at("en", 0).wireId}/dislike.json`, { method: "POST", app, token: alice.token })).status,
      ).toBe(404);
      const onOriginal = await api(`/v4/${spelling}/${original.wireId}/like.json`, { method: "POST", app, token: alice.token });
      expect(onOriginal.status).toBe(400);
      expect((await errorBody(onOriginal)).details?.[0].field).toBe("subtitle_id");
      const onTranslation = await api(`/v4/${spelling}/${translation.wireId}/report.json`, { method: "POST", app, token: alice.token });
      expect(onTranslation.status).toBe(400);
      expect((await errorBody(onTranslation)).details?.[0].field).toBe("subtitle_id");
      expect((await api(`/v4/${spelling}/999999999s/report.json`, { method: "POST", app, token: alice.token })).status).toBe(404);
    }
  });

  it("limits bodies: reason length, wrong types; ignores unknown fields", async () => {
    const original = subs1.at("ko", 4);
    const long = await api(`/v4/translations/${original.wireId}/report.json`, {
      method: "POST",
      app,
      token: alice.token,
      json: { reason: "x".repeat(501) },
    });
    expect(long.status).toBe(400);
    expect((await errorBody(long)).details?.[0].field).toBe("reason");
    const notText = await api(`/v4/translations/${original.wireId}/report.json`, {
      method: "POST",
      app,
      token: alice.token,
      json: { reason: { text: "x" } },
    });
    expect(notText.status).toBe(400);
    expect((await errorBody(notText)).details?.[0].field).toBe("reason");
    const unknown = await api(`/v4/translations/${subs1.at("en", 0).wireId}/like.json`, {
      method: "POST",
      app,
      token: alice.token,
      json: { value: 5 },
    });
    expect(unknown.status).toBe(200);
    expect(unknown.headers.get("x-ignored-fields")).toBe("value");
    expect(await unknown.json()).toMatchObject({ id: subs1.at("en", 0).wireId, vote: 1 });
  });
});

describe("translations: security", () => {
  it("needs app= on every route under both spellings (400 naming app)", async () => {
    const target = subs1.at("en", 1).wireId;
    for (const spelling of SPELLINGS) {
      const calls = [
        api(`/v4/${spelling}.json?to=en`),
        api(`/v4/${spelling}/languages.json`),
        api(`/v4/${spelling}/${target}/like.json?token=${alice.token}`, { method: "POST" }),
        api(`/v4/${spelling}/${target}/dislike.json?token=${alice.token}`, { method: "POST" }),
        api(`/v4/${spelling}/${subs1.at("ko", 1).wireId}/report.json?token=${alice.token}`, { method: "POST" }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(400);
        expect((await errorBody(res)).details?.[0].field).toBe("app");
      }
    }
  });

  it("needs a user token to vote and report (401/4500)", async () => {
    for (const spelling of SPELLINGS) {
      for (const path of [
        `${subs1.at("en", 1).wireId}/like`,
        `${subs1.at("en", 1).wireId}/dislike`,
        `${subs1.at("ko", 1).wireId}/report`,
      ]) {
        const res = await api(`/v4/${spelling}/${path}.json`, { method: "POST", app });
        expect(res.status).toBe(401);
        expect((await errorBody(res)).vcode).toBe(4500);
      }
    }
  });
});

describe("translations: rows read", () => {
  it("reads about a page of rows per list, whatever the filter", async () => {
    const big = await createVideo(series.id, { number: 6 });
    await createSubtitles(big.id, 120, { ko: 120, en: 120, fr: 120 });
    // About six rows per item (walk, subtitle, segment, original) plus a few per video the walk passes.
    const budget = 200;
    // A language walk's page is 25 positions: `to=en&from=ko` passes the blocked episode and the English-origin
    // video (one empty position each) before reaching the big video, so it shows 23 and says more.
    for (const [query, items] of [
      [`&video_id=${big.wireId}`, 25],
      [`&video_id=${big.wireId}&to=fr`, 25],
      [`&container_id=${series.wireId}&to=fr`, 25],
      ["&to=fr", 25],
      ["&to=en&from=ko", 23],
    ] as const) {
      const res = await api(`/v4/translations.json?${query}`, { app });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Page;
      expect(body.response, query).toHaveLength(items);
      expect(body.more, query).toBe(true);
      expect(rowsRead(res), query).toBeLessThanOrEqual(budget);
    }
  });
});

describe("translations: the Ruby gem's parameter names", () => {
  it("reads origin_language and target_language as from and to", async () => {
    for (const [ours, theirs] of [
      [`&video_id=${ep1.wireId}&to=es`, `&video_id=${ep1.wireId}&target_language=es`],
      ["&to=en&from=ko&per_page=5", "&target_language=en&origin_language=ko&per_page=5"],
      [`&container_id=${series.wireId}&to=ko`, `&container_id=${series.wireId}&target_language=KO`],
      [`&video_id=${ep1.wireId}&from=en`, `&video_id=${ep1.wireId}&origin_language=en`],
    ]) {
      const a = await api(`/v4/translations.json?${ours}`, { app });
      const b = await api(`/v4/tranlslations.json?${theirs}`, { app });
      expect(b.status, theirs).toBe(200);
      expect(await b.json(), theirs).toEqual(await a.json());
    }
    // Both names of one pair agreeing (after lower-casing) is no conflict.
    const both = (await (
      await api("/v4/translations.json", { app: app, query: { video_id: `${ep1.wireId}`, to: "es", target_language: "ES" } })
    ).json()) as Page;
    expect(both.response.map((t) => t.id)).toEqual([subs1.at("es", 1).wireId, subs1.at("es", 3).wireId]);
  });
});
