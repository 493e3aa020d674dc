// Demo data for the local D1 (DESIGN.md §8): applications, users, a catalogue of films, series, news and
// artists with videos, titles, descriptions, licences, localisation (segments, subtitles, histories,
// completions), the featured list 1l (the on-air 2l and upcoming 6l follow the containers' flags) and a
// little community activity.
//
// demoSeedSql() returns plain SQL for `wrangler d1 execute --file`. It is:
// - deterministic: a seeded PRNG and a fixed clock, so every call returns the same string;
// - idempotent: every row has an explicit key and is written with INSERT OR IGNORE, and completions are
//   recomputed with an upsert that only writes changed percentages, so a second run changes nothing
//   (and fires none of the derived-document triggers of migration 0003).
// Plain Node ESM with node: built-ins only, so scripts can import it without a build step.

import { createHash, pbkdf2Sync } from "node:crypto";

// ---------------------------------------------------------------------------------------------------------
// Clock, randomness, SQL helpers
// ---------------------------------------------------------------------------------------------------------

/** The demo's "now" (2026-11-15T00:00:00Z). Fixed so the output never changes; all history lies before it. */
const NOW = Date.UTC(2026, 10, 15) / 1000;
const DAY = 86_400;
const HOUR = 3_600;
const SEED = 0x5eed_2026;
/** Rows per multi-row INSERT: keeps each statement well under D1's statement size limit. */
const CHUNK = 50;

/** mulberry32: tiny, fast, good enough for demo data, and identical on every platform. */
function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random helpers bound to one generator, so call order alone decides the output. */
function randomTools(seed) {
  const next = mulberry32(seed);
  const int = (min, max) => min + Math.floor(next() * (max - min + 1)); // inclusive
  const pick = (items) => items[Math.floor(next() * items.length)];
  const chance = (p) => next() < p;
  const shuffle = (items) => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  return { next, int, pick, chance, shuffle };
}

function sqlLiteral(value) {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  return `'${String(value).replaceAll("'", "''")}'`;
}

/** Multi-row INSERT OR IGNORE statements for `rows` (objects keyed by column name), CHUNK rows each. */
function insertRows(table, columns, rows) {
  const statements = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const values = rows
      .slice(i, i + CHUNK)
      .map((row) => `(${columns.map((col) => sqlLiteral(row[col])).join(", ")})`)
      .join(",\n  ");
    const cols = columns.map((c) => `"${c}"`).join(", ");
    statements.push(`INSERT OR IGNORE INTO ${table} (${cols}) VALUES\n  ${values}`);
  }
  return statements;
}

const capNow = (ts) => Math.min(ts, NOW - HOUR);
const isoDate = (ts) => new Date(ts * 1000).toISOString().slice(0, 10);
const utcMidnight = (y, m, d) => Date.UTC(y, m - 1, d) / 1000;

// ---------------------------------------------------------------------------------------------------------
// Applications and users
// ---------------------------------------------------------------------------------------------------------

const APPLICATIONS = [
  { id: 100000, name: "Official App", official: 1, unhosted_access: 1, secret: "official-dev-secret" },
  { id: 100001, name: "Partner App", official: 0, unhosted_access: 0, secret: "partner-dev-secret" },
];

const USERS = [
  { id: 1, username: "admin", name: "Site Admin", staff: 1 },
  { id: 2, username: "manager", name: "Mina Channel", staff: 0 },
  { id: 3, username: "alice", name: "Alice Martin", staff: 0 },
  { id: 4, username: "bob", name: "Bob Tanaka", staff: 0 },
];
const ADMIN = 1;
const MANAGER = 2;
const ALICE = 3;
const BOB = 4;

const base64url = (buf) => buf.toString("base64").replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

/**
 * The format of src/lib/password.ts: pbkdf2-sha256$<iterations>$<salt b64url>$<hash b64url>, 32-byte
 * PBKDF2-HMAC-SHA256. The salt is derived from the username (not random) so the SQL is stable across runs.
 */
function demoPasswordHash(username) {
  const iterations = 100_000;
  const salt = createHash("sha256").update(`demo-salt:${username}`).digest().subarray(0, 16);
  const hash = pbkdf2Sync(`${username}-password`, salt, iterations, 32, "sha256");
  return `pbkdf2-sha256$${iterations}$${base64url(salt)}$${base64url(hash)}`;
}

function applicationRows() {
  return APPLICATIONS.map((a) => ({ ...a, created_at: utcMidnight(2020, 1, 1) }));
}

function userRows() {
  return USERS.map((u, i) => ({
    ...u,
    email: `${u.username}@example.com`,
    password_hash: demoPasswordHash(u.username),
    created_at: utcMidnight(2020, 1, 1) + i * 30 * DAY,
    updated_at: utcMidnight(2024, 6, 1) + i * DAY,
  }));
}

// ---------------------------------------------------------------------------------------------------------
// Catalogue definition (hand-written: titles and loglines; numbers are generated below)
// ---------------------------------------------------------------------------------------------------------

const COUNTRY_LANGUAGE = {
  kr: "ko", jp: "ja", cn: "zh", tw: "zh", us: "en", gb: "en", fr: "fr", es: "es", th: "th", in: "hi",
};

// Genre ids from migrations/0001_builtin_data.sql.
const G = {
  action: 1, anime: 2, bio: 3, cartoon: 4, period: 5, comedy: 6, crime: 7, documentary: 8, drama: 9,
  entertainment: 10, historical: 11, horror: 12, indie: 13, lifestyle: 14, liveAction: 16, liveShow: 15,
  music: 17, romance: 18, scifi: 19, sports: 20, variety: 21, western: 22,
};
const M = {
  kpop: 23, jpop: 24, cpop: 25, pop: 26, rock: 27, hiphop: 28, rnb: 29, ballad: 30, electronic: 31,
  indie: 32, ost: 33, jazz: 34,
};

/**
 * One entry per container, id = position + 1. `t` holds titles other than English; `log` the English
 * description (omitted for a few, which then have none in English). Flags default to a hosted, licensed,
 * family-friendly, off-air, released container.
 */
const CATALOGUE = [
  // --- series (ids 1-22) ---
  { type: "series", country: "kr", en: "Moonlight Bakery", genres: [G.romance, G.comedy, G.drama], onAir: 1,
    t: { ko: "달빛 베이커리", ja: "月明かりのベーカリー", zh: "月光面包店", es: "La panadería a la luz de la luna", fr: "La boulangerie au clair de lune", de: "Die Mondschein-Bäckerei" },
    log: "A pastry chef who only bakes after midnight falls for the food critic who panned her shop." },
  { type: "series", country: "kr", en: "Seoul Detectives", genres: [G.crime, G.action, G.drama],
    t: { ko: "서울 형사들", ja: "ソウルの刑事たち", zh: "首尔刑警", es: "Detectives de Seúl", fr: "Les détectives de Séoul", de: "Die Detektive von Seoul" },
    log: "Two mismatched detectives chase a serial thief across the rooftops of Seoul." },
  { type: "series", country: "kr", en: "The King's Secret Garden", genres: [G.historical, G.period, G.romance],
    t: { ko: "왕의 비밀 정원", ja: "王の秘密の庭", zh: "国王的秘密花园", es: "El jardín secreto del rey", fr: "Le jardin secret du roi", de: "Der geheime Garten des Königs" },
    log: "In the Joseon court, a royal gardener hides a secret that could topple the throne." },
  { type: "series", country: "kr", en: "Hospital Nights", genres: [G.drama],
    t: { ko: "병원의 밤", ja: "病院の夜", zh: "医院之夜", es: "Noches de hospital", fr: "Nuits à l'hôpital", de: "Nächte im Krankenhaus" },
    log: "The night shift of a Seoul emergency room, one impossible case at a time." },
  { type: "series", country: "kr", en: "Second Chance Romance", genres: [G.romance, G.comedy], onAir: 1,
    t: { ko: "두 번째 기회의 로맨스", ja: "セカンドチャンス・ロマンス", zh: "第二次机会的爱情", es: "Un amor de segunda oportunidad", fr: "Une seconde chance pour l'amour" },
    log: "Divorced for ten years, a couple is forced to run a wedding hall together." },
  { type: "series", country: "jp", en: "Tokyo Night Shift", genres: [G.drama, G.comedy],
    t: { ja: "東京ナイトシフト", ko: "도쿄 나이트 시프트", zh: "东京夜班", es: "Turno de noche en Tokio", fr: "Service de nuit à Tokyo", de: "Nachtschicht in Tokio" },
    log: "Strangers who work through the night cross paths at a 24-hour convenience store." },
  { type: "series", country: "jp", en: "Spirit Blade Academy", genres: [G.anime, G.action, G.scifi], onAir: 1,
    t: { ja: "霊剣学園", ko: "영검 아카데미", zh: "灵剑学院", es: "Academia Espada Espiritual", fr: "L'Académie de la lame spirituelle", de: "Geisterklingen-Akademie" },
    log: "Students bound to talking swords train to defend their city from wandering spirits." },
  { type: "series", country: "jp", en: "The Quiet Ramen Shop", genres: [G.lifestyle, G.drama],
    t: { ja: "静かなラーメン屋", ko: "조용한 라멘 가게", zh: "安静的拉面店", fr: "Le paisible restaurant de ramen" },
    log: "Each episode, a new guest brings a story to a tiny ramen counter in Osaka." },
  { type: "series", country: "cn", en: "Legend of the Jade Phoenix", genres: [G.historical, G.scifi, G.action],
    t: { zh: "玉凤传奇", ko: "옥봉황 전설", ja: "翡翠鳳凰伝説", es: "La leyenda del fénix de jade", fr: "La légende du phénix de jade", de: "Die Legende des Jadephönix" },
    log: "A disgraced princess seeks the mythical Jade Phoenix to reclaim her kingdom." },
  { type: "series", country: "cn", en: "Shanghai Love Story", genres: [G.romance, G.drama],
    t: { zh: "上海爱情故事", ko: "상하이 러브 스토리", ja: "上海ラブストーリー", es: "Historia de amor en Shanghái" },
    log: "An architect and a street musician keep meeting by chance on the Bund." },
  { type: "series", country: "tw", en: "Taipei Rooftop Days", genres: [G.romance, G.comedy, G.drama],
    t: { zh: "台北屋頂的日子", ko: "타이베이 옥상의 나날", ja: "台北屋上の日々", es: "Días en la azotea de Taipéi", fr: "Jours sur les toits de Taipei", de: "Tage auf den Dächern von Taipeh" },
    log: "Five flatmates share one rooftop apartment and far too many secrets." },
  { type: "series", country: "th", en: "Bangkok Hearts", genres: [G.romance, G.comedy], onAir: 1,
    t: { th: "หัวใจบางกอก", ko: "방콕 하트", ja: "バンコク・ハーツ", zh: "曼谷之心", es: "Corazones de Bangkok", fr: "Cœurs de Bangkok" },
    log: "A food-stall owner and a hotel heir compete for the same market corner." },
  { type: "series", country: "th", en: "The Haunted Dormitory", genres: [G.horror], adult: 1,
    t: { th: "หอพักผีสิง", ko: "유령 기숙사", ja: "呪われた寮", zh: "闹鬼的宿舍", es: "La residencia embrujada", fr: "Le dortoir hanté", de: "Das Spukwohnheim" },
    log: "New students discover why room 404 has stayed empty for thirty years." },
  { type: "series", country: "us", en: "Silicon Dreams", genres: [G.drama, G.comedy],
    t: { ko: "실리콘 드림", ja: "シリコン・ドリームズ", zh: "硅谷梦想", es: "Sueños de silicio", fr: "Rêves de silicium", de: "Silizium-Träume" },
    log: "Three college friends bet everything on a start-up nobody believes in." },
  { type: "series", country: "us", en: "Desert Sheriff", genres: [G.western, G.crime, G.action], adult: 1,
    t: { ko: "사막의 보안관", ja: "砂漠の保安官", es: "El sheriff del desierto", fr: "Le shérif du désert", de: "Der Wüstensheriff" },
    log: "A retired sheriff is pulled back into a border town's war over water." },
  { type: "series", country: "gb", en: "The Cornwall Inheritance", genres: [G.crime, G.drama, G.period],
    t: { fr: "L'héritage de Cornouailles", de: "Das Erbe von Cornwall", es: "La herencia de Cornualles", ja: "コーンウォールの遺産", ko: "콘월의 유산", zh: "康沃尔遗产" },
    log: "A will read aloud in a crumbling manor sets six cousins against each other." },
  { type: "series", country: "gb", en: "Baking Britain", genres: [G.lifestyle, G.entertainment], licensed: 0,
    log: "Amateur bakers tour the country's village fairs in search of the perfect bake." },
  { type: "series", country: "fr", en: "The Neighbours", genres: [G.comedy, G.drama],
    t: { fr: "Les Voisins", es: "Los vecinos", de: "Die Nachbarn", ko: "이웃들", ja: "隣人たち" },
    log: "Life, gossip and feuds on one staircase of a Lyon apartment building." },
  { type: "series", country: "es", en: "Madrid Central", genres: [G.crime, G.drama], adult: 1,
    t: { es: "Madrid Central", fr: "Madrid Central" },
    log: "Officers of a central Madrid police station juggle cases and private lives." },
  { type: "series", country: "in", en: "Mumbai Monsoon", genres: [G.romance, G.drama],
    t: { hi: "मुंबई मानसून", ko: "뭄바이 몬순", ja: "ムンバイ・モンスーン" },
    log: "Two families, one wedding and the wettest monsoon Mumbai has seen in decades." },
  { type: "series", country: "kr", en: "Running Friends", genres: [G.variety, G.entertainment], onAir: 1,
    t: { ko: "달리는 친구들", ja: "ランニング・フレンズ", zh: "奔跑的朋友们" },
    log: "Six comedians race across the country completing absurd missions." },
  { type: "series", country: "kr", en: "Fan Cam Diaries", genres: [G.entertainment], hosted: 0, licensed: 0,
    t: { ko: "팬캠 다이어리" } },
  // --- films (ids 23-37) ---
  { type: "film", country: "kr", en: "Midnight Express Line", genres: [G.action, G.horror], adult: 1,
    t: { ko: "자정의 급행열차", ja: "真夜中の急行線", zh: "午夜快线", es: "La línea exprés de medianoche", fr: "La ligne express de minuit" },
    log: "Passengers on the last train of the night realise the next station does not exist." },
  { type: "film", country: "kr", en: "Letters to Spring", genres: [G.romance, G.drama],
    t: { ko: "봄에게 보내는 편지", ja: "春への手紙", zh: "致春天的信", es: "Cartas a la primavera", fr: "Lettres au printemps", de: "Briefe an den Frühling" },
    log: "A postman delivers letters that were written twenty years too early." },
  { type: "film", country: "jp", en: "Paper Lantern Summer", genres: [G.anime, G.drama],
    t: { ja: "提灯の夏", ko: "종이등불의 여름", zh: "纸灯笼之夏", es: "Verano de farolillos", fr: "L'été des lanternes", de: "Laternensommer" },
    log: "During one festival week, a girl can see the people her town has forgotten." },
  { type: "film", country: "jp", en: "Samurai of the Northern Snow", genres: [G.historical, G.action],
    t: { ja: "北雪の侍", ko: "북설의 사무라이", zh: "北雪武士", es: "El samurái de las nieves del norte", fr: "Le samouraï des neiges du Nord", de: "Der Samurai des Nordschnees" },
    log: "A masterless samurai escorts a child across the mountains in the dead of winter." },
  { type: "film", country: "cn", en: "The Silk Road Courier", genres: [G.action, G.historical],
    t: { zh: "丝路信使", ko: "실크로드의 전령", ja: "シルクロードの使者" },
    log: "A courier must carry a sealed message from Chang'an to Samarkand before winter." },
  { type: "film", country: "tw", en: "Night Market Blues", genres: [G.drama, G.indie, G.comedy],
    t: { zh: "夜市藍調", ja: "夜市ブルース" },
    log: "A failed jazz musician takes over his father's night-market noodle stall." },
  { type: "film", country: "us", en: "Orbit Zero", genres: [G.scifi, G.action],
    t: { ko: "궤도 제로", ja: "オービット・ゼロ", zh: "零号轨道", es: "Órbita cero", fr: "Orbite zéro", de: "Orbit Null" },
    log: "The crew of a failing space station has ninety minutes to bring it home." },
  { type: "film", country: "us", en: "The Long Way Home", genres: [G.drama, G.bio],
    t: { es: "El largo camino a casa", fr: "Le long chemin du retour" },
    log: "The true story of a veteran who walked across America to meet his daughter." },
  { type: "film", country: "us", en: "Little Robot Finds a Friend", genres: [G.cartoon, G.comedy],
    t: { ko: "꼬마 로봇의 친구 찾기", ja: "ちいさなロボットのともだち", zh: "小机器人找朋友", es: "El pequeño robot encuentra un amigo", fr: "Le petit robot trouve un ami", de: "Der kleine Roboter findet einen Freund" },
    log: "A cleaning robot leaves the factory for the first time to find someone to talk to." },
  { type: "film", country: "gb", en: "Queen of the Thames", genres: [G.bio, G.historical],
    t: { fr: "La reine de la Tamise", de: "Die Königin der Themse", es: "La reina del Támesis" },
    log: "The life of the first woman to run a London shipping company." },
  { type: "film", country: "fr", en: "The Last Summer", genres: [G.romance, G.drama, G.indie],
    t: { fr: "Le Dernier Été", es: "El último verano", de: "Der letzte Sommer", ja: "最後の夏", ko: "마지막 여름" },
    log: "Two teenagers spend one last summer in Brittany before their lives split apart." },
  { type: "film", country: "es", en: "Blood and Red Sand", genres: [G.crime, G.drama], adult: 1,
    t: { es: "Sangre y arena roja", fr: "Sang et sable rouge", de: "Blut und roter Sand" },
    log: "A bullfighter in debt agrees to one final, fixed fight." },
  { type: "film", country: "in", en: "Matters of the Heart", genres: [G.romance, G.music, G.comedy],
    t: { hi: "दिल की बात", es: "Asuntos del corazón", fr: "Affaires de cœur" },
    log: "A wedding singer falls for the bride's sister, who cannot stand music." },
  { type: "film", country: "th", en: "Muay Thai Legacy", genres: [G.action, G.sports],
    t: { th: "มรดกมวยไทย", ja: "ムエタイ・レガシー", ko: "무에타이 레거시" },
    log: "A young fighter reopens her grandfather's boxing camp in Chiang Mai." },
  { type: "film", country: "gb", en: "Oceans in Motion", genres: [G.documentary],
    t: { fr: "Océans en mouvement", de: "Ozeane in Bewegung", es: "Océanos en movimiento", ja: "動く海", ko: "움직이는 바다" },
    log: "A year following the currents that carry life around the planet." },
  // --- news (ids 38-47) ---
  { type: "news", country: "us", en: "Global Morning Brief", genres: [G.documentary, G.entertainment],
    log: "The day's top stories from around the world in ten minutes." },
  { type: "news", country: "kr", en: "K-Entertainment Now", genres: [G.entertainment],
    t: { ko: "K-엔터 나우", ja: "K-エンタメ・ナウ" },
    log: "Daily news from the Korean drama and music scene." },
  { type: "news", country: "jp", en: "Tokyo Tech Weekly", genres: [G.documentary, G.lifestyle],
    t: { ja: "東京テックウィークリー" },
    log: "Gadgets, games and start-ups from Japan's tech capital." },
  { type: "news", country: "gb", en: "London Sports Desk", genres: [G.sports],
    log: "Football, cricket and everything in between." },
  { type: "news", country: "fr", en: "Culture Journal", genres: [G.entertainment, G.documentary],
    t: { fr: "Le Journal de la Culture" },
    log: "Cinema, books and exhibitions, every weekday from Paris." },
  { type: "news", country: "es", en: "Football News", genres: [G.sports],
    t: { es: "Noticias del Fútbol" },
    log: "Transfers, results and interviews from the Spanish league." },
  { type: "news", country: "cn", en: "China Business Today", genres: [G.documentary],
    t: { zh: "今日中国商业" },
    log: "Markets and companies shaping the Chinese economy." },
  { type: "news", country: "in", en: "Bollywood Buzz", genres: [G.entertainment],
    t: { hi: "बॉलीवुड बज़" },
    log: "Premieres, gossip and box office from Mumbai." },
  { type: "news", country: "kr", en: "Idol Fan News", genres: [G.entertainment], hosted: 0, licensed: 0,
    t: { ko: "아이돌 팬 뉴스" } },
  { type: "news", country: "us", en: "Gamer Daily", genres: [G.entertainment, G.lifestyle], hosted: 0,
    log: "A fan-run channel about new games and esports." },
  // --- artists (ids 48-62) ---
  { type: "artist", country: "kr", en: "Starlight Nine", genres: [M.kpop, M.electronic],
    t: { ko: "스타라이트 나인", ja: "スターライト・ナイン", zh: "星光九人" },
    log: "Nine-member K-pop group known for high-energy choreography." },
  { type: "artist", country: "kr", en: "Blue Hour", genres: [M.kpop, M.ballad],
    t: { ko: "블루아워" },
    log: "A vocal quartet singing about the hour between day and night." },
  { type: "artist", country: "kr", en: "Han Yuna", genres: [M.ballad, M.rnb, M.ost],
    t: { ko: "한유나", ja: "ハン・ユナ", zh: "韩有娜" },
    log: "Soloist behind some of the best-loved drama soundtracks of recent years." },
  { type: "artist", country: "kr", en: "MC Tiger", genres: [M.hiphop],
    t: { ko: "MC 타이거" } },
  { type: "artist", country: "jp", en: "Sakura Drive", genres: [M.jpop, M.rock],
    t: { ja: "サクラドライブ", ko: "사쿠라 드라이브" },
    log: "Four-piece band from Fukuoka mixing guitar pop and city pop." },
  { type: "artist", country: "jp", en: "Mika Aoyama", genres: [M.jpop, M.pop],
    t: { ja: "青山美香", ko: "아오야마 미카", zh: "青山美香" },
    log: "Singer-songwriter whose debut single topped the Oricon chart." },
  { type: "artist", country: "cn", en: "Lin Xiaoyu", genres: [M.cpop, M.ballad],
    t: { zh: "林小雨" },
    log: "Mandopop singer famous for her live ballads." },
  { type: "artist", country: "tw", en: "Formosa Nights", genres: [M.indie, M.rock],
    t: { zh: "福爾摩沙之夜" },
    log: "Taipei indie band playing dreamy guitar rock." },
  { type: "artist", country: "us", en: "The Velvet Echoes", genres: [M.rock, M.indie],
    log: "Garage-rock trio from Austin, Texas." },
  { type: "artist", country: "us", en: "DJ Nova", genres: [M.electronic],
    log: "Festival DJ and producer." },
  { type: "artist", country: "gb", en: "Eleanor Brooks", genres: [M.pop, M.jazz],
    log: "London singer moving between jazz standards and modern pop." },
  { type: "artist", country: "fr", en: "Léa Moreau", genres: [M.pop],
    t: { fr: "Léa Moreau" },
    log: "French pop singer from Marseille." },
  { type: "artist", country: "es", en: "Los Gatos Salvajes", genres: [M.rock, M.pop],
    t: { es: "Los Gatos Salvajes" } },
  { type: "artist", country: "th", en: "Siam Sunset", genres: [M.pop],
    t: { th: "สยามซันเซ็ท" },
    log: "Thai pop duo with a sound inspired by the 1980s." },
  { type: "artist", country: "kr", en: "Starlight Nine Fan Cams", genres: [M.kpop], hosted: 0, licensed: 0,
    t: { ko: "스타라이트 나인 직캠" } },
  // --- upcoming (ids 63-68): coming soon, trailers only, licensed for a few regions and platforms ---
  { type: "series", country: "kr", en: "Winter Lighthouse", genres: [G.romance, G.drama], upcoming: 1,
    t: { ko: "겨울 등대", ja: "冬の灯台", zh: "冬日灯塔", es: "El faro de invierno" },
    log: "A lighthouse keeper on Jeju and the stranger the storm washes ashore." },
  { type: "series", country: "jp", en: "Mecha Guardians Zero", genres: [G.anime, G.scifi, G.action], upcoming: 1,
    t: { ja: "メカガーディアンズ・ゼロ", ko: "메카 가디언즈 제로" },
    log: "Teen pilots defend the last floating city." },
  { type: "series", country: "us", en: "The Quiet Frontier", genres: [G.western, G.drama], upcoming: 1,
    t: { es: "La frontera silenciosa", fr: "La frontière silencieuse" },
    log: "Homesteaders in 1870s Montana face a winter nobody prepared for." },
  { type: "film", country: "kr", en: "Hanok Hotel", genres: [G.comedy], upcoming: 1,
    t: { ko: "한옥 호텔" },
    log: "Three siblings inherit a crumbling guesthouse and one very demanding guest." },
  { type: "film", country: "fr", en: "Paris After Midnight", genres: [G.romance], upcoming: 1,
    t: { fr: "Paris après minuit", de: "Paris nach Mitternacht" },
    log: "Two strangers miss the last metro and walk across Paris until dawn." },
  { type: "film", country: "cn", en: "Empire of Clouds", genres: [G.historical, G.action], upcoming: 1,
    t: { zh: "云之帝国", ko: "구름의 제국", ja: "雲の帝国" },
    log: "A general defends a mountain fortress above the clouds." },
];

/** Containers the manager (user 2) manages; each gets pending and blocked videos besides normal ones. */
const MANAGED = [1, 7, 29, 39, 48];

/** Containers whose videos get segments and subtitles. */
const LOCALISED = [1, 2, 3, 5, 6, 7, 9, 11, 12, 14, 16, 18, 21, 24, 25, 29, 33, 35, 39, 48, 52];

const TITLE_LANGUAGES = ["ko", "ja", "zh", "es", "fr", "de"];
const REGIONS = ["us", "kr", "gb", "fr", "es", "jp", "br", "ca"];
const PLATFORMS = ["mobile", "web", "tv"];

// ---------------------------------------------------------------------------------------------------------
// Phrase banks for video titles, descriptions and subtitles (parallel across languages)
// ---------------------------------------------------------------------------------------------------------

const EPISODE = {
  en: (n) => `Episode ${n}`, ko: (n) => `${n}화`, ja: (n) => `第${n}話`, zh: (n) => `第${n}集`,
  es: (n) => `Episodio ${n}`, fr: (n) => `Épisode ${n}`, de: (n) => `Folge ${n}`, th: (n) => `ตอนที่ ${n}`,
  hi: (n) => `एपिसोड ${n}`,
};

const TRAILER = {
  en: "Official Trailer", ko: "공식 예고편", ja: "予告編", zh: "官方预告片", es: "Tráiler oficial",
  fr: "Bande-annonce officielle", de: "Offizieller Trailer", th: "ตัวอย่างอย่างเป็นทางการ", hi: "आधिकारिक ट्रेलर",
};

const CLIPS = [
  { en: "Behind the Scenes", ko: "비하인드", ja: "メイキング", zh: "幕后花絮", es: "Detrás de cámaras", fr: "Dans les coulisses", de: "Hinter den Kulissen", th: "เบื้องหลัง", hi: "पर्दे के पीछे" },
  { en: "Highlights", ko: "하이라이트", ja: "ハイライト", zh: "精彩片段", es: "Lo más destacado", fr: "Temps forts", de: "Höhepunkte", th: "ไฮไลต์", hi: "मुख्य अंश" },
  { en: "Bloopers", ko: "NG 모음", ja: "NG集", zh: "NG花絮", es: "Tomas falsas", fr: "Bêtisier", de: "Pannen", th: "ฉากหลุด", hi: "ब्लूपर्स" },
  { en: "Cast Interview", ko: "배우 인터뷰", ja: "キャストインタビュー", zh: "演员访谈", es: "Entrevista al reparto", fr: "Interview des acteurs", de: "Interview mit der Besetzung", th: "สัมภาษณ์นักแสดง", hi: "कलाकारों का साक्षात्कार" },
  { en: "Teaser", ko: "티저", ja: "ティザー", zh: "预告", es: "Avance", fr: "Teaser", de: "Teaser", th: "ทีเซอร์", hi: "टीज़र" },
];
const LIVE_CLIP = { en: "Live Performance", ko: "라이브 무대", ja: "ライブパフォーマンス", zh: "现场表演", es: "Actuación en directo", fr: "Performance live", de: "Live-Auftritt", th: "การแสดงสด", hi: "लाइव परफॉर्मेंस" };

const SONGS = [
  { en: "Golden Hour", ko: "골든 아워", ja: "ゴールデンアワー", zh: "黄金时刻", fr: "L'heure dorée", es: "La hora dorada", th: "ชั่วโมงทอง" },
  { en: "Neon Rain", ko: "네온 비", ja: "ネオンの雨", zh: "霓虹雨", fr: "Pluie de néon", es: "Lluvia de neón", th: "ฝนนีออน" },
  { en: "Paper Hearts", ko: "종이 하트", ja: "紙のハート", zh: "纸心", fr: "Cœurs de papier", es: "Corazones de papel", th: "หัวใจกระดาษ" },
  { en: "Midnight Run", ko: "미드나잇 런", ja: "ミッドナイト・ラン", zh: "午夜狂奔", fr: "Course de minuit", es: "Carrera de medianoche", th: "วิ่งเที่ยงคืน" },
  { en: "First Snow", ko: "첫눈", ja: "初雪", zh: "初雪", fr: "Première neige", es: "Primera nevada", th: "หิมะแรก" },
  { en: "Blue Summer", ko: "파란 여름", ja: "青い夏", zh: "蓝色夏天", fr: "Été bleu", es: "Verano azul", th: "ฤดูร้อนสีฟ้า" },
  { en: "Falling Stars", ko: "떨어지는 별", ja: "流れ星", zh: "流星", fr: "Étoiles filantes", es: "Estrellas fugaces", th: "ดาวตก" },
  { en: "Echo", ko: "메아리", ja: "エコー", zh: "回声", fr: "Écho", es: "Eco", th: "เสียงสะท้อน" },
  { en: "Butterfly", ko: "나비", ja: "バタフライ", zh: "蝴蝶", fr: "Papillon", es: "Mariposa", th: "ผีเสื้อ" },
  { en: "Wildfire", ko: "들불", ja: "ワイルドファイア", zh: "野火", fr: "Feu sauvage", es: "Fuego salvaje", th: "ไฟป่า" },
  { en: "Hello Tomorrow", ko: "안녕 내일", ja: "ハロー・トゥモロー", zh: "你好明天", fr: "Bonjour demain", es: "Hola mañana", th: "สวัสดีพรุ่งนี้" },
  { en: "Heartbeat", ko: "심장 소리", ja: "ハートビート", zh: "心跳", fr: "Battement de cœur", es: "Latido", th: "จังหวะหัวใจ" },
  { en: "Runaway", ko: "런어웨이", ja: "ランナウェイ", zh: "逃离", fr: "Fugue", es: "Fugitivo", th: "หนีไป" },
  { en: "Silver Lining", ko: "희망의 빛", ja: "希望の光", zh: "一线希望", fr: "Lueur d'espoir", es: "Rayo de esperanza", th: "แสงแห่งความหวัง" },
  { en: "Daydream", ko: "백일몽", ja: "白昼夢", zh: "白日梦", fr: "Rêverie", es: "Ensueño", th: "ฝันกลางวัน" },
  { en: "Moonwalk", ko: "문워크", ja: "ムーンウォーク", zh: "月球漫步", fr: "Moonwalk", es: "Moonwalk", th: "มูนวอล์ก" },
];
/** How a music video's title reads per language, given the song title in that language. */
const MV_TITLE = {
  en: (s) => `${s} (Official MV)`, ko: (s) => `'${s}' 뮤직비디오`, ja: (s) => `「${s}」MV`, zh: (s) => `《${s}》MV`,
  es: (s) => `${s} (Video oficial)`, fr: (s) => `${s} (Clip officiel)`, th: (s) => `${s} (MV)`,
  de: (s) => `${s} (Offizielles Musikvideo)`, hi: (s) => `${s} (आधिकारिक वीडियो)`,
};

const MONTHS = {
  en: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
  es: ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"],
  fr: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"],
  de: ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
  hi: ["जनवरी", "फ़रवरी", "मार्च", "अप्रैल", "मई", "जून", "जुलाई", "अगस्त", "सितंबर", "अक्टूबर", "नवंबर", "दिसंबर"],
};

/** A news edition's date as that language writes it. */
function editionDate(ts, lang) {
  const d = new Date(ts * 1000);
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  switch (lang) {
    case "ko": return `${y}년 ${m + 1}월 ${day}일`;
    case "ja": case "zh": return `${y}年${m + 1}月${day}日`;
    case "es": return `${day} de ${MONTHS.es[m]} de ${y}`;
    case "de": return `${day}. ${MONTHS.de[m]} ${y}`;
    case "fr": case "hi": return `${day} ${MONTHS[lang][m]} ${y}`;
    case "th": return `${day}/${m + 1}/${y}`;
    default: return `${day} ${MONTHS.en[m]} ${y}`;
  }
}

/** "<container title>: <suffix>", with the separator each language uses. */
function joinTitle(lang, head, tail) {
  if (lang === "fr") return `${head} : ${tail}`;
  if (lang === "ko" || lang === "ja" || lang === "zh" || lang === "th") return `${head} ${tail}`;
  return `${head}: ${tail}`;
}

/** Short promotional blurbs, used as non-English container descriptions. */
const PROMO = {
  ko: (t) => `지금 '${t}'을(를) 자막과 함께 감상하세요.`,
  ja: (t) => `「${t}」を字幕付きで楽しもう。`,
  zh: (t) => `立即观看带字幕的《${t}》。`,
  es: (t) => `Mira «${t}» con subtítulos en tu idioma.`,
  fr: (t) => `Regardez « ${t} » sous-titré dans votre langue.`,
  de: (t) => `Sieh dir „${t}“ mit Untertiteln in deiner Sprache an.`,
  th: (t) => `รับชม ${t} พร้อมคำบรรยาย`,
  hi: (t) => `${t} को सबटाइटल के साथ देखें।`,
};

const EPISODE_BLURBS = [
  "An unexpected visitor turns the day upside down.",
  "Old secrets come to light at the worst possible moment.",
  "A misunderstanding spirals out of control.",
  "Everyone gathers for a celebration that does not go to plan.",
  "A long-awaited confession, finally.",
  "A rival makes a move nobody saw coming.",
  "The truth about the accident is revealed.",
  "A trip out of town changes everything.",
];

/** Dialogue lines, parallel across every language a subtitle can be in. */
const LINES = [
  { en: "Where are you going?", ko: "어디 가?", ja: "どこへ行くの？", zh: "你要去哪里？", es: "¿Adónde vas?", fr: "Où vas-tu ?", de: "Wohin gehst du?", th: "คุณจะไปไหน", hi: "तुम कहाँ जा रहे हो?" },
  { en: "I'll be right back.", ko: "금방 올게.", ja: "すぐ戻るよ。", zh: "我马上回来。", es: "Ahora vuelvo.", fr: "Je reviens tout de suite.", de: "Ich bin gleich zurück.", th: "เดี๋ยวฉันกลับมา", hi: "मैं अभी आता हूँ।" },
  { en: "Thank you so much.", ko: "정말 고마워.", ja: "本当にありがとう。", zh: "太谢谢你了。", es: "Muchas gracias.", fr: "Merci beaucoup.", de: "Vielen Dank.", th: "ขอบคุณมาก", hi: "बहुत-बहुत धन्यवाद।" },
  { en: "Are you okay?", ko: "괜찮아?", ja: "大丈夫？", zh: "你没事吧？", es: "¿Estás bien?", fr: "Ça va ?", de: "Alles in Ordnung?", th: "คุณโอเคไหม", hi: "तुम ठीक हो?" },
  { en: "Let's go together.", ko: "같이 가자.", ja: "一緒に行こう。", zh: "我们一起去吧。", es: "Vamos juntos.", fr: "Allons-y ensemble.", de: "Lass uns zusammen gehen.", th: "ไปด้วยกันเถอะ", hi: "चलो साथ चलते हैं।" },
  { en: "I can't believe it.", ko: "믿을 수가 없어.", ja: "信じられない。", zh: "真不敢相信。", es: "No puedo creerlo.", fr: "Je n'arrive pas à y croire.", de: "Ich kann es nicht glauben.", th: "ไม่อยากเชื่อเลย", hi: "मुझे यकीन नहीं हो रहा।" },
  { en: "Wait for me!", ko: "기다려!", ja: "待って！", zh: "等等我！", es: "¡Espérame!", fr: "Attends-moi !", de: "Warte auf mich!", th: "รอฉันด้วย", hi: "मेरा इंतज़ार करो!" },
  { en: "It's been a long time.", ko: "오랜만이야.", ja: "久しぶりだね。", zh: "好久不见。", es: "Cuánto tiempo.", fr: "Ça fait longtemps.", de: "Lange nicht gesehen.", th: "ไม่เจอกันนานเลย", hi: "बहुत दिन हो गए।" },
  { en: "What happened here?", ko: "여기서 무슨 일이 있었던 거야?", ja: "ここで何があったの？", zh: "这里发生了什么？", es: "¿Qué pasó aquí?", fr: "Que s'est-il passé ici ?", de: "Was ist hier passiert?", th: "เกิดอะไรขึ้นที่นี่", hi: "यहाँ क्या हुआ?" },
  { en: "I'm sorry.", ko: "미안해.", ja: "ごめんね。", zh: "对不起。", es: "Lo siento.", fr: "Je suis désolé.", de: "Es tut mir leid.", th: "ขอโทษนะ", hi: "मुझे माफ़ करना।" },
  { en: "We have to hurry.", ko: "서둘러야 해.", ja: "急がなきゃ。", zh: "我们得快点。", es: "Tenemos que darnos prisa.", fr: "Il faut se dépêcher.", de: "Wir müssen uns beeilen.", th: "เราต้องรีบแล้ว", hi: "हमें जल्दी करनी होगी।" },
  { en: "Good morning.", ko: "좋은 아침.", ja: "おはよう。", zh: "早上好。", es: "Buenos días.", fr: "Bonjour.", de: "Guten Morgen.", th: "อรุณสวัสดิ์", hi: "सुप्रभात।" },
  { en: "Don't worry about it.", ko: "걱정하지 마.", ja: "心配しないで。", zh: "别担心。", es: "No te preocupes.", fr: "Ne t'inquiète pas.", de: "Mach dir keine Sorgen.", th: "ไม่ต้องห่วง", hi: "चिंता मत करो।" },
  { en: "I missed you.", ko: "보고 싶었어.", ja: "会いたかった。", zh: "我好想你。", es: "Te eché de menos.", fr: "Tu m'as manqué.", de: "Ich habe dich vermisst.", th: "คิดถึงนะ", hi: "मुझे तुम्हारी याद आई।" },
  { en: "Who are you?", ko: "누구세요?", ja: "あなたは誰？", zh: "你是谁？", es: "¿Quién eres?", fr: "Qui êtes-vous ?", de: "Wer bist du?", th: "คุณเป็นใคร", hi: "तुम कौन हो?" },
  { en: "See you tomorrow.", ko: "내일 봐.", ja: "また明日。", zh: "明天见。", es: "Hasta mañana.", fr: "À demain.", de: "Bis morgen.", th: "เจอกันพรุ่งนี้", hi: "कल मिलते हैं।" },
];

// ---------------------------------------------------------------------------------------------------------
// Containers: rows, genres, titles, descriptions, licences
// ---------------------------------------------------------------------------------------------------------

/** Expands CATALOGUE into container records with generated numbers (views, dates come from the videos). */
function defineContainers(r) {
  return CATALOGUE.map((def, i) => {
    const id = i + 1;
    const fan = def.hosted === 0;
    const upcoming = def.upcoming ?? 0;
    const onAir = def.onAir ?? 0;
    // Popularity on a log scale: big hits in the tens of millions, fan channels in the thousands.
    const views = upcoming
      ? Math.floor(10 ** (2 + r.next() * 2.5))
      : fan
        ? Math.floor(10 ** (3 + r.next() * 2))
        : Math.floor(10 ** (4 + r.next() * 3.6));
    const recentShare = onAir ? 0.12 + r.next() * 0.2 : upcoming ? 0.5 + r.next() * 0.4 : 0.002 + r.next() * 0.05;
    return {
      id,
      def,
      type: def.type,
      origin_country: def.country,
      origin_language: COUNTRY_LANGUAGE[def.country],
      hosted: def.hosted ?? 1,
      licensed: def.licensed ?? 1,
      adult: def.adult ?? 0,
      on_air: onAir,
      upcoming,
      state: "normal",
      poster_url: `https://images.example.com/containers/${id}.jpg`,
      sort_title: def.en.toLowerCase(),
      views,
      views_recent: Math.floor(views * recentShare),
      trending: onAir ? r.int(60, 99) : upcoming ? r.int(20, 70) : r.int(0, 45),
      average_rating: upcoming ? 0 : Math.round((5.8 + r.next() * 4.1) * 10) / 10,
      rating_count: upcoming ? 0 : 1 + Math.floor(views * (0.0005 + r.next() * 0.008)),
      // Filled in by the video pass: release_date, air_time, newest_video_at, created_at, updated_at.
      titles: { en: def.en, ...(def.t ?? {}) },
    };
  });
}

function containerTitleIn(c, lang) {
  return c.titles[lang] ?? c.titles.en;
}

function containerGenreRows(containers) {
  return containers.flatMap((c) => c.def.genres.map((genre_id) => ({ container_id: c.id, genre_id })));
}

function containerTitleRows(containers) {
  return containers.flatMap((c) =>
    Object.entries(c.titles).map(([language, text]) => ({
      resource_kind: "c", resource_id: c.id, language, text, updated_at: c.updated_at,
    })),
  );
}

/** English loglines where written, plus promotional blurbs in the origin language and a few others. */
function containerDescriptionRows(r, containers) {
  const rows = [];
  for (const c of containers) {
    const add = (language, text) =>
      rows.push({ resource_kind: "c", resource_id: c.id, language, text, updated_at: c.updated_at });
    if (c.def.log) add("en", c.def.log);
    const origin = c.origin_language;
    if (origin !== "en" && (c.titles[origin] || r.chance(0.3))) add(origin, PROMO[origin](containerTitleIn(c, origin)));
    for (const lang of TITLE_LANGUAGES) {
      if (lang !== origin && c.titles[lang] && r.chance(0.25)) add(lang, PROMO[lang](c.titles[lang]));
    }
  }
  return rows;
}

/**
 * Released, licensed containers: worldwide or a handful of regions, usually on every platform. Upcoming ones
 * are pre-licensed for two or three regions on one or two platforms. Unlicensed containers get none.
 */
function licenseRows(r, containers) {
  const rows = [];
  for (const c of containers) {
    if (!c.licensed) continue;
    const home = REGIONS.includes(c.origin_country) ? [c.origin_country] : [];
    let regions;
    let platformsFor;
    if (c.upcoming) {
      regions = [...new Set([...home, ...r.shuffle(REGIONS).slice(0, r.int(1, 2))])];
      const platforms = r.shuffle(PLATFORMS).slice(0, r.int(1, 2));
      platformsFor = () => platforms;
    } else {
      regions = r.chance(0.35) ? REGIONS : [...new Set([...home, ...r.shuffle(REGIONS).slice(0, r.int(2, 5))])];
      platformsFor = () => (r.chance(0.75) ? PLATFORMS : r.shuffle(PLATFORMS).slice(0, r.int(1, 2)));
    }
    for (const region of REGIONS.filter((x) => regions.includes(x))) {
      const platforms = platformsFor(); // once per region: some regions only stream on some platforms
      for (const platform of PLATFORMS.filter((p) => platforms.includes(p))) {
        rows.push({ container_id: c.id, region, platform });
      }
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------------------
// Videos: plan per container type, timeline, titles and descriptions
// ---------------------------------------------------------------------------------------------------------

const MAIN_TYPE = { series: "episode", film: "movie", news: "news_clip", artist: "music_video" };

/** Duration in seconds by video type (and container flavour). */
function durationFor(r, c, type) {
  switch (type) {
    case "episode":
      if (c.def.genres.includes(G.anime)) return r.int(1380, 1500);
      if (c.def.genres.includes(G.variety)) return r.int(4800, 5700);
      if (c.hosted === 0) return r.int(300, 900);
      return r.int(2400, 4200);
    case "movie": return r.int(5100, 8400);
    case "trailer": return r.int(60, 180);
    case "news_clip": return r.int(90, 480);
    case "music_video": return r.int(180, 290);
    default: return r.int(60, 600);
  }
}

/**
 * The list of videos of a container with their creation times. Numbers count within a type (episode 1..k,
 * trailer 1.., clip 1..). Returns plain records; ids are assigned by the caller in order.
 */
function planVideos(r, c) {
  const plan = [];
  const add = (type, number, createdAt, extra = {}) => plan.push({ type, number, created_at: capNow(createdAt), state: "normal", ...extra });
  const between = (a, b) => a + Math.floor(r.next() * Math.max(1, b - a));
  const evening = () => r.int(18, 22) * HOUR; // broadcasts go out in the evening, UTC-ish

  if (c.upcoming) {
    const release = NOW + r.int(45, 330) * DAY;
    c.release_ts = release;
    add("trailer", 1, NOW - r.int(3, 40) * DAY);
    if (r.chance(0.5)) add("clip", 1, NOW - r.int(41, 90) * DAY, { clip: CLIPS[4] });
    return plan;
  }

  if (c.type === "series") {
    const k = r.int(6, 16);
    // On-air series released their latest episode within the last week; finished ones ended long ago.
    const first = c.on_air
      ? NOW - (k - 1) * 7 * DAY - r.int(1, 6) * DAY
      : between(utcMidnight(2015, 1, 1), NOW - (k * 7 + 90) * DAY);
    const firstAt = Math.floor(first / DAY) * DAY + evening();
    c.release_ts = firstAt;
    for (let n = 1; n <= k; n++) add("episode", n, firstAt + (n - 1) * 7 * DAY);
    if (r.chance(0.5)) add("trailer", 1, firstAt - r.int(7, 30) * DAY);
    if (r.chance(0.3)) add("clip", 1, between(firstAt, firstAt + k * 7 * DAY), { clip: r.pick(CLIPS.slice(0, 4)) });
  } else if (c.type === "film") {
    const release = Math.floor(between(utcMidnight(2010, 1, 1), NOW - 60 * DAY) / DAY) * DAY + evening();
    c.release_ts = release;
    add("movie", 1, release);
    if (r.chance(0.6)) add("trailer", 1, release - r.int(20, 60) * DAY);
    if (r.chance(0.2)) add("clip", 1, release + r.int(1, 30) * DAY, { clip: r.pick(CLIPS.slice(0, 4)) });
  } else if (c.type === "news") {
    c.release_ts = Math.floor(between(utcMidnight(2014, 1, 1), utcMidnight(2022, 12, 31)) / DAY) * DAY;
    const count = r.int(6, 12);
    // Daily editions, most recent ones in the last four months.
    const times = Array.from({ length: count }, () => NOW - r.int(1, 120) * DAY + r.int(5, 9) * HOUR).sort((a, b) => a - b);
    times.forEach((t, i) => add("news_clip", i + 1, t));
  } else {
    const debut = Math.floor(between(utcMidnight(2012, 1, 1), utcMidnight(2023, 6, 1)) / DAY) * DAY;
    c.release_ts = debut;
    const songs = r.shuffle(SONGS).slice(0, r.int(4, 9));
    const times = songs.map(() => between(debut, NOW - 5 * DAY)).sort((a, b) => a - b);
    songs.forEach((song, i) => add("music_video", i + 1, times[i], { song }));
    if (r.chance(0.4)) add("clip", 1, between(debut, NOW - DAY), { clip: LIVE_CLIP });
  }

  markStates(r, c, plan);
  return plan;
}

/**
 * Video states. Managed containers always get one pending upload (the next episode/edition/MV, awaiting
 * review) and one blocked clip; elsewhere a few containers have a pending latest video or a blocked one.
 */
function markStates(r, c, plan) {
  const main = MAIN_TYPE[c.type];
  const last = plan.filter((v) => v.type === main).at(-1);
  if (MANAGED.includes(c.id)) {
    const nextNumber = plan.filter((v) => v.type === (main === "movie" ? "clip" : main)).length + 1;
    const pendingType = main === "movie" ? "clip" : main;
    plan.push({
      type: pendingType,
      number: nextNumber,
      created_at: capNow(Math.max(last.created_at + 2 * DAY, NOW - 3 * DAY)),
      state: "pending",
      clip: pendingType === "clip" ? CLIPS[1] : undefined,
      song: pendingType === "music_video" ? SONGS.find((s) => !plan.some((v) => v.song === s)) : undefined,
    });
    const clipNumber = plan.filter((v) => v.type === "clip").length + 1;
    plan.push({
      type: "clip", number: clipNumber, created_at: capNow(last.created_at + r.int(1, 20) * DAY),
      state: "blocked", clip: CLIPS[2],
    });
    return;
  }
  if (r.chance(0.15) && plan.length > 2) last.state = "pending";
  if (r.chance(0.12) && plan.length > 3) plan[r.int(1, plan.length - 2)].state = "blocked";
}

/** Titles for one video: English, the origin language, and a random share of the other languages. */
function videoTitles(r, c, v, share) {
  const langs = new Set(["en", c.origin_language]);
  for (const lang of TITLE_LANGUAGES) if (r.chance(share)) langs.add(lang);
  const out = {};
  for (const lang of langs) {
    const head = containerTitleIn(c, lang);
    switch (v.type) {
      case "episode": out[lang] = EPISODE[lang](v.number); break;
      case "movie": out[lang] = head; break;
      case "trailer": out[lang] = joinTitle(lang, head, TRAILER[lang]); break;
      case "clip": out[lang] = joinTitle(lang, head, v.clip[lang]); break;
      case "news_clip": out[lang] = joinTitle(lang, head, editionDate(v.created_at, lang)); break;
      case "music_video": out[lang] = MV_TITLE[lang](v.song[lang] ?? v.song.en); break;
    }
  }
  return out;
}

/**
 * Builds the video records of every container (ids 1..N in container order) and fills in the container's
 * dates from its videos: release_date, air_time, newest_video_at, created_at and updated_at.
 */
function defineVideos(r, containers) {
  const videos = [];
  for (const c of containers) {
    const plan = planVideos(r, c);
    // Popular containers get their titles translated more often.
    const share = c.views > 1_000_000 ? 0.7 : c.views > 50_000 ? 0.45 : 0.2;
    for (const p of plan) {
      const id = videos.length + 1;
      const v = {
        id,
        container_id: c.id,
        type: p.type,
        number: p.number,
        duration: durationFor(r, c, p.type),
        state: p.state,
        origin_language: c.origin_language,
        hd: c.hosted && r.chance(p.type === "movie" ? 0.9 : 0.65) ? 1 : 0,
        poster_url: `https://images.example.com/videos/${id}.jpg`,
        views: Math.floor((c.views / plan.length) * (0.3 + r.next() * 1.4) * (p.state === "normal" ? 1 : 0.02)),
        created_at: p.created_at,
        updated_at: p.state === "pending" ? p.created_at : capNow(p.created_at + r.int(0, 20) * DAY),
        clip: p.clip,
        song: p.song,
      };
      v.titles = videoTitles(r, c, v, share);
      videos.push(v);
    }
    fillContainerDates(r, c, videos.filter((v) => v.container_id === c.id));
  }
  return videos;
}

function fillContainerDates(r, c, own) {
  const normal = own.filter((v) => v.state === "normal");
  const firstVideo = Math.min(...own.map((v) => v.created_at));
  c.release_date = isoDate(c.release_ts);
  c.newest_video_at = normal.length ? Math.max(...normal.map((v) => v.created_at)) : null;
  if (c.type === "artist") c.air_time = null;
  else if (c.on_air) c.air_time = c.newest_video_at + 7 * DAY; // the next episode's slot
  else if (c.type === "news") c.air_time = c.newest_video_at;
  else c.air_time = c.release_ts;
  c.created_at = Math.min(firstVideo, c.release_ts) - r.int(3, 45) * DAY;
  c.updated_at = Math.max(c.created_at, ...own.map((v) => v.updated_at));
}

function videoTitleRows(videos) {
  return videos.flatMap((v) =>
    Object.entries(v.titles).map(([language, text]) => ({
      resource_kind: "v", resource_id: v.id, language, text, updated_at: v.updated_at,
    })),
  );
}

/** A fifth of the videos carry a short English description; movies reuse the film's logline. */
function videoDescriptionRows(r, containers, videos) {
  const rows = [];
  for (const v of videos) {
    const c = containers[v.container_id - 1];
    let text = null;
    if (v.type === "movie" && c.def.log) text = c.def.log;
    else if (v.type === "episode" && r.chance(0.25)) text = r.pick(EPISODE_BLURBS);
    else if (v.type === "trailer" && r.chance(0.4)) text = `The official trailer for ${c.def.en}.`;
    else if (v.type === "music_video" && r.chance(0.3)) text = `Official music video for "${v.song.en}" by ${c.def.en}.`;
    if (text) rows.push({ resource_kind: "v", resource_id: v.id, language: "en", text, updated_at: v.updated_at });
    if (v.type === "episode" && c.origin_language !== "en" && r.chance(0.1)) {
      rows.push({
        resource_kind: "v", resource_id: v.id, language: c.origin_language,
        text: PROMO[c.origin_language](`${containerTitleIn(c, c.origin_language)} ${EPISODE[c.origin_language](v.number)}`),
        updated_at: v.updated_at,
      });
    }
  }
  return rows;
}

function strip(videos) {
  return videos.map(({ titles, clip, song, ...row }) => row);
}

// ---------------------------------------------------------------------------------------------------------
// Localisation: segments, subtitles, histories
// ---------------------------------------------------------------------------------------------------------

/**
 * Which videos of a localised container are timed: the first few normal main videos and trailers, plus, for a
 * managed container, its pending upload (so its own completion shows while the container's ignores it).
 */
function videosToLocalise(c, own) {
  const main = own.filter((v) => v.state === "normal" && v.type === MAIN_TYPE[c.type]).slice(0, 4);
  const trailers = own.filter((v) => v.state === "normal" && v.type === "trailer");
  const pending = MANAGED.includes(c.id) ? own.filter((v) => v.state === "pending") : [];
  return [...main, ...trailers, ...pending];
}

/**
 * Target completion per language for a container: the origin language is (nearly) complete, English is well
 * along, two to four other languages are partial.
 */
function languagePlan(r, c) {
  const origin = c.origin_language;
  const plan = [{ lang: origin, base: 100, cap: 100 }];
  if (origin !== "en") plan.push({ lang: "en", base: r.chance(0.3) ? 100 : r.int(60, 100), cap: 100 });
  const extras = r.shuffle(["es", "fr", "de", "ko", "ja", "zh"].filter((l) => l !== origin)).slice(0, r.int(2, 4));
  for (const lang of extras) plan.push({ lang, base: r.int(0, 90), cap: 90 });
  return plan;
}

function defineLocalisation(r, containers, videos) {
  const segments = [];
  const subtitles = [];
  const histories = [];
  let historyId = 0;

  for (const containerId of LOCALISED) {
    const c = containers[containerId - 1];
    const own = videos.filter((v) => v.container_id === c.id);
    const languages = languagePlan(r, c);
    // The manager times their own channels; elsewhere any user may have done it.
    const timer = MANAGED.includes(c.id) ? MANAGER : r.pick([ADMIN, MANAGER, ALICE, BOB]);

    for (const v of videosToLocalise(c, own)) {
      const n = r.int(8, 20);
      const videoSegments = [];
      let t = r.int(2_000, 30_000);
      for (let i = 0; i < n; i++) {
        const length = r.int(1_200, 4_800);
        const seg = {
          id: segments.length + 1,
          video_id: v.id,
          start_ms: t,
          end_ms: t + length,
          author_id: timer,
          created_at: capNow(v.created_at + r.int(1, 10) * DAY),
          line: r.int(0, LINES.length - 1),
        };
        t += length + r.int(200, 8_000); // strictly increasing and never overlapping
        segments.push(seg);
        videoSegments.push(seg);
        histories.push({
          id: ++historyId, kind: "segment", user_id: timer, video_id: v.id, container_id: c.id,
          segment_id: seg.id, subtitle_id: null, language: null, text: null, version: 1,
          source_key: `seed:seg:${seg.id}`, created_at: seg.created_at,
        });
      }

      for (const { lang, base, cap } of languages) {
        // Per-video jitter around the container's level; the origin language is occasionally a little short.
        const percent = lang === c.origin_language
          ? (r.chance(0.15) ? r.int(85, 99) : 100)
          : Math.max(0, Math.min(cap, base + r.int(-15, 15)));
        const done = Math.round((percent * n) / 100);
        const author = lang === c.origin_language ? timer : r.pick([ALICE, BOB, ALICE, BOB, ADMIN]);
        // Translators work front to back, so the subtitled segments are the first ones.
        for (const seg of videoSegments.slice(0, done)) {
          const created = capNow(seg.created_at + (lang === c.origin_language ? HOUR : r.int(1, 60) * DAY));
          const sub = {
            id: subtitles.length + 1, segment_id: seg.id, video_id: v.id, language: lang,
            text: LINES[seg.line][lang], author_id: author, version: 1, created_at: created, updated_at: created,
          };
          subtitles.push(sub);
          histories.push({
            id: ++historyId, kind: "subtitle", user_id: author, video_id: v.id, container_id: c.id,
            segment_id: seg.id, subtitle_id: sub.id, language: lang, text: sub.text, version: 1,
            source_key: `seed:sub:${sub.id}`, created_at: created,
          });
        }
      }
    }
  }
  return { segments: segments.map(({ line, ...row }) => row), subtitles, histories };
}

/**
 * Completions recomputed from the data (DESIGN.md §4): per video and language, floor(100 x subtitled
 * segments / segments); per container, the same weighted by segments over its normal-state videos.
 * An upsert that writes only when the percent differs, rather than INSERT OR REPLACE: REPLACE deletes and
 * re-inserts, which would fire the completion triggers (migration 0003) and bump doc/facet versions on every
 * run. (`WHERE true` keeps SQLite from reading ON CONFLICT as a join constraint.)
 */
function completionStatements() {
  const upsert = `ON CONFLICT (resource_kind, resource_id, language) DO UPDATE
  SET percent = excluded.percent, updated_at = excluded.updated_at
  WHERE subtitle_completions.percent <> excluded.percent`;
  const videoSql = `INSERT INTO subtitle_completions (resource_kind, resource_id, language, percent, updated_at)
SELECT 'v', s.video_id, s.language, (100 * COUNT(DISTINCT s.segment_id)) / seg.n, ${NOW}
FROM subtitles s
JOIN (SELECT video_id, COUNT(*) AS n FROM segments GROUP BY video_id) seg ON seg.video_id = s.video_id
WHERE s.text <> ''
GROUP BY s.video_id, s.language
${upsert}`;
  const containerSql = `INSERT INTO subtitle_completions (resource_kind, resource_id, language, percent, updated_at)
SELECT 'c', v.container_id, d.language, (100 * SUM(d.done)) / tot.n, ${NOW}
FROM (SELECT s.video_id, s.language, COUNT(DISTINCT s.segment_id) AS done
      FROM subtitles s WHERE s.text <> '' GROUP BY s.video_id, s.language) d
JOIN videos v ON v.id = d.video_id AND v.state = 'normal'
JOIN (SELECT vv.container_id, COUNT(*) AS n FROM segments g JOIN videos vv ON vv.id = g.video_id
      WHERE vv.state = 'normal' GROUP BY vv.container_id) tot ON tot.container_id = v.container_id
WHERE true
GROUP BY v.container_id, d.language
${upsert}`;
  return [videoSql, containerSql];
}

// ---------------------------------------------------------------------------------------------------------
// Lists and community
// ---------------------------------------------------------------------------------------------------------

/** The first normal video of a type in a container; the hand-picked references below rely on it existing. */
function firstOf(videos, containerId, type) {
  const found = videos.find((v) => v.container_id === containerId && v.type === type && v.state === "normal");
  if (!found) throw new Error(`demo data: container ${containerId} has no normal ${type}`);
  return found;
}

function listItemRows(videos) {
  const featured = [
    ["c", 1], ["c", 29], ["v", firstOf(videos, 33, "movie").id], ["c", 7],
    ["c", 48], ["v", firstOf(videos, 12, "episode").id], ["c", 24], ["v", firstOf(videos, 52, "music_video").id],
  ];
  // 2l (on air) and 6l (upcoming) are derived from the containers' flags (migration 0013): no items to write.
  return featured.map(([resource_kind, resource_id], position) => ({ list_id: 1, position, resource_kind, resource_id }));
}

function timedCommentRows(r, videos) {
  const targets = [
    [firstOf(videos, 1, "episode"), "en", ["This scene!!", "The bakery set is so cozy", "I knew it was him", "Best episode so far"]],
    [firstOf(videos, 1, "episode"), "ko", ["와 대박", "여기 너무 웃겨요"]],
    [firstOf(videos, 29, "movie"), "en", ["The docking sequence is incredible", "Holding my breath here", "That ending though"]],
    [firstOf(videos, 48, "music_video"), "en", ["The choreography at the chorus!", "Replaying this forever"]],
    [firstOf(videos, 24, "movie"), "es", ["Qué bonita escena", "Lloré muchísimo aquí"]],
  ];
  const rows = [];
  for (const [video, language, comments] of targets) {
    const times = comments.map(() => r.int(5, Math.max(6, video.duration - 5)) * 1000).sort((a, b) => a - b);
    comments.forEach((comment, i) => {
      rows.push({
        id: rows.length + 1, video_id: video.id, language, user_id: i % 2 ? BOB : ALICE, time_ms: times[i], comment,
        created_at: capNow(video.created_at + r.int(1, 30) * DAY),
      });
    });
  }
  return rows;
}

function followRows(videos) {
  const at = (days) => NOW - days * DAY;
  const subscriptions = [
    { user_id: ALICE, resource_kind: "c", resource_id: 1, created_at: at(40) },
    { user_id: ALICE, resource_kind: "c", resource_id: 7, created_at: at(30) },
    { user_id: ALICE, resource_kind: "c", resource_id: 48, created_at: at(20) },
    { user_id: ALICE, resource_kind: "c", resource_id: 12, created_at: at(10) },
    { user_id: BOB, resource_kind: "c", resource_id: 1, created_at: at(35) },
    { user_id: BOB, resource_kind: "c", resource_id: 29, created_at: at(25) },
    { user_id: BOB, resource_kind: "c", resource_id: 39, created_at: at(15) },
  ];
  const markers = [
    { user_id: ALICE, resource_kind: "c", resource_id: 24, created_at: at(12) },
    { user_id: ALICE, resource_kind: "v", resource_id: firstOf(videos, 1, "episode").id + 2, created_at: at(6) },
    { user_id: ALICE, resource_kind: "c", resource_id: 63, created_at: at(3) },
    { user_id: BOB, resource_kind: "v", resource_id: firstOf(videos, 33, "movie").id, created_at: at(9) },
    { user_id: BOB, resource_kind: "c", resource_id: 52, created_at: at(4) },
  ];
  return { subscriptions, markers };
}

/** One conversation: alice writes, bob replies. Both see it in inbox and sent; alice has not read the reply. */
function messagingRows() {
  const sent = NOW - 2 * DAY;
  const replied = NOW - 2 * DAY + 3 * HOUR;
  return {
    threads: [{ id: 1, created_by: ALICE, created_at: sent, updated_at: replied }],
    participants: [
      { thread_id: 1, user_id: ALICE, unread: 1, deleted: 0, in_inbox: 1, in_sent: 1, last_message_at: replied },
      { thread_id: 1, user_id: BOB, unread: 0, deleted: 0, in_inbox: 1, in_sent: 1, last_message_at: replied },
    ],
    messages: [
      { id: 1, thread_id: 1, sender_id: ALICE, content: "Have you started Moonlight Bakery? Episode 3 is so good!", created_at: sent },
      { id: 2, thread_id: 1, sender_id: BOB, content: "Just finished it. I'll help with the Spanish subtitles this weekend.", created_at: replied },
    ],
  };
}

function notificationRows(containers) {
  const bakery = containers[0];
  const title = bakery.def.en;
  return [
    { id: 1, user_id: ALICE, container_id: bakery.id, sender_id: MANAGER, job_id: null, unread: 1, created_at: NOW - DAY,
      content: `A new episode of ${title} is out now. Thank you for watching!` },
    { id: 2, user_id: ALICE, container_id: bakery.id, sender_id: MANAGER, job_id: null, unread: 0, created_at: NOW - 8 * DAY,
      content: `${title} needs Spanish and French subtitlers. Join the team!` },
    { id: 3, user_id: BOB, container_id: bakery.id, sender_id: MANAGER, job_id: null, unread: 1, created_at: NOW - DAY,
      content: `A new episode of ${title} is out now. Thank you for watching!` },
  ];
}

// ---------------------------------------------------------------------------------------------------------
// Assembly
// ---------------------------------------------------------------------------------------------------------

const CONTAINER_COLUMNS = [
  "id", "type", "origin_country", "origin_language", "hosted", "licensed", "adult", "on_air", "upcoming", "state",
  "poster_url", "sort_title", "views", "views_recent", "trending", "average_rating", "rating_count", "release_date",
  "air_time", "newest_video_at", "created_at", "updated_at",
];
const VIDEO_COLUMNS = [
  "id", "container_id", "type", "number", "duration", "state", "origin_language", "hd", "poster_url", "views",
  "created_at", "updated_at",
];
const TEXT_COLUMNS = ["resource_kind", "resource_id", "language", "text", "updated_at"];

/** SQL that fills a freshly migrated database with the demo data; identical on every call, safe to re-run. */
export function demoSeedSql() {
  const r = randomTools(SEED);
  const containers = defineContainers(r);
  const videos = defineVideos(r, containers);
  const { segments, subtitles, histories } = defineLocalisation(r, containers, videos);
  const { subscriptions, markers } = followRows(videos);
  const messaging = messagingRows();

  // Parents before children: D1 enforces foreign keys.
  const statements = [
    ...insertRows("applications", ["id", "name", "official", "unhosted_access", "secret", "created_at"], applicationRows()),
    ...insertRows("users", ["id", "username", "email", "name", "password_hash", "staff", "created_at", "updated_at"], userRows()),
    ...insertRows("containers", CONTAINER_COLUMNS, containers),
    ...insertRows("container_genres", ["container_id", "genre_id"], containerGenreRows(containers)),
    ...insertRows("licenses", ["container_id", "region", "platform"], licenseRows(r, containers)),
    ...insertRows("container_managers", ["container_id", "user_id"], MANAGED.map((id) => ({ container_id: id, user_id: MANAGER }))),
    ...insertRows("titles", TEXT_COLUMNS, containerTitleRows(containers)),
    ...insertRows("descriptions", TEXT_COLUMNS, containerDescriptionRows(r, containers)),
    ...insertRows("videos", VIDEO_COLUMNS, strip(videos)),
    ...insertRows("titles", TEXT_COLUMNS, videoTitleRows(videos)),
    ...insertRows("descriptions", TEXT_COLUMNS, videoDescriptionRows(r, containers, videos)),
    ...insertRows("segments", ["id", "video_id", "start_ms", "end_ms", "author_id", "created_at"], segments),
    ...insertRows("subtitles", ["id", "segment_id", "video_id", "language", "text", "author_id", "version", "created_at", "updated_at"], subtitles),
    ...insertRows("subtitle_histories", ["id", "kind", "user_id", "video_id", "container_id", "segment_id", "subtitle_id", "language", "text", "version", "source_key", "created_at"], histories),
    ...completionStatements(),
    ...insertRows("list_items", ["list_id", "position", "resource_kind", "resource_id"], listItemRows(videos)),
    ...insertRows("timed_comments", ["id", "video_id", "language", "user_id", "time_ms", "comment", "created_at"], timedCommentRows(r, videos)),
    ...insertRows("subscriptions", ["user_id", "resource_kind", "resource_id", "created_at"], subscriptions),
    ...insertRows("markers", ["user_id", "resource_kind", "resource_id", "created_at"], markers),
    ...insertRows("threads", ["id", "created_by", "created_at", "updated_at"], messaging.threads),
    ...insertRows("thread_participants", ["thread_id", "user_id", "unread", "deleted", "in_inbox", "in_sent", "last_message_at"], messaging.participants),
    ...insertRows("messages", ["id", "thread_id", "sender_id", "content", "created_at"], messaging.messages),
    ...insertRows("notifications", ["id", "user_id", "container_id", "sender_id", "job_id", "content", "unread", "created_at"], notificationRows(containers)),
  ];
  return `${statements.join(";\n")};\n`;
}
