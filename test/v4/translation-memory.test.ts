// POST /v4/translation_memory/lookup.json (docs/api.md, "Translation memory (v4)"): a series of three episodes with
// repeated and edited lines on one shard, another series on the other, and lines that are never units (a blank
// translation, a hidden video, a deleted container, a reported cue).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { segments, subtitles } from "../../src/db/shard-schema";
import { indexForm } from "../../src/domain/search-text";
import { api, createApplication, errorBody, signedInUser, type User } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { insertWithIds, videoShard } from "../helpers/localisation";
import { shardOf } from "../helpers/shards";

interface Match {
  source: string;
  target: string;
  match: number;
  context_match: boolean;
  origin: { video_id: string; container_id: string; start_ms: number };
  author_id: string | null;
  updated_at: string;
  scope: "series" | "catalogue";
}
interface Answer {
  results: Array<{ matches: Match[] }>;
  incomplete: boolean;
}

const PATH = "/v4/translation_memory/lookup.json";
/** Named so test/services/access-writes.test.ts counts this file's authorization cases for the route. */
const LOOKUP = { op: "POST /v4/translation_memory/lookup.json" };
/** A cue: its Korean line, its English line (null: none), and when its translation last changed (unix seconds). */
type Cue = [ko: string, en: string | null, updated: number];

let official: string;
let partner: string;
let translator: User;
let other: User;
let series: { id: number; wireId: string };
let another: { id: number; wireId: string };
const videos: Record<string, string> = {};
let reportedSubtitle = 0;

/** Segments 1 s apart with their Korean and English lines, written to the video's shard as the writer does. */
async function track(videoId: number, cues: Cue[], authorId: number) {
  const placed = await videoShard(videoId);
  const rows = cues.map((_, i) => ({ containerId: placed.video.containerId, videoId, startMs: i * 1000, endMs: i * 1000 + 900 }));
  const segs = await insertWithIds<typeof segments.$inferSelect>(placed, segments, rows, 14);
  const texts = cues.flatMap(([ko, en, updated], i) => [
    { segmentId: segs[i].id, language: "ko", text: ko, updated },
    ...(en === null ? [] : [{ segmentId: segs[i].id, language: "en", text: en, updated }]),
  ]);
  const values = texts.map(({ updated, ...t }) => ({
    ...t,
    searchText: indexForm(t.text),
    containerId: placed.video.containerId,
    videoId,
    authorId,
    updatedAt: new Date(updated * 1000),
  }));
  return insertWithIds<typeof subtitles.$inferSelect>(placed, subtitles, values, 6);
}

const T = 1_790_000_000;

beforeAll(async () => {
  official = (await createApplication({ official: true })).wireId;
  partner = (await createApplication()).wireId;
  translator = await signedInUser();
  other = await signedInUser();
  series = await createContainer({ title: "The series", originLanguage: "ko" });
  another = await createContainer({ title: "Another series", originLanguage: "ko" });
  // Containers are placed on the shards in turn: the series on one, the other series on the other.
  if ((await shardOf(series.id)).shard === (await shardOf(another.id)).shard) another = await createContainer({ originLanguage: "ko" });
  for (const n of [1, 2, 3]) videos[`e${n}`] = (await createVideo(series.id, { number: n })).wireId;
  videos.other = (await createVideo(another.id, { number: 1 })).wireId;
  const hidden = await createVideo(another.id, { number: 2, state: "blocked" });
  const id = (wire: string) => Number.parseInt(wire, 10);
  // Episodes 1 and 2, by the translator: a line repeated, one edited, a blank translation.
  const episodes: Record<string, Cue[]> = {
    e1: [
      ["지난 이야기", "Previously on", T + 10],
      ["사랑해요", "I love you", T + 11],
      ["안녕히 가세요", "Goodbye", T + 12],
      ["지난 이야기에서 우리는", "Last time, we", T + 13],
    ],
    e2: [
      ["지난 이야기", "Previously on", T + 20],
      ["오늘 만나요", "See you today", T + 21],
      ["정말 고마워요", " \n ", T + 22],
      ["사랑해요", "I love you!", T + 23],
    ],
  };
  for (const [episode, lines] of Object.entries(episodes)) await track(id(videos[episode]), lines, translator.user.id);
  const e3 = await track(
    id(videos.e3),
    [
      ["오늘은 날씨가 좋네요", "Nice weather today", T + 30],
      ["미안해요", null, T + 31],
    ],
    other.user.id,
  );
  await track(id(videos.other), [["지난 이야기", "Last time on", T + 40]], other.user.id);
  await track(hidden.id, [["비밀 장면입니다", "A secret scene", T + 50]], other.user.id);
  // An open report on the Korean line of episode 3's first cue.
  reportedSubtitle = e3.find((s) => s.language === "ko")!.id;
  const { binding } = await shardOf(series.id);
  await binding
    .prepare(
      "INSERT INTO reports (id, subtitle_id, user_id, username, video_id, container_id, language, text, status) VALUES (?1, ?2, ?3, 'r', ?4, ?5, 'ko', 'x', 'open')",
    )
    .bind(reportedSubtitle + 1_000_000, reportedSubtitle, other.user.id, id(videos.e3), series.id)
    .run();
  // A deleted container's lines, deleted through the API after they were written.
  const doomed = await createContainer({ title: "Deleted series", originLanguage: "ko" });
  const doomedVideo = await createVideo(doomed.id, { number: 1 });
  await track(doomedVideo.id, [["삭제된 대사입니다", "A deleted line", T + 60]], other.user.id);
  const staff = await signedInUser({ staff: true });
  const deleted = await api(`/v4/containers/${doomed.wireId}.json`, { method: "DELETE", token: staff.token, app: official });
  expect(deleted.status, await deleted.clone().text()).toBeLessThan(300);
}, 60_000);

const lookup = (json: unknown, who: { token?: string; app?: string; unsigned?: boolean } = { token: translator.token }) =>
  api(PATH, { method: "POST", json, ...who });

async function results(json: Record<string, unknown>) {
  const res = await lookup({ source_language: "ko", target_language: "en", ...json });
  expect(res.status, await res.clone().text()).toBe(200);
  const body = (await res.json()) as Answer;
  expect(body.incomplete).toBe(false);
  return body.results.map((r) => r.matches);
}

/** A match as a line to compare: match, scope, target, video. */
const brief = (m: Match) => `${m.match} ${m.scope} ${m.target} ${m.origin.video_id}`;

describe("matches", () => {
  it("finds exact units in both series across the shards, newest first, each translation once", async () => {
    const [matches] = await results({ texts: ["지난 이야기"] });
    // Episodes 1 and 2 translate the line the same way: one suggestion, the newer one.
    expect(matches.map(brief)).toEqual([`100 catalogue Last time on ${videos.other}`, `100 catalogue Previously on ${videos.e2}`]);
    expect(matches[0]).toEqual({
      source: "지난 이야기",
      target: "Last time on",
      match: 100,
      context_match: false,
      origin: { video_id: videos.other, container_id: another.wireId, start_ms: 0 },
      author_id: `${other.user.id}u`,
      updated_at: new Date((T + 40) * 1000).toISOString().replace(".000", ""),
      scope: "catalogue",
    });
  });

  it("ranks the series' units before another series' at equal match", async () => {
    const [matches] = await results({ texts: ["지난 이야기"], container_id: series.wireId });
    expect(matches.map(brief)).toEqual([`100 series Previously on ${videos.e2}`, `100 catalogue Last time on ${videos.other}`]);
  });

  it("scores fuzzy matches at 90 and 80, by character in Korean", async () => {
    const [ninety, eighty] = await results({ texts: ["지난 이야기에서 우리가", "오늘 만나자"] });
    expect(ninety.map(brief)).toEqual([`90 catalogue Last time, we ${videos.e1}`]);
    expect(eighty.map(brief)).toEqual([`80 catalogue See you today ${videos.e2}`]);
  });

  it("is the same text whatever the punctuation, width and spacing", async () => {
    const [matches] = await results({ texts: ["  지난   이야기!!  "] });
    expect(matches.map((m) => m.match)).toEqual([100, 100]);
  });

  it("answers 101 where the neighbours match the context too, and says whether they did", async () => {
    const [matches] = await results({ texts: ["사랑해요"], context: [{ previous: "지난 이야기", next: "안녕히 가세요" }] });
    expect(matches.map((m) => `${m.match} ${m.context_match} ${m.target}`)).toEqual(["101 true I love you", "100 false I love you!"]);
    const [without] = await results({ texts: ["사랑해요"] });
    expect(without.map((m) => `${m.match} ${m.context_match} ${m.target}`)).toEqual(["100 false I love you!", "100 false I love you"]);
  });

  it("answers per text, in order, with an empty list where nothing matches", async () => {
    const answer = await results({ texts: ["안녕히 가세요", "전혀 다른 말입니다", "...", "사랑해요"] });
    expect(answer.map((m) => m.map((x) => x.target))).toEqual([["Goodbye"], [], [], ["I love you!", "I love you"]]);
  });

  it("never answers a blank translation, a missing one, a hidden video, a deleted container or a reported cue", async () => {
    const answer = await results({ texts: ["정말 고마워요", "미안해요", "비밀 장면입니다", "삭제된 대사입니다", "오늘은 날씨가 좋네요"] });
    expect(answer).toEqual([[], [], [], [], []]);
  });

  it("answers a reported cue again once its report is resolved", async () => {
    const { binding } = await shardOf(series.id);
    await binding.prepare("UPDATE reports SET status = 'resolved' WHERE subtitle_id = ?").bind(reportedSubtitle).run();
    const [matches] = await results({ texts: ["오늘은 날씨가 좋네요"] });
    expect(matches.map(brief)).toEqual([`100 catalogue Nice weather today ${videos.e3}`]);
    await binding.prepare("UPDATE reports SET status = 'open' WHERE subtitle_id = ?").bind(reportedSubtitle).run();
  });

  it("answers nothing in another pair of languages", async () => {
    const res = await lookup({ source_language: "en", target_language: "ko", texts: ["Previously on"] });
    expect(((await res.json()) as Answer).results[0].matches.map((m) => m.target)).toEqual(["지난 이야기"]);
    const none = await lookup({ source_language: "ko", target_language: "fr", texts: ["지난 이야기"] });
    expect(((await none.json()) as Answer).results).toEqual([{ matches: [] }]);
  });
});

describe(`${LOOKUP.op}: who may look up`, () => {
  const body = { source_language: "ko", target_language: "en", texts: ["지난 이야기"] };

  it("answers a user's token and a signed official application, counted as lookups", async () => {
    for (const who of [{ token: translator.token }, { token: other.token, app: partner, unsigned: true }, { app: official }]) {
      const res = await lookup(body, who);
      expect(res.status, JSON.stringify(who)).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe('"writes-lookups";q=60;w=60');
      expect(((await res.json()) as Answer).results[0].matches).toHaveLength(2);
    }
  });

  it("refuses anonymous callers (401), an unsigned official application (401) and any other application (403)", async () => {
    const anonymous = await lookup(body, {});
    expect(anonymous.status).toBe(401);
    expect((await errorBody(anonymous)).vcode).toBe(4500);
    expect((await lookup(body, { app: official, unsigned: true })).status).toBe(401);
    expect((await lookup(body, { app: partner })).status).toBe(403);
    expect((await lookup(body, { app: "999999a", unsigned: true })).status).toBe(401);
    expect((await lookup(body, { token: "not-a-session" })).status).toBe(401);
  });
});

describe("bad input: a 400 naming the field", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["no texts", { texts: [] }, "texts"],
    ["51 texts", { texts: Array.from({ length: 51 }, () => "가") }, "texts"],
    ["a blank text", { texts: ["가", "  \n "] }, "texts.1"],
    ["501 characters", { texts: ["가".repeat(501)] }, "texts.0"],
    ["a NUL", { texts: ["가\u0000나"] }, "texts.0"],
    ["a lone surrogate", { texts: ["가\ud800"] }, "texts.0"],
    ["a text that is not text", { texts: [{ text: "가" }] }, "texts.0"],
    ["a context of another length", { texts: ["가", "나"], context: [{ previous: "x" }] }, "context"],
    ["a context text too long", { texts: ["가"], context: [{ next: "x".repeat(501) }] }, "context.0.next"],
    ["a bad language", { source_language: "korean" }, "source_language"],
    ["the same language twice", { target_language: "ko" }, "target_language"],
    ["a container id without its kind", { container_id: "12" }, "container_id"],
  ];
  for (const [what, json, field] of cases) {
    it(what, async () => {
      const res = await lookup({ source_language: "ko", target_language: "en", texts: ["가"], ...json });
      expect(res.status).toBe(400);
      const error = await errorBody(res);
      expect(error.details?.map((d) => d.field)).toContain(field);
    });
  }

  it('reads what it can, as every route (docs/api.md, "What the API tolerates"): a number as text, an unknown field ignored', async () => {
    const res = await lookup({ source_language: "ko", target_language: "en", texts: [5], limit: 3 });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ignored-fields")).toBe("limit");
    expect(((await res.json()) as Answer).results).toEqual([{ matches: [] }]);
  });

  it("answers 404 naming container_id for a container that does not exist", async () => {
    const res = await lookup({ source_language: "ko", target_language: "en", texts: ["가"], container_id: "999999999c" });
    expect(res.status).toBe(404);
    expect((await errorBody(res)).details?.[0].field).toBe("container_id");
  });
});

describe("hostile input: 200 or a 400, never a 5xx", () => {
  it("takes 50 texts of 500 of one CJK character", async () => {
    const res = await lookup({ source_language: "ko", target_language: "en", texts: Array.from({ length: 50 }, () => "愛".repeat(500)) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Answer).results).toHaveLength(50);
  });

  it("reads FTS5 syntax as text", async () => {
    const texts = ['"', '"지난', "*", "지난*", "NEAR(지난 이야기)", '지난" OR "이야기', "{body}: 지난", "%00", "^지난", "AND OR NOT"];
    const res = await lookup({ source_language: "ko", target_language: "en", texts });
    expect(res.status).toBe(200);
    const answer = ((await res.json()) as Answer).results.map((r) => r.matches.length);
    expect(answer).toEqual([0, 0, 0, 0, 2, 2, 0, 0, 0, 0]);
  });

  it("refuses a body over 1 MiB with a 413", async () => {
    const res = await lookup({ source_language: "ko", target_language: "en", texts: ["가"], pad: "x".repeat(1024 * 1024) });
    expect(res.status).toBe(413);
  });

  it("refuses a body that is not JSON with a 400", async () => {
    const res = await api(PATH, { method: "POST", token: translator.token, body: "{", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
  });
});

describe("the shards", () => {
  it("places the two series on different shards", async () => {
    expect((await shardOf(series.id)).shard).not.toBe((await shardOf(another.id)).shard);
  });

  it("answers without a shard that cannot answer, saying so, never a 5xx", async () => {
    await env.DB.prepare("INSERT INTO shards (id) VALUES (9)").run();
    try {
      const res = await lookup({ source_language: "ko", target_language: "en", texts: ["지난 이야기"] });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Answer;
      expect(body.incomplete).toBe(true);
      expect(body.results[0].matches).toHaveLength(2);
    } finally {
      await env.DB.prepare("DELETE FROM shards WHERE id = 9").run();
    }
  });
});
