import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { captionSuggestions } from "../../src/db/shard-schema";
import { api, createApplication, errorBody, rowsRead, signedInUser, type User } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { createSubtitles } from "../helpers/localisation";
import { shardOf } from "../helpers/shards";

type Fixture = Awaited<ReturnType<typeof createSubtitles>>;
type Caption = {
  id: string;
  language: string;
  text: string;
  segment: { start_ms: number; end_ms: number };
  video_id: string;
  container_id: string;
  target_language: string;
};

let app: string;
let alice: User;
let series: { id: number; wireId: string };
let done: Fixture; // Korean originals, all translated into English
let partial: Fixture; // Korean originals, segment 0 translated into English only
let english: Fixture; // a video whose origin is English, in the Korean series

const random = (query: string) => api(`/v4/captions/random.json?app=${app}${query}`);
const create = (json: unknown, token: string | undefined = alice.token) =>
  api(`/v4/captions.json?app=${app}${token ? `&token=${token}` : ""}`, { method: "POST", json });

/** Asks many times: every answer must be one of `allowed`. */
async function draws(query: string, allowed: string[], times = 15) {
  const seen = new Set<string>();
  for (let i = 0; i < times; i++) {
    const res = await random(query);
    expect(res.status, query).toBe(200);
    const caption = (await res.json()) as Caption;
    expect(allowed, `${query} gave ${caption.id}`).toContain(caption.id);
    seen.add(caption.id);
  }
  return seen;
}

beforeAll(async () => {
  app = (await createApplication()).wireId;
  alice = await signedInUser();
  series = await createContainer({ originLanguage: "ko" });
  done = await createSubtitles((await createVideo(series.id, { number: 1 })).id, 4, { ko: 4, en: 4 });
  partial = await createSubtitles((await createVideo(series.id, { number: 2 })).id, 3, { ko: 3, en: ["en 0", null, null] });
  // Hidden videos never offer captions, though their originals lack every translation.
  const blocked = await createVideo(series.id, { number: 3, state: "blocked" });
  await createSubtitles(blocked.id, 3, { ko: 3 });
  const pendingSeries = await createContainer({ originLanguage: "ko", state: "pending" });
  await createSubtitles((await createVideo(pendingSeries.id)).id, 3, { ko: 3 });
  english = await createSubtitles((await createVideo(series.id, { number: 4, originLanguage: "en" })).id, 2, { en: 2, ko: ["ko 0", null] });
});

describe("captions: happy path", () => {
  it("offers only originals that still lack the target language", async () => {
    const untranslated = [partial.at("ko", 1).wireId, partial.at("ko", 2).wireId];
    const seen = await draws("&from=ko&to=en", untranslated);
    expect(seen.size).toBeGreaterThan(0);
    // Without `from`, any original: the Korean ones above (English originals are in the target language).
    await draws("&to=en", untranslated);
    // Into Korean: only the English-origin video's original whose segment has no Korean yet.
    await draws("&to=ko", [english.at("en", 1).wireId]);
  });

  it("answers the caption with its timing, video and target language", async () => {
    const res = await random("&from=ko&to=es");
    expect(res.status).toBe(200);
    const caption = (await res.json()) as Caption;
    const all = [...done.subtitles, ...partial.subtitles].filter((s) => s.language === "ko").map((s) => `${s.id}s`);
    expect(all).toContain(caption.id);
    expect(caption).toMatchObject({ language: "ko", container_id: series.wireId, target_language: "es" });
    expect(caption.text).toMatch(/^ko \d$/);
    expect(caption.segment.end_ms - caption.segment.start_ms).toBe(900);
  });

  it("is 404 when nothing is left to translate", async () => {
    expect((await random("&from=ja&to=en")).status).toBe(404);
    expect((await random("&from=en&to=ko")).status).toBe(200);
    // A language pair whose every original is translated.
    await createSubtitles((await createVideo(series.id, { number: 9, originLanguage: "th" })).id, 2, { th: 2, vi: 2 });
    expect((await random("&from=th&to=vi")).status).toBe(404);
  });

  it("reads a bounded number of rows even when every candidate is already translated", async () => {
    const big = await createVideo(series.id, { number: 10, originLanguage: "id" });
    await createSubtitles(big.id, 400, { id: 400, ms: 400 });
    const res = await random("&from=id&to=ms");
    expect(res.status).toBe(404);
    expect(rowsRead(res)).toBeLessThanOrEqual(500);
    const any = await random("&to=ms");
    expect(rowsRead(any)).toBeLessThanOrEqual(500);
    const hit = await random("&from=ko&to=en");
    expect(rowsRead(hit)).toBeLessThanOrEqual(500);
  });

  it("stores a suggestion on a caption", async () => {
    const origin = partial.at("ko", 1);
    const res = await create({ origin_subtitle_id: origin.wireId, language: "EN", content: "  Hello there  " });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      id: expect.any(Number),
      origin_subtitle_id: origin.wireId,
      language: "en",
      content: "Hello there",
      user: { id: alice.id, username: alice.user.username },
      created_at: expect.stringMatching(/Z$/),
    });
    // On the container's shard, beside its origin subtitle (docs/decisions.md, "Subtitles on the shards").
    const { db: shard } = await shardOf(series.id);
    const rows = await shard.select().from(captionSuggestions).where(eq(captionSuggestions.originSubtitleId, origin.id)).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: alice.user.id, language: "en", content: "Hello there", containerId: series.id });
    expect(body.id).toBe(rows[0].id);
  });

  it("lists origin languages with their original subtitles", async () => {
    await env.CACHE.delete("localisation:language-totals:v1");
    const res = await api(`/v4/captions/languages.json?app=${app}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Array<{ language: string; count: number }>;
    // Visible videos only: ko 4 + 3 (not the blocked video's or the pending series'), en 2.
    expect(body.find((l) => l.language === "ko")).toEqual({ language: "ko", count: 7 });
    expect(body.find((l) => l.language === "en")).toEqual({ language: "en", count: 2 });
    expect(body.find((l) => l.language === "es")).toBeUndefined();
    const counts = body.map((l) => l.count);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
  });
});

/** The caption's segment has no subtitle in its target language, and the caption is an original in another. */
async function lacksTarget(caption: Caption) {
  expect(caption.target_language).not.toBe(caption.language);
  const { db: shard } = await shardOf(Number.parseInt(caption.container_id, 10));
  const row = await shard.get<{ n: number; found: number }>(
    sql`SELECT (SELECT count(*) FROM subtitles t JOIN subtitles s ON s.segment_id = t.segment_id WHERE s.id = ${Number.parseInt(caption.id, 10)}
      AND t.language = ${caption.target_language}) AS n, (SELECT count(*) FROM subtitles WHERE id = ${Number.parseInt(caption.id, 10)}) AS found`,
  );
  expect(row!.found, `${caption.id} on its container's shard`).toBe(1);
  expect(row!.n, `${caption.id} into ${caption.target_language}`).toBe(0);
}

describe("captions: any language pair, and the Ruby gem's names", () => {
  it("reads origin_language and target_language as from and to", async () => {
    const untranslated = [partial.at("ko", 1).wireId, partial.at("ko", 2).wireId];
    await draws("&origin_language=ko&target_language=EN", untranslated);
    await draws("&origin_language=ko&to=en", untranslated);
    await draws("&from=ko&target_language=en&origin_language=ko", untranslated);
  });

  it("with only app=, answers an original with a target language its segment lacks", async () => {
    const targets = new Set<string>();
    let most = 0;
    for (let i = 0; i < 12; i++) {
      const res = await random("");
      expect(res.status).toBe(200);
      const caption = (await res.json()) as Caption;
      expect(caption).toMatchObject({ video_id: expect.stringMatching(/v$/), container_id: expect.stringMatching(/c$/) });
      await lacksTarget(caption);
      targets.add(caption.target_language);
      most = Math.max(most, rowsRead(res));
    }
    console.log(`random caption, any pair: at most ${most} rows read in 12 draws`);
    expect(most).toBeLessThanOrEqual(500);
    expect(targets.size).toBeGreaterThan(1);
  });

  it("with only from, keeps to originals in it and draws the target", async () => {
    for (let i = 0; i < 8; i++) {
      const res = await random("&origin_language=en");
      expect(res.status).toBe(200);
      const caption = (await res.json()) as Caption;
      expect([english.at("en", 0).wireId, english.at("en", 1).wireId]).toContain(caption.id);
      await lacksTarget(caption);
    }
  });

  it("never offers hidden videos' originals, and stays bounded when nothing is left", async () => {
    // A pending series whose originals lack everything: never drawn.
    const hiddenSeries = await createContainer({ originLanguage: "sw", state: "pending" });
    await createSubtitles((await createVideo(hiddenSeries.id)).id, 3, { sw: 3 });
    const res = await random("&from=sw");
    expect(res.status).toBe(404);
    console.log(`random caption, from=sw with no candidate: ${rowsRead(res)} rows read`);
    expect(rowsRead(res)).toBeLessThanOrEqual(500);
  });
});

describe("captions: bad input", () => {
  it("refuses malformed or equal languages, and two names of one pair that disagree, naming the field", async () => {
    for (const [query, field] of [
      ["&to=english", "to"],
      ["&from=en&to=en", "to"],
      ["&from=k&to=en", "from"],
      ["&target_language=english", "target_language"],
      ["&origin_language=EN&target_language=en", "target_language"],
      ["&origin_language=k", "origin_language"],
      ["&to=en&target_language=es", "target_language"],
      ["&from=ko&origin_language=en&to=es", "origin_language"],
    ]) {
      const res = await random(query);
      expect(res.status, query).toBe(400);
      expect(
        (await errorBody(res)).details?.map((d) => d.field),
        query,
      ).toContain(field);
    }
  });

  it("names the field of a bad suggestion", async () => {
    const origin = partial.at("ko", 2).wireId;
    const cases: Array<[unknown, string]> = [
      [{ language: "en", content: "x" }, "origin_subtitle_id"],
      [{ origin_subtitle_id: origin, content: "x" }, "language"],
      [{ origin_subtitle_id: origin, language: "en" }, "content"],
      [{ origin_subtitle_id: origin, language: "en", content: "   " }, "content"],
      [{ origin_subtitle_id: origin, language: "en", content: "x".repeat(2001) }, "content"],
      [{ origin_subtitle_id: origin, language: "en", content: { text: "x" } }, "content"],
      [{ origin_subtitle_id: "12v", language: "en", content: "x" }, "origin_subtitle_id"],
      [{ origin_subtitle_id: origin, language: "ko", content: "x" }, "language"],
      [{ origin_subtitle_id: partial.at("en", 0).wireId, language: "es", content: "x" }, "origin_subtitle_id"],
    ];
    for (const [json, field] of cases) {
      const res = await create(json);
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      const err = await errorBody(res);
      expect(err.vcode).toBe(5002);
      expect(err.details?.map((d) => d.field)).toContain(field);
    }
    expect((await create({ origin_subtitle_id: origin, language: "en", content: "x".repeat(2000) })).status).toBe(201);
    // An unknown field is ignored and named in x-ignored-fields; a number where text is wanted is read as text.
    const extra = await create({ origin_subtitle_id: origin, language: "en", content: 42, extra: 1 });
    expect(extra.status).toBe(201);
    expect(extra.headers.get("x-ignored-fields")).toBe("extra");
    expect(((await extra.json()) as { content: string }).content).toBe("42");
  });

  it("is 404 for a missing origin subtitle, naming nothing else", async () => {
    const res = await create({ origin_subtitle_id: "999999999s", language: "en", content: "x" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "not found", vcode: 404, request_id: expect.any(String) });
  });
});

describe("captions: security", () => {
  it("needs app= (400 naming app)", async () => {
    const calls = [
      api("/v4/captions/random.json?to=en"),
      api("/v4/captions/languages.json"),
      api(`/v4/captions.json?token=${alice.token}`, {
        method: "POST",
        json: { origin_subtitle_id: partial.at("ko", 1).wireId, language: "en", content: "x" },
      }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(400);
      expect((await errorBody(res)).details?.[0].field).toBe("app");
    }
  });

  it("needs a user token to suggest (401/4500)", async () => {
    const res = await create({ origin_subtitle_id: partial.at("ko", 1).wireId, language: "en", content: "x" }, "");
    expect(res.status).toBe(401);
    expect((await errorBody(res)).vcode).toBe(4500);
  });

  it("does not offer suggestions on hidden videos", async () => {
    const hiddenVideo = await createVideo(series.id, { number: 11, state: "pending" });
    const hidden = await createSubtitles(hiddenVideo.id, 1, { ko: 1 });
    expect((await create({ origin_subtitle_id: hidden.at("ko", 0).wireId, language: "en", content: "x" })).status).toBe(404);
  });
});
