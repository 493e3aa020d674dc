// GET /v4/search/subtitles.json (docs/api.md, "Subtitle search (v4)"): a golden set of lines in five languages on the same
// segments, imported through the import route (the writer the service uses), searched across the two shards.
import { beforeAll, describe, expect, it } from "vitest";
import { api, createApplication, okJson, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { importSrt, type TestCue } from "../helpers/subtitles";
import { shardOf } from "../helpers/shards";

interface Hit {
  video: { id: string; container: { id: string } };
  language: string;
  start_ms: number;
  end_ms: number;
  text: string;
  highlight: Array<[number, number]>;
  viewer: { language: string; text: string } | null;
  url: { web: string; api: string };
}
interface Page {
  more: boolean;
  response: Hit[];
  count?: number;
  incomplete: boolean;
}

/** Each segment's line per language: the same moment in five languages (written for these tests). */
const SEGMENTS: Array<Record<string, string>> = [
  { en: "I love you at the airport", ko: "공항에서 사랑해요", ja: "空港で愛してる", zh: "我在机场爱你", es: "Te quiero en el aeropuerto" },
  {
    en: "The weather is nice in Tokyo",
    ko: "도쿄 날씨가 좋네요",
    ja: "東京は天気がいい",
    zh: "东京天气很好",
    es: "Hace buen tiempo en Tokio",
  },
  { en: "Café with my cat", ko: "고양이랑 카페", ja: "猫とカフェ", zh: "和猫一起去咖啡馆", es: "Café con mi gato" },
  { en: "Log in as a user", ko: "사용자로 로그인", ja: "ユーザーとしてログイン", zh: "以用户身份登录", es: "Inicia sesión como usuario" },
  { en: "Good morning, Seoul", ko: "좋은 아침이에요 서울", ja: "おはよう、ソウル", zh: "早上好，首尔", es: "Buenos días, Seúl" },
  { en: "ＦＵＬＬ width morning is good", ko: "사랑은 어렵다", ja: "愛は難しい", zh: "爱很难", es: "El árbol del niño" },
];
const LANGUAGES = ["en", "ko", "ja", "zh", "es"] as const;
const startOf = (segment: number) => 1000 + segment * 4000;

/** A query and the lines (segment index, language) it must find on its first page. */
const GOLDEN: Array<[q: string, expected: Array<[number, string]>]> = [
  [
    "사랑",
    [
      [0, "ko"],
      [5, "ko"],
    ],
  ],
  ["사랑해요", [[0, "ko"]]],
  ["用户", [[3, "zh"]]],
  ["東京", [[1, "ja"]]],
  ["东京", [[1, "zh"]]],
  [
    "猫",
    [
      [2, "ja"],
      [2, "zh"],
    ],
  ],
  [
    "爱",
    [
      [0, "zh"],
      [5, "zh"],
    ],
  ],
  [
    "愛",
    [
      [0, "ja"],
      [5, "ja"],
    ],
  ],
  ["airport", [[0, "en"]]],
  ["aeropuerto", [[0, "es"]]],
  [
    "cafe",
    [
      [2, "en"],
      [2, "es"],
    ],
  ],
  [
    "CAFÉ",
    [
      [2, "en"],
      [2, "es"],
    ],
  ],
  ["the weath", [[1, "en"]]],
  ['"good morning"', [[4, "en"]]],
  ["full width", [[5, "en"]]],
  ["ｆｕｌｌ", [[5, "en"]]],
  ["arbol", [[5, "es"]]],
  ["seul", [[4, "es"]]],
  ["서울", [[4, "ko"]]],
  ["ソウル", [[4, "ja"]]],
  ["ログイン", [[3, "ja"]]],
  ["로그인", [[3, "ko"]]],
  ["首尔", [[4, "zh"]]],
  ["카페", [[2, "ko"]]],
  ["tiempo", [[1, "es"]]],
];

let videos: Array<{ id: number; wireId: string; containerWireId: string; shard: number }>;

/** Two series, one on each shard, each with a video carrying the golden lines in five languages. */
async function goldenVideos() {
  const [staff, official] = await Promise.all([signedInUser({ staff: true }), createApplication({ official: true })]);
  const made: typeof videos = [];
  const shards = new Set<number>();
  for (let i = 0; i < 6 && shards.size < 2; i++) {
    const container = await createContainer({ title: `Search series ${i}` });
    const { shard } = await shardOf(container.id);
    if (shards.has(shard)) continue;
    shards.add(shard);
    const video = await createVideo(container.id, { number: 1, title: `Search episode ${i}` });
    made.push({ id: video.id, wireId: video.wireId, containerWireId: container.wireId, shard });
  }
  expect(shards.size, "a video on each shard").toBe(2);
  for (const video of made) {
    for (const language of LANGUAGES) {
      const cues: TestCue[] = SEGMENTS.map((line, i) => ({ startMs: startOf(i), endMs: startOf(i) + 2500, text: line[language] }));
      await importSrt({ token: staff.token, app: official.wireId }, video, cues, language);
    }
  }
  return made;
}

const search = (query: Record<string, string>) => okJson({ path: "/v4/search/subtitles.json", query }) as Promise<Page>;
const lineKey = (h: Hit) => `${h.video.id}@${h.start_ms}:${h.language}`;

beforeAll(async () => {
  videos = await goldenVideos();
});

describe("the golden set", () => {
  it("finds every expected line on the first page, in both shards' videos (recall 100%)", async () => {
    const missed: string[] = [];
    let expectedCount = 0;
    for (const [q, expected] of GOLDEN) {
      const page = await search({ q, per_page: "50" });
      expect(page.incomplete, q).toBe(false);
      const found = new Set(page.response.map(lineKey));
      for (const video of videos) {
        for (const [segment, language] of expected) {
          expectedCount++;
          const key = `${video.wireId}@${startOf(segment)}:${language}`;
          if (!found.has(key)) missed.push(`${q}: ${key} (${SEGMENTS[segment][language]})`);
        }
      }
      // Nothing else either: every answered line is an expected one.
      const allowed = new Set(videos.flatMap((v) => expected.map(([s, l]) => `${v.wireId}@${startOf(s)}:${l}`)));
      expect(
        page.response.map(lineKey).filter((k) => !allowed.has(k)),
        `${q}: unexpected lines`,
      ).toEqual([]);
    }
    expect(missed, `recall ${(((expectedCount - missed.length) / expectedCount) * 100).toFixed(1)}%`).toEqual([]);
  });

  it("answers the line's times, its highlight, the viewer's line of the same segment and a #t= link", async () => {
    const page = await search({ q: "사랑해요", viewer_language: "en", video_id: videos[0].wireId });
    expect(page.response).toHaveLength(1);
    const [hit] = page.response;
    expect(hit).toMatchObject({
      language: "ko",
      start_ms: 1000,
      end_ms: 3500,
      text: "공항에서 사랑해요",
      highlight: [[5, 9]],
      viewer: { language: "en", text: "I love you at the airport" },
      url: { web: `/videos/${videos[0].wireId}#t=1,3.5`, api: `/v4/videos/${videos[0].wireId}.json` },
    });
    expect(hit.video.id).toBe(videos[0].wireId);
    expect(hit.video.container.id).toBe(videos[0].containerWireId);
  });

  it("highlights every kind of match at its code units", async () => {
    const cases: Array<[string, string, Array<[number, number]>]> = [
      ["猫", "zh", [[1, 2]]],
      ["cafe", "es", [[0, 4]]],
      [
        "the weath",
        "en",
        [
          [0, 3],
          [4, 9],
        ],
      ],
      ["ｆｕｌｌ", "en", [[0, 4]]],
      ["seul", "es", [[13, 17]]],
    ];
    for (const [q, language, highlight] of cases) {
      const page = await search({ q, language, video_id: videos[0].wireId });
      expect(
        page.response.map((h) => h.highlight),
        q,
      ).toEqual([highlight]);
    }
  });

  it("ranks a line holding the phrase before one holding the words apart", async () => {
    const page = await search({ q: "good morning", language: "en", video_id: videos[1].wireId });
    expect(page.response.map((h) => h.text)).toEqual(["Good morning, Seoul", "ＦＵＬＬ width morning is good"]);
  });

  it("narrows by language, container and video; a scoped search asks one shard", async () => {
    const es = await search({ q: "cafe", language: "es" });
    expect(new Set(es.response.map((h) => h.language))).toEqual(new Set(["es"]));
    expect(es.response).toHaveLength(2);
    const inContainer = await search({ q: "猫", container_id: videos[1].containerWireId });
    expect(inContainer.response.map((h) => h.video.id)).toEqual([videos[1].wireId, videos[1].wireId]);
    // A first read (no cached copy): one catalogue batch, one shard, the catalogue again.
    const res = await api({
      path: "/v4/search/subtitles.json",
      query: { q: "猫", container_id: videos[1].containerWireId, per_page: "7" },
    });
    expect(res.headers.get("server-timing")).toMatch(/d1-trips;desc="3"/);
    const unknown = await api({ path: "/v4/search/subtitles.json", query: { q: "猫", container_id: "999999c" } });
    expect(unknown.status).toBe(404);
  });

  it("pages: page 2 is what follows page 1", async () => {
    const all = await search({ q: "사랑", per_page: "50" });
    const first = await search({ q: "사랑", per_page: "2" });
    const second = await search({ q: "사랑", per_page: "2", page: "2" });
    expect(first.more).toBe(true);
    expect([...first.response, ...second.response].map(lineKey)).toEqual(all.response.slice(0, 4).map(lineKey));
  });
});

describe("hostile q", () => {
  it("answers 200 or a 400 naming q, never a 5xx", async () => {
    const hostile = [
      "NEAR(a b)",
      "a OR b",
      '"',
      '"""',
      "*",
      "a*",
      "^a",
      "body:a",
      "{scope} : c1",
      "(",
      "%00",
      "\u0000",
      "猫".repeat(200),
      "a".repeat(201),
      "\ud800",
      "x\udfffy",
      "   ",
      "",
      "-",
      "' OR 1=1 --",
    ];
    for (const q of hostile) {
      const res = await api({ path: "/v4/search/subtitles.json", query: { q } });
      expect([200, 400], JSON.stringify(q)).toContain(res.status);
      if (res.status === 400) {
        const body = (await res.json()) as { details?: Array<{ field: string }> };
        expect(
          body.details?.map((d) => d.field),
          JSON.stringify(q),
        ).toContain("q");
      }
    }
    const missing = await api("/v4/search/subtitles.json");
    expect(missing.status).toBe(400);
  });
});
