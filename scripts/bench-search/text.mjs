// The multilingual lines of `npm run bench:search` (scripts/bench-search.mjs), a text model for
// scripts/shard-sizes/load.mjs: per video English, Korean and Chinese or Japanese (alternating by video), each line
// words drawn from a vocabulary with a skew (the first word commonest: "the", 이, 我, の), plus one rare word per
// language about once in 200,000 words. English words are spaced, Korean words are Hangul syllables with spaces between
// words, Chinese and Japanese lines are unspaced runs. Rows are made in SQL: each vocabulary is one string of
// entries padded to a fixed width, read with substr, once as written (`text`) and once in the index form
// (`search_text`: every Han, kana or Hangul character between single spaces, which is what src/domain/search-text.ts
// `indexForm` gives for text made of these characters and spaces; bench-search checks a sample against it).

/** Entries by falling frequency; the last is the rare word. */
const VOCABULARY = {
  en: `the you i to a it and that of is what in this we me he for on do have be are not your was my with no know just
    can they get all so but like go there here now she come right think want at well her as him about up one how
    out will if did would why look see his time back tell by who going got let oh yeah from never good sorry take
    could when more them then where need some okay man please thing over us way said yes little too make people
    very mean really thank help love something home sure last still long night again maybe much old work house
    money father mother doctor police morning tonight family friend believe remember happened tomorrow everyone
    nothing anything already together another minute before after always dead life world place yesterday window
    lighthouse`,
  ko: `이 그 나 너 우리 사람 지금 정말 여기 뭐 왜 어디 같이 그냥 다시 빨리 오늘 내일 어제 시간 사랑 친구 엄마 아빠 집 돈 일
    말 생각 했어 해요 있어 없어 알아 몰라 가자 와 봐 먹어 좋아 싫어 괜찮아 미안해 고마워 안녕 잠깐 진짜 제발 아니 네 응
    그래 뭐야 이거 저거 그거 때문에 하지만 그런데 그리고 너무 많이 조금 항상 절대 모두 아무도 누구 언제 어떻게 학교
    회사 경찰 의사 선생님 문제 이야기 마음 얼굴 눈 손 밤 아침 비 바다 하늘 세상 약속 비밀 기억 사실 이름 가족 동생 등대`,
  zh: `我 你 的 了 是 不 他 她 在 们 这 那 什么 没有 知道 我们 你们 他们 现在 时候 可以 一个 就 都 要 去 来 说 看 想
    吗 吧 呢 好 很 还 也 对 会 能 今天 明天 昨天 朋友 妈妈 爸爸 喜欢 因为 所以 但是 如果 真的 事情 问题 工作 回家
    为什么 怎么 已经 一起 谢谢 对不起 没关系 等一下 快点 小心 警察 医生 老师 学校 公司 电话 时间 东西 地方 孩子 先生
    世界 秘密 记得 忘记 相信 告诉 离开 回来 走 吃饭 睡觉 钱 车 门 水 心 人 不知道 灯塔`,
  ja: `の は が を に で と も 私 あなた 彼 彼女 です ます だ ない する した いる ある 何 どこ いつ 今 本当 大丈夫
    ありがとう ごめん すみません 行く 来る 見る 言う 分かった 知らない 待って 早く 一緒 友達 先生 学校 会社 警察 家
    時間 今日 明日 昨日 話 気 心 人 日本 東京 仕事 電話 大切 好き 嫌い もう まだ ちょっと とても そう これ それ あれ
    ここ そこ ね よ か コーヒー テレビ ドア ニュース メール ブラジル 灯台`,
};

/** Words per line, from `min` to `min + span - 1`: about 40 characters of English, 15-20 of the others. */
const WORDS = { en: { min: 7, span: 4 }, ko: { min: 3, span: 5 }, zh: { min: 5, span: 5 }, ja: { min: 5, span: 5 } };
/** Two lines in three end in one of these (the unspaced scripts' own marks); never two marks together, which the
 *  index form would not space apart. */
const ENDS = { en: [".", "?"], ko: [".", "?"], zh: ["。", "？"], ja: ["。", "？"] };
const SLOTS = 10;
const M = 2147483647;
/** One word in RARE is the vocabulary's last entry (a few dozen lines in 2 million). */
const RARE = 200_000;

const sqlString = (s) => `'${s.replaceAll("'", "''")}'`;
const spaced = new Set(["en", "ko"]);

/** The vocabulary as two padded strings (as written, index form), its entry width and its count before the rare word. */
function padded(lang) {
  const words = VOCABULARY[lang].trim().split(/\s+/);
  const indexed = words.map((w) => (lang === "en" ? w : [...w].join(" ")));
  const width = Math.max(...words.map((w) => [...w].length));
  const formWidth = Math.max(...indexed.map((w) => [...w].length));
  return {
    text: words.map((w) => w.padEnd(width)).join(""),
    form: indexed.map((w) => w.padEnd(formWidth)).join(""),
    width,
    formWidth,
    common: words.length - 1,
  };
}
const VOCABULARIES = Object.fromEntries(Object.keys(VOCABULARY).map((lang) => [lang, padded(lang)]));

/** The model's languages: English (the commonest, "the"), Korean, and Chinese or Japanese by video. */
const languages = (video) => ["en", "ko", video.video_id % 2 ? "zh" : "ja"];

/**
 * SQL of cue `n`'s line in the video's j-th language. `h` (materialized, so each hash is computed once) holds one hash
 * per word slot (Park-Miller over a square of the slot's number) and one for the word count; a slot's entry is
 * floor(common × u²) for u uniform in [0, 1), which makes entry 0 the commonest (P = 1/√common), or the rare word.
 */
function line(video, j, lang) {
  const v = VOCABULARIES[lang];
  const base = `((${video.video_id % 100_003} * 600 + n) * 48 + ${j * 16})`;
  const hash = (slot) => `(((${base} + ${slot}) % ${M}) * ((${base} + ${slot}) % ${M}) + ${slot}) % ${M} * 48271 % ${M}`;
  const slots = Array.from({ length: SLOTS }, (_, w) => w);
  const entry = (w) => `iif(h${w} % ${RARE} = 0, ${v.common}, (h${w} % 1000000) * (h${w} % 1000000) / 1000000 * ${v.common} / 1000000)`;
  const { min, span } = WORDS[lang];
  const word = (w) => `rtrim(substr(voc.t, ${v.width} * e${w} + 1, ${v.width}))`;
  const form = (w) => `rtrim(substr(voc.f, ${v.formWidth} * e${w} + 1, ${v.formWidth}))`;
  const [full, question] = ENDS[lang].map(sqlString);
  const end = (sep) => `CASE c2 WHEN 0 THEN ${sep} || ${full} WHEN 1 THEN ${sep} || ${question} ELSE '' END`;
  const join = (piece, sep, endSep) =>
    [...slots.map((w) => (w < min ? `${w ? `${sep} || ` : ""}${piece(w)}` : `iif(${w} < c, ${sep} || ${piece(w)}, '')`)), end(endSep)].join(
      " || ",
    );
  const text = join(word, spaced.has(lang) ? "' '" : "''", "''");
  return {
    ctes: `, h AS MATERIALIZED (SELECT n, ${slots.map((w) => `${hash(w)} AS h${w}`).join(", ")}, ${hash(SLOTS)} AS hc FROM k),
      e AS (SELECT n, ${slots.map((w) => `${entry(w)} AS e${w}`).join(", ")}, ${min} + hc % ${span} AS c, hc / 7 % 3 AS c2 FROM h),
      voc(t, f) AS (SELECT ${sqlString(v.text)}, ${sqlString(v.form)})`,
    from: "e, voc",
    text,
    // A Korean line of one-syllable words is its own index form: indexForm gives null for it.
    searchText: lang === "en" ? "NULL" : `nullif(${join(form, "' '", "' '")}, ${text})`,
  };
}

export const multilingualText = { languages, line };

/** What the bench queries: the commonest and the rare word of each vocabulary. */
export const vocabularyEnds = Object.fromEntries(
  Object.entries(VOCABULARY).map(([lang, text]) => {
    const words = text.trim().split(/\s+/);
    return [lang, { commonest: words[0], rare: words[words.length - 1] }];
  }),
);
