// A large synthetic catalogue generated inside SQLite: INSERT ... SELECT statements over recursive CTEs, so
// 10,000 containers and 100,000+ videos take a handful of statements rather than megabytes of VALUES.
//
// Used by `npm run seed:large` (scripts/seed-large.mjs, through wrangler's local D1) and by the rows-read
// budget test (test/budgets/reads.test.ts, inside workerd), so both measure the same catalogue.
//
// - Deterministic: every value is a hash of the row's index (no random()), so a re-run produces the same rows.
// - Idempotent and restartable: explicit keys and INSERT OR IGNORE everywhere; a chunk that was cut short is
//   completed by running it again, and a chunk that is complete changes nothing (ignored rows fire no trigger).
// - Ids never collide with the demo seed (small ids): container i (1-based) is 1,000,000 + i; its videos are
//   1,000,000 + 100 i + n (n = 1..99), so a video's container index is (id - 1,000,000) / 100.
// - Only source tables are written; the triggers of migrations/0003_derived_documents.sql derive docs,
//   sort titles and container_facets. Every row that hangs off a container (each video, title, genre,
//   licence, completion) rebuilds the container's doc and facets, so the order keeps those rebuilds cheap:
//   containers go in as `pending` (a pending container has no facet rows, so its facet rebuilds are a no-op),
//   videos go in before titles, genres and completions (smaller docs), and the last statement sets each
//   container's real state, which builds its facets once. The end state is the same as writing each
//   container whole; it is only cheaper to get to (about 4x).
//
// Plain ESM, no imports: it must load in Node and in the workerd test runtime alike.

export const CONTAINER_BASE = 1_000_000;
export const VIDEO_BASE = 1_000_000;
export const VIDEO_STRIDE = 100;
/** The catalogue's "now": 2026-11-15T00:00:00Z, as in the demo seed. */
export const NOW = Date.UTC(2026, 10, 15) / 1000;
const DAY = 86_400;

export const containerId = (i) => CONTAINER_BASE + i;
export const videoId = (i, n) => VIDEO_BASE + VIDEO_STRIDE * i + n;

// ---------------------------------------------------------------------------------------------------------
// Hashing in SQL: h(x, salt) is an integer in [0, 2^31) that looks random in x and independent across salts.
// Two affine steps modulo different primes with per-salt multipliers (all products stay below 2^63).
// ---------------------------------------------------------------------------------------------------------

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(0x1a7e_2026);
const SALTS = Array.from({ length: 64 }, () => ({
  a: 1_073_741_824 + Math.floor(rand() * 3_000_000_000),
  b: Math.floor(rand() * 4_000_000_000),
  c: 16_807 + Math.floor(rand() * 48_000),
}));
/** SQL for a pseudo-random integer in [0, 2^31) from the integer expression `x`. */
const h = (x, salt) => {
  const s = SALTS[salt];
  return `((((${x}) * ${s.a} + ${s.b}) % 4294967291) * ${s.c} % 2147483647)`;
};
/** SQL for a pseudo-random integer in [0, n). */
const hm = (x, salt, n) => `(${h(x, salt)} % ${n})`;

const q = (s) => `'${String(s).replaceAll("'", "''")}'`;
const jsonLit = (v) => q(JSON.stringify(v));
/** SQL picking element `indexSql` of a JS array (as a JSON literal). */
const pick = (array, indexSql) => `json_extract(${jsonLit(array)}, '$[' || (${indexSql}) || ']')`;
/** SQL picking uniformly from `array` with hash salt `salt` over `x`. */
const pickH = (array, x, salt) => pick(array, hm(x, salt, array.length));
/** Repeats each key by its weight: a table to pick from uniformly. */
const weighted = (weights) => Object.entries(weights).flatMap(([k, w]) => Array(w).fill(isNaN(Number(k)) ? k : Number(k)));
const seq = (name, from, to) => `${name}(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM ${name} WHERE n < ${to})`;

// ---------------------------------------------------------------------------------------------------------
// Distributions
// ---------------------------------------------------------------------------------------------------------

/** Origin countries, skewed towards Korean, Japanese and Chinese productions (weights sum to 100). */
const COUNTRY_WEIGHTS = {
  kr: 26,
  jp: 14,
  cn: 11,
  us: 10,
  tw: 7,
  th: 6,
  gb: 4,
  in: 4,
  fr: 3,
  es: 3,
  id: 3,
  ph: 2,
  br: 2,
  mx: 2,
  tr: 2,
  de: 1,
};
const COUNTRY_LANGUAGE = {
  kr: "ko",
  jp: "ja",
  cn: "zh",
  us: "en",
  tw: "zh",
  th: "th",
  gb: "en",
  in: "hi",
  fr: "fr",
  es: "es",
  id: "id",
  ph: "tl",
  br: "pt",
  mx: "es",
  tr: "tr",
  de: "de",
};
const COUNTRY_NAME = {
  kr: "Korea",
  jp: "Japan",
  cn: "China",
  us: "the United States",
  tw: "Taiwan",
  th: "Thailand",
  gb: "Britain",
  in: "India",
  fr: "France",
  es: "Spain",
  id: "Indonesia",
  ph: "the Philippines",
  br: "Brazil",
  mx: "Mexico",
  tr: "Turkey",
  de: "Germany",
};
const COUNTRIES = weighted(COUNTRY_WEIGHTS);

/** Genre ids (migrations/0001): general set 1-22 for film, series and news; music set 23-34 for artists. */
const GENRES = {
  series: weighted({
    9: 6,
    18: 6,
    6: 5,
    1: 2,
    7: 2,
    5: 2,
    11: 2,
    2: 1,
    19: 2,
    12: 1,
    21: 1,
    10: 1,
    14: 1,
    3: 1,
    4: 1,
    13: 1,
    15: 1,
    16: 1,
    17: 1,
    20: 1,
    22: 1,
  }),
  film: weighted({ 1: 4, 9: 4, 6: 3, 18: 3, 7: 3, 12: 3, 19: 3, 3: 1, 8: 2, 13: 2, 11: 1, 5: 1, 2: 1, 4: 1, 22: 1, 20: 1, 16: 1 }),
  news: weighted({ 8: 4, 14: 3, 10: 3, 20: 2, 21: 1, 15: 1, 11: 1 }),
  artist: weighted({ 23: 5, 26: 4, 24: 2, 25: 2, 27: 1, 28: 2, 29: 1, 30: 2, 31: 1, 32: 1, 33: 2, 34: 1 }),
};

/** Subtitle languages, English and Spanish most translated. */
const SUB_LANGUAGES = weighted({
  en: 8,
  es: 4,
  fr: 3,
  pt: 3,
  de: 2,
  it: 1,
  id: 2,
  ar: 2,
  ja: 1,
  ko: 1,
  zh: 1,
  th: 1,
  vi: 1,
  ru: 1,
  tr: 1,
  pl: 1,
  ro: 1,
});
/** Licence regions and platforms. */
const REGIONS = ["us", "ca", "gb", "kr", "jp", "fr", "de", "es", "br", "mx", "in", "au", "tw", "th", "id", "ph"];
const PLATFORMS = ["mobile", "web", "tv"];

// Title vocabulary per language: "<adjective> <noun>" (joined without a space for ja and zh).
const WORDS = {
  en: {
    adj: [
      "Moonlight",
      "Silent",
      "Golden",
      "Hidden",
      "Broken",
      "Crimson",
      "Endless",
      "Secret",
      "Midnight",
      "Falling",
      "Burning",
      "Lonely",
      "Wild",
      "Frozen",
      "Lucky",
      "Gentle",
      "Restless",
      "Painted",
      "Distant",
      "Velvet",
      "Last",
      "First",
      "Stolen",
      "Electric",
      "Paper",
      "Silver",
      "Hungry",
      "Quiet",
      "Wandering",
      "Sweet",
      "Dangerous",
      "Little",
      "Royal",
      "Shining",
      "Fearless",
      "Sleeping",
      "Scarlet",
      "Emerald",
      "Rising",
      "Northern",
    ],
    noun: [
      "Bakery",
      "Garden",
      "Detective",
      "Kingdom",
      "Hearts",
      "Summer",
      "Promise",
      "Empire",
      "Doctor",
      "Station",
      "Letters",
      "River",
      "Princess",
      "Tiger",
      "Melody",
      "Harbor",
      "Storm",
      "Village",
      "Chef",
      "Academy",
      "Blossom",
      "Shadow",
      "Island",
      "Palace",
      "Witness",
      "Voyage",
      "Orchard",
      "Lantern",
      "Dynasty",
      "Rooftop",
      "Mirror",
      "Winter",
      "Highway",
      "Secretary",
      "Tailor",
      "Market",
      "Phoenix",
      "Sisters",
      "Brothers",
      "Diary",
    ],
    place: [
      "Seoul",
      "Tokyo",
      "Shanghai",
      "Taipei",
      "Bangkok",
      "Paris",
      "Madrid",
      "Mumbai",
      "Jakarta",
      "Manila",
      "Istanbul",
      "Berlin",
      "Rio",
      "London",
      "Busan",
      "Osaka",
      "the North",
      "the Sea",
      "the Hills",
      "the Valley",
    ],
  },
  ko: {
    adj: ["달빛", "조용한", "황금", "숨겨진", "붉은", "비밀의", "한밤의", "외로운", "행운의", "마지막", "첫", "달콤한"],
    noun: ["베이커리", "정원", "형사", "왕국", "약속", "제국", "의사", "정거장", "공주", "호랑이", "선율", "항구"],
  },
  ja: {
    adj: ["月明かりの", "静かな", "黄金の", "隠された", "紅い", "秘密の", "真夜中の", "孤独な", "幸運な", "最後の", "最初の", "甘い"],
    noun: ["パン屋", "庭", "探偵", "王国", "約束", "帝国", "医者", "駅", "姫", "虎", "旋律", "港"],
  },
  zh: {
    adj: ["月光", "寂静的", "金色", "隐藏的", "红色", "秘密", "午夜", "孤独的", "幸运的", "最后的", "第一个", "甜蜜的"],
    noun: ["面包店", "花园", "侦探", "王国", "约定", "帝国", "医生", "车站", "公主", "老虎", "旋律", "港口"],
  },
  th: {
    adj: ["แสงจันทร์", "เงียบ", "ทองคำ", "ลับ", "สีแดง", "เที่ยงคืน", "เหงา", "โชคดี", "สุดท้าย", "แรก", "หวาน", "ป่า"],
    noun: ["ร้านขนม", "สวน", "นักสืบ", "อาณาจักร", "สัญญา", "จักรวรรดิ", "หมอ", "สถานี", "เจ้าหญิง", "เสือ", "ทำนอง", "ท่าเรือ"],
  },
  hi: {
    adj: ["चाँदनी", "ख़ामोश", "सुनहरा", "छिपा", "लाल", "गुप्त", "आधी रात", "अकेला", "भाग्यशाली", "आख़िरी", "पहला", "मीठा"],
    noun: ["बेकरी", "बाग़", "जासूस", "राज्य", "वादा", "साम्राज्य", "डॉक्टर", "स्टेशन", "राजकुमारी", "बाघ", "धुन", "बंदरगाह"],
  },
  es: {
    adj: ["Dorado", "Secreto", "Silencioso", "Perdido", "Eterno", "Salvaje", "Oculto", "Nocturno", "Dulce", "Último", "Primer", "Rojo"],
    noun: ["Jardín", "Reino", "Detective", "Verano", "Imperio", "Médico", "Puerto", "Corazón", "Tigre", "Palacio", "Destino", "Camino"],
  },
  fr: {
    adj: ["Doré", "Secret", "Silencieux", "Perdu", "Éternel", "Sauvage", "Caché", "Nocturne", "Doux", "Dernier", "Premier", "Rouge"],
    noun: ["Jardin", "Royaume", "Détective", "Été", "Empire", "Médecin", "Port", "Cœur", "Tigre", "Palais", "Destin", "Chemin"],
  },
  pt: {
    adj: [
      "Dourado",
      "Secreto",
      "Silencioso",
      "Perdido",
      "Eterno",
      "Selvagem",
      "Oculto",
      "Noturno",
      "Doce",
      "Último",
      "Primeiro",
      "Vermelho",
    ],
    noun: ["Jardim", "Reino", "Detetive", "Verão", "Império", "Médico", "Porto", "Coração", "Tigre", "Palácio", "Destino", "Caminho"],
  },
  de: {
    adj: ["Goldene", "Geheime", "Stille", "Verlorene", "Ewige", "Wilde", "Verborgene", "Nächtliche", "Süße", "Letzte", "Erste", "Rote"],
    noun: ["Garten", "Königreich", "Detektiv", "Sommer", "Imperium", "Ärztin", "Hafen", "Herz", "Tiger", "Palast", "Schicksal", "Weg"],
  },
  id: {
    adj: ["Emas", "Rahasia", "Sunyi", "Hilang", "Abadi", "Liar", "Tersembunyi", "Malam", "Manis", "Terakhir", "Pertama", "Merah"],
    noun: ["Taman", "Kerajaan", "Detektif", "Musim", "Kekaisaran", "Dokter", "Pelabuhan", "Hati", "Harimau", "Istana", "Takdir", "Jalan"],
  },
  tr: {
    adj: ["Altın", "Gizli", "Sessiz", "Kayıp", "Sonsuz", "Vahşi", "Saklı", "Gece", "Tatlı", "Son", "İlk", "Kırmızı"],
    noun: ["Bahçe", "Krallık", "Dedektif", "Yaz", "İmparatorluk", "Doktor", "Liman", "Kalp", "Kaplan", "Saray", "Kader", "Yol"],
  },
  tl: {
    adj: [
      "Gintong",
      "Lihim na",
      "Tahimik na",
      "Nawawalang",
      "Walang Hanggang",
      "Mabangis na",
      "Nakatagong",
      "Hatinggabing",
      "Matamis na",
      "Huling",
      "Unang",
      "Pulang",
    ],
    noun: ["Hardin", "Kaharian", "Detektib", "Tag-init", "Imperyo", "Doktor", "Daungan", "Puso", "Tigre", "Palasyo", "Tadhana", "Daan"],
  },
};
/** Noun first, adjective after, in these languages. */
const NOUN_FIRST = new Set(["es", "fr", "pt", "id"]);
const NO_SPACE = new Set(["ja", "zh"]);
/** Extra (translated) title languages, on top of English and the origin language. */
const EXTRA_TITLE_LANGUAGES = ["es", "fr", "pt", "de", "id", "tr", "ko", "ja", "zh", "th"];
/** "Episode n" per language: [before, after]. */
const EPISODE_WORD = {
  ko: ["제", "화"],
  ja: ["第", "話"],
  zh: ["第", "集"],
  th: ["ตอนที่ ", ""],
  hi: ["एपिसोड ", ""],
  es: ["Episodio ", ""],
  fr: ["Épisode ", ""],
  pt: ["Episódio ", ""],
  de: ["Folge ", ""],
  id: ["Episode ", ""],
  tr: ["Bölüm ", ""],
  tl: ["Kabanata ", ""],
  en: ["Episode ", ""],
};

/** SQL for a title in language `lang` (JS string) from hash source `x`. */
function titleSql(lang, x, salt) {
  const w = WORDS[lang];
  const adj = pickH(w.adj, x, salt);
  const noun = pickH(w.noun, x, salt + 1);
  if (lang === "en") {
    const tail =
      `CASE ${hm(x, salt + 2, 6)} WHEN 0 THEN ' of ' || ${pickH(w.place, x, salt + 3)} WHEN 1 THEN ' in ' || ${pickH(w.place, x, salt + 3)} ` +
      `WHEN 2 THEN ' ' || (2 + ${hm(x, salt + 4, 3)}) ELSE '' END`;
    return `(${adj} || ' ' || ${noun} || ${tail})`;
  }
  if (NO_SPACE.has(lang)) return `(${adj} || ${noun})`;
  if (NOUN_FIRST.has(lang)) return `(${noun} || ' ' || ${adj})`;
  return `(${adj} || ' ' || ${noun})`;
}

/** SQL CASE giving a title in the language held by the SQL expression `langSql`. */
function titleInSql(langSql, x, salt, languages) {
  return `CASE ${langSql} ${languages.map((l) => `WHEN ${q(l)} THEN ${titleSql(l, x, salt)}`).join(" ")} END`;
}

// ---------------------------------------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------------------------------------

const cRange = (from, to) => `id BETWEEN ${containerId(from)} AND ${containerId(to)}`;
const vRange = (from, to) => `id BETWEEN ${videoId(from, 0)} AND ${videoId(to, VIDEO_STRIDE - 1)}`;

/** The state a container ends in: 2.5% pending, 1.5% blocked, the rest normal. */
const finalStateSql = (i) => `CASE WHEN ${hm(i, 5, 1000)} < 25 THEN 'pending' WHEN ${hm(i, 5, 1000)} < 40 THEN 'blocked' ELSE 'normal' END`;

/** Containers, all `pending` until containerStatesSql (see the top of the file). */
function containersSql(from, to) {
  return `INSERT OR IGNORE INTO containers (id, type, origin_country, origin_language, hosted, licensed, adult, on_air, upcoming,
  state, poster_url, views, views_recent, trending, average_rating, rating_count, release_date, air_time, created_at, updated_at)
WITH RECURSIVE ${seq("s", from, to)},
a AS (
  SELECT n AS i,
    CASE WHEN ${hm("n", 1, 100)} < 45 THEN 'series' WHEN ${hm("n", 1, 100)} < 70 THEN 'film'
         WHEN ${hm("n", 1, 100)} < 80 THEN 'news' ELSE 'artist' END AS type,
    ${pickH(COUNTRIES, "n", 2)} AS country,
    150000000 / (1 + ${hm("n", 3, 100000)}) + ${hm("n", 4, 1000)} AS views,
    ${hm("n", 6, 100)} AS r6,
    ${hm("n", 7, 100)} AS r7,
    ${NOW} - ${hm("n", 8, 3650)} * ${DAY} - ${hm("n", 9, DAY)} AS created_at
  FROM s
),
b AS (
  SELECT a.*,
    json_extract(${jsonLit(COUNTRY_LANGUAGE)}, '$.' || country) AS language,
    CASE WHEN type IN ('series', 'film') AND r6 < 2 THEN 1 ELSE 0 END AS upcoming,
    views * (1 + ${hm("i", 10, 40)}) / 100 AS views_recent,
    views / (50 + ${hm("i", 11, 500)}) AS rating_count
  FROM a
)
SELECT ${CONTAINER_BASE} + i, type, country, language,
  ${hm("i", 12, 100)} >= 6,
  ${hm("i", 13, 100)} >= 8,
  type IN ('series', 'film') AND ${hm("i", 14, 100)} < 9,
  CASE type WHEN 'series' THEN r7 < 12 WHEN 'news' THEN r7 < 60 ELSE 0 END,
  upcoming,
  'pending',
  CASE WHEN ${hm("i", 15, 10)} < 9 THEN 'https://img.example.com/c/' || (${CONTAINER_BASE} + i) || '.jpg' END,
  views, views_recent,
  views_recent * ${hm("i", 16, 20)} / 100,
  CASE WHEN rating_count = 0 THEN 0 ELSE round(5.0 + ${hm("i", 17, 50)} / 10.0, 1) END,
  rating_count,
  CASE WHEN upcoming = 1 THEN date(${NOW}, 'unixepoch', '+' || (10 + ${hm("i", 18, 200)}) || ' days')
       WHEN type IN ('news', 'artist') AND ${hm("i", 19, 2)} = 0 THEN NULL
       ELSE date(${NOW}, 'unixepoch', '-' || (${hm("i", 20, 110)} * ${hm("i", 21, 110)}) || ' days') END,
  CASE WHEN type IN ('series', 'news') OR ${hm("i", 22, 4)} = 0
       THEN ${NOW} - ${hm("i", 23, 1500)} * ${DAY} + ${hm("i", 24, 24)} * 3600 END,
  created_at,
  min(created_at + ${hm("i", 25, 400)} * ${DAY}, ${NOW})
FROM b`;
}

/**
 * Videos by container type: series 6-18 episodes (one in eight a long runner, up to 90) plus a trailer and
 * sometimes a clip; films a movie, one or two trailers, up to two clips (upcoming ones: trailers only);
 * news 4-24 numbered news clips; artists 3-20 music videos and sometimes a clip.
 */
function videosSql(from, to) {
  return `INSERT OR IGNORE INTO videos (id, container_id, type, number, duration, state, origin_language, hd, poster_url, views, created_at, updated_at)
WITH RECURSIVE ${seq("k", 1, VIDEO_STRIDE - 1)},
p AS (
  SELECT c.id AS cid, c.id - ${CONTAINER_BASE} AS i, c.type AS ctype, c.upcoming AS upcoming, c.origin_language AS lang,
    c.views AS cviews, c.created_at AS cat,
    CASE c.type
      WHEN 'series' THEN CASE WHEN c.upcoming THEN 0 ELSE min(90, 6 + ${hm("c.id", 30, 13)} + CASE WHEN ${hm("c.id", 31, 8)} = 0 THEN ${hm("c.id", 32, 73)} ELSE 0 END) END
      WHEN 'film' THEN CASE WHEN c.upcoming THEN 0 ELSE 1 END
      WHEN 'news' THEN 4 + ${hm("c.id", 30, 21)}
      ELSE 3 + ${hm("c.id", 30, 18)} END AS main,
    CASE c.type WHEN 'series' THEN 1 WHEN 'film' THEN 1 + ${hm("c.id", 33, 2)} ELSE 0 END AS trailers,
    CASE c.type WHEN 'series' THEN ${hm("c.id", 34, 2)} WHEN 'film' THEN ${hm("c.id", 34, 3)} WHEN 'artist' THEN ${hm("c.id", 34, 3)} / 2 ELSE 0 END AS clips
  FROM containers c WHERE c.${cRange(from, to)}
),
v AS (
  SELECT p.*, k.n AS n, ${VIDEO_BASE} + ${VIDEO_STRIDE} * p.i + k.n AS vid,
    CASE WHEN k.n <= p.main THEN CASE p.ctype WHEN 'series' THEN 'episode' WHEN 'film' THEN 'movie' WHEN 'news' THEN 'news_clip' ELSE 'music_video' END
         WHEN k.n <= p.main + p.trailers THEN 'trailer' ELSE 'clip' END AS type
  FROM p JOIN k ON k.n <= p.main + p.trailers + p.clips
)
SELECT vid, cid, type,
  CASE WHEN type IN ('episode', 'news_clip', 'music_video') THEN n END,
  CASE type WHEN 'episode' THEN 2400 + ${hm("vid", 35, 1800)} WHEN 'movie' THEN 5400 + ${hm("vid", 35, 3000)}
    WHEN 'trailer' THEN 60 + ${hm("vid", 35, 120)} WHEN 'music_video' THEN 180 + ${hm("vid", 35, 150)}
    WHEN 'news_clip' THEN 60 + ${hm("vid", 35, 340)} ELSE 60 + ${hm("vid", 35, 540)} END,
  CASE WHEN ${hm("vid", 36, 1000)} < 20 THEN 'pending' WHEN ${hm("vid", 36, 1000)} < 35 THEN 'blocked' ELSE 'normal' END,
  lang,
  ${hm("vid", 37, 10)} < 7,
  CASE WHEN ${hm("vid", 38, 4)} > 0 THEN 'https://img.example.com/v/' || vid || '.jpg' END,
  cviews / (2 + n) + ${hm("vid", 39, 500)},
  min(cat + n * 7 * ${DAY} + ${hm("vid", 40, DAY)}, ${NOW} - 3600),
  min(cat + n * 7 * ${DAY} + ${hm("vid", 40, DAY)} + ${hm("vid", 41, 30)} * ${DAY}, ${NOW} - 3600)
FROM v`;
}

const TITLE_LANGS = Object.keys(WORDS);

/** English for 97% of containers, the origin language for all, translations into 0-3 more languages (half none). */
function containerTitlesSql(from, to) {
  const slots = 4; // slot 0: English, 1: origin language, 2-4: translations
  return `INSERT OR IGNORE INTO titles (resource_kind, resource_id, language, text, updated_at)
WITH RECURSIVE ${seq("k", 0, slots)},
t AS (
  SELECT c.id AS cid, c.id - ${CONTAINER_BASE} AS i, c.updated_at AS at, k.n AS slot,
    CASE WHEN k.n = 0 THEN CASE WHEN ${hm("c.id", 42, 100)} < 97 THEN 'en' END
         WHEN k.n = 1 THEN c.origin_language
         WHEN k.n - 1 <= CASE ${hm("c.id", 43, 10)} WHEN 9 THEN 3 WHEN 8 THEN 2 WHEN 7 THEN 1 WHEN 6 THEN 1 WHEN 5 THEN 1 ELSE 0 END THEN ${pick(EXTRA_TITLE_LANGUAGES, `${hm("c.id * 7 + k.n", 44, EXTRA_TITLE_LANGUAGES.length)}`)}
    END AS lang
  FROM containers c JOIN k WHERE c.${cRange(from, to)}
)
SELECT 'c', cid, lang, ${titleInSql("lang", "i", 45, TITLE_LANGS)}, at
FROM t WHERE lang IS NOT NULL`;
}

/** An English description for two thirds of the containers. */
function containerDescriptionsSql(from, to) {
  const w = WORDS.en;
  const kind = `CASE c.type WHEN 'series' THEN 'drama series' WHEN 'film' THEN 'film' WHEN 'news' THEN 'news channel' ELSE 'artist channel' END`;
  return `INSERT OR IGNORE INTO descriptions (resource_kind, resource_id, language, text, updated_at)
SELECT 'c', c.id, 'en',
  'A ' || lower(${pickH(w.adj, "c.id", 46)}) || ' ' || ${kind} || ' from ' || json_extract(${jsonLit(COUNTRY_NAME)}, '$.' || c.origin_country)
    || ' about a ' || lower(${pickH(w.noun, "c.id", 47)}) || ' and a ' || lower(${pickH(w.noun, "c.id", 48)}) || '.',
  c.updated_at
FROM containers c WHERE c.${cRange(from, to)} AND ${hm("c.id", 49, 3)} > 0`;
}

/** One to three genres from the set of the container's type (duplicates collapse, so some get fewer). */
function containerGenresSql(from, to) {
  const byType = (slotSql) =>
    `CASE c.type ${Object.entries(GENRES)
      .map(([t, list]) => `WHEN ${q(t)} THEN ${pick(list, hm(slotSql, 50, list.length))}`)
      .join(" ")} END`;
  return `INSERT OR IGNORE INTO container_genres (container_id, genre_id)
WITH RECURSIVE ${seq("k", 1, 3)}
SELECT c.id, ${byType("c.id * 5 + k.n")}
FROM containers c JOIN k ON k.n <= 1 + ${hm("c.id", 51, 3)}
WHERE c.${cRange(from, to)}`;
}

/** Licences for 55% of containers: one to four regions, each on the web and often on mobile and TV. */
function licensesSql(from, to) {
  return `INSERT OR IGNORE INTO licenses (container_id, region, platform)
WITH RECURSIVE ${seq("k", 1, 4)}
SELECT c.id, ${pick(REGIONS, hm("c.id * 5 + k.n", 52, REGIONS.length))}, p.value
FROM containers c JOIN k ON k.n <= 1 + ${hm("c.id", 53, 4)} JOIN json_each(${jsonLit(PLATFORMS)}) p
WHERE c.${cRange(from, to)} AND ${hm("c.id", 54, 100)} < 55
  AND (p.value = 'web' OR ${hm("c.id * 17 + k.n * 3 + p.key", 55, 100)} < 60)`;
}

/** Percent buckets: a quarter complete, the rest spread, about two thirds at or above 50. */
const percentSql = (x, salt) =>
  `CASE WHEN ${hm(x, salt, 100)} < 25 THEN 100 WHEN ${hm(x, salt, 100)} < 45 THEN 80 + ${hm(x, salt + 1, 20)}
        WHEN ${hm(x, salt, 100)} < 65 THEN 50 + ${hm(x, salt + 1, 30)} ELSE 1 + ${hm(x, salt + 1, 49)} END`;

/** Container completions: none for 30%, then one, two, four or seven languages (long tail). */
function containerCompletionsSql(from, to) {
  return `INSERT OR IGNORE INTO subtitle_completions (resource_kind, resource_id, language, percent, updated_at)
WITH RECURSIVE ${seq("k", 1, 7)}
SELECT 'c', c.id, ${pick(SUB_LANGUAGES, hm("c.id * 11 + k.n", 56, SUB_LANGUAGES.length))}, ${percentSql("c.id * 11 + k.n", 57)}, ${NOW}
FROM containers c JOIN k ON k.n <= CASE ${hm("c.id", 59, 10)} WHEN 0 THEN 0 WHEN 1 THEN 0 WHEN 2 THEN 0 WHEN 3 THEN 1 WHEN 4 THEN 1
  WHEN 5 THEN 1 WHEN 6 THEN 2 WHEN 7 THEN 2 WHEN 8 THEN 4 ELSE 7 END
WHERE c.${cRange(from, to)}`;
}

/** English titles for three quarters of the videos; origin-language episode titles for a quarter of episodes. */
function videoTitlesSql(from, to) {
  const w = WORDS.en;
  const epWord = (langSql) =>
    `CASE ${langSql} ${Object.entries(EPISODE_WORD)
      .map(([l, [pre, post]]) => `WHEN ${q(l)} THEN ${q(pre)} || v.number || ${q(post)}`)
      .join(" ")} END`;
  const en = `CASE v.type
      WHEN 'episode' THEN 'Episode ' || v.number
      WHEN 'movie' THEN coalesce((SELECT text FROM titles t WHERE t.resource_kind = 'c' AND t.resource_id = v.container_id AND t.language = 'en'), 'Feature')
      WHEN 'trailer' THEN CASE WHEN ${hm("v.id", 60, 2)} = 0 THEN 'Official Trailer' ELSE 'Teaser' END
      WHEN 'music_video' THEN ${pickH(w.adj, "v.id", 61)} || ' ' || ${pickH(w.noun, "v.id", 62)}
      WHEN 'news_clip' THEN 'Headlines, ' || date(v.created_at, 'unixepoch')
      ELSE CASE ${hm("v.id", 63, 3)} WHEN 0 THEN 'Behind the Scenes' WHEN 1 THEN 'Highlights' ELSE 'Interview' END END`;
  return `INSERT OR IGNORE INTO titles (resource_kind, resource_id, language, text, updated_at)
SELECT 'v', v.id, 'en', ${en}, v.updated_at
FROM videos v WHERE v.${vRange(from, to)} AND ${hm("v.id", 0, 4)} > 0
UNION ALL
SELECT 'v', v.id, v.origin_language, ${epWord("v.origin_language")}, v.updated_at
FROM videos v WHERE v.${vRange(from, to)} AND v.type = 'episode' AND v.origin_language <> 'en' AND ${hm("v.id", 1, 4)} = 0`;
}

/** Video completions for 40% of normal videos in one to three languages. */
function videoCompletionsSql(from, to) {
  return `INSERT OR IGNORE INTO subtitle_completions (resource_kind, resource_id, language, percent, updated_at)
WITH RECURSIVE ${seq("k", 1, 3)}
SELECT 'v', v.id, ${pick(SUB_LANGUAGES, hm("v.id * 5 + k.n", 2, SUB_LANGUAGES.length))}, ${percentSql("v.id * 5 + k.n", 3)}, ${NOW}
FROM videos v JOIN k ON k.n <= 1 + ${hm("v.id", 5, 3)}
WHERE v.${vRange(from, to)} AND v.state = 'normal' AND ${hm("v.id", 6, 10)} < 4`;
}

/** The real container states, last: builds each container's facets once (a no-op on a re-run). */
function containerStatesSql(from, to) {
  const state = finalStateSql(`id - ${CONTAINER_BASE}`);
  return `UPDATE containers SET state = ${state} WHERE ${cRange(from, to)} AND state <> ${state}`;
}

/**
 * Statistics for the planner, run before the completion-heavy statements. The derived-document triggers look
 * completions up by (resource_kind, resource_id); with no statistics SQLite prefers the covering index
 * (resource_kind, language, percent, resource_id) and scans every completion of that kind on each trigger
 * call, which makes seeding quadratic (see docs/performance.md). `ANALYZE` of this one table is enough for it
 * to pick the primary key, and costs a few milliseconds.
 */
export const ANALYZE_SQL = "ANALYZE subtitle_completions";

/**
 * The statements that seed containers `from`..`to` (1-based indexes) with everything hanging off them, in
 * an order that keeps the triggers cheap. Each is one INSERT ... SELECT, UPDATE or ANALYZE; run them in
 * order. A range is complete once its last statement has run; running it again changes nothing.
 */
export function largeCatalogueStatements({ from = 1, to = 10_000, analyze = true } = {}) {
  if (!(Number.isInteger(from) && Number.isInteger(to) && from >= 1 && to >= from && to <= 1_000_000)) {
    throw new Error(`bad range ${from}..${to} (1..1,000,000)`);
  }
  const stats = analyze ? [{ table: "(planner statistics)", sql: ANALYZE_SQL }] : [];
  return [
    ...stats,
    { table: "containers", sql: containersSql(from, to) },
    { table: "videos", sql: videosSql(from, to) },
    { table: "titles (containers)", sql: containerTitlesSql(from, to) },
    { table: "descriptions", sql: containerDescriptionsSql(from, to) },
    { table: "container_genres", sql: containerGenresSql(from, to) },
    { table: "licenses", sql: licensesSql(from, to) },
    { table: "subtitle_completions (containers)", sql: containerCompletionsSql(from, to) },
    { table: "titles (videos)", sql: videoTitlesSql(from, to) },
    ...stats,
    { table: "subtitle_completions (videos)", sql: videoCompletionsSql(from, to) },
    { table: "containers (states, facets)", sql: containerStatesSql(from, to) },
    // The states above left a change for the shards' copy of each container's facts (docs/decisions.md, "Shards: the
    // subtitle family"); the seed writes nothing on the shards, and whatever later writes there takes the facts as
    // they are then, so the changes would only be work for the first requests after the seed.
    { table: "shard_fact_changes (none needed)", sql: `DELETE FROM shard_fact_changes WHERE container_${cRange(from, to)}` },
  ];
}

/** Counts of the large catalogue's rows (ids in its ranges), for progress and reports. */
export function largeCatalogueCountsSql(containers = 10_000) {
  const c = cRange(1, containers);
  const v = vRange(1, containers);
  return `SELECT
  (SELECT count(*) FROM containers WHERE ${c}) AS containers,
  (SELECT count(*) FROM videos WHERE ${v}) AS videos,
  (SELECT count(*) FROM titles WHERE resource_kind = 'c' AND resource_${c}) + (SELECT count(*) FROM titles WHERE resource_kind = 'v' AND resource_${v}) AS titles,
  (SELECT count(*) FROM container_genres WHERE container_${c}) AS container_genres,
  (SELECT count(*) FROM licenses WHERE container_${c}) AS licenses,
  (SELECT count(*) FROM subtitle_completions WHERE resource_kind = 'c' AND resource_${c}) + (SELECT count(*) FROM subtitle_completions WHERE resource_kind = 'v' AND resource_${v}) AS subtitle_completions,
  (SELECT count(*) FROM container_facets WHERE container_${c}) AS container_facets`;
}
