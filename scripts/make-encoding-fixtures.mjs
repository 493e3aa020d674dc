// Writes the legacy-encoding fixtures of test/unit/subtitles/decode.test.ts: for each code page a short SubRip file of
// dialogue written for this project, encoded with iconv-lite (a devDependency: Node only, never at test time), its
// expected UTF-8 text, and index.ts with both as strings (the tests run in workerd and read no files). Run with
// `node scripts/make-encoding-fixtures.mjs` after changing a text below; commit what it writes.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import iconv from "iconv-lite";

const OUT = join(dirname(fileURLToPath(import.meta.url)), "..", "test", "fixtures", "subtitles", "encodings");

/** name, encoding, import language, a wrong language for the same bytes, cue texts ("\n" between lines), line end. */
const FIXTURES = [
  [
    "ko-euc-kr",
    "euc-kr",
    "ko",
    "ru",
    [
      "안녕하세요, 오랜만이에요.",
      "어디 갔었어요? 다들 걱정했어요.",
      "미안해요. 급한 일이 생겨서\n부산에 다녀왔어요.",
      "괜찮아요. 무사히 돌아와서 다행이에요.",
      "배고프죠? 같이 밥 먹으러 가요.",
      "좋아요. 오늘은 제가 살게요!",
    ],
  ],
  [
    "ja-shift_jis",
    "shift_jis",
    "ja",
    "ko",
    [
      "おはようございます。",
      "昨日の会議、どうでしたか？",
      "正直に言うと、\nあまりうまくいきませんでした。",
      "そうですか…残念ですね。",
      "でも、来週もう一度チャンスがあります。",
      "頑張ってください！応援しています。",
    ],
  ],
  [
    "ja-euc-jp",
    "euc-jp",
    "ja",
    "zh",
    [
      "すみません、駅はどこですか？",
      "この道をまっすぐ行って、\n二つ目の角を右に曲がってください。",
      "ありがとうございます。遠いですか？",
      "歩いて十分くらいですよ。",
      "助かりました。良い一日を！",
    ],
  ],
  [
    "zh-gb18030",
    "gb18030",
    "zh",
    "ko",
    [
      "你好，请问这里是图书馆吗？",
      "是的，不过今天已经关门了。",
      "真可惜。明天几点开门？",
      "早上九点。\n你要借什么书？",
      "一本关于中国历史的书。",
      "那你明天早点来吧。",
    ],
  ],
  [
    "zt-big5",
    "big5",
    "zt",
    "ja",
    [
      "你好，請問這裡是圖書館嗎？",
      "是的，不過今天已經關門了。",
      "真可惜。明天幾點開門？",
      "早上九點。\n你要借什麼書？",
      "一本關於台灣歷史的書。",
      "那你明天早點來吧。",
    ],
  ],
  [
    "ru-windows-1251",
    "windows-1251",
    "ru",
    "ko",
    [
      "Привет! Ты уже дома?",
      "Нет, я ещё на работе.\nНачальник не отпускает.",
      "Опять? Уже девять часов вечера!",
      "Знаю, знаю. Скоро закончу.",
      "Ладно, я приготовлю ужин.",
      "Спасибо, дорогая. Ты лучшая.",
    ],
  ],
  [
    "ru-koi8-r",
    "koi8-r",
    "ru",
    "el",
    [
      "Доброе утро, Анна Сергеевна.",
      "Здравствуйте! Вы сегодня рано.",
      "Поезд пришёл вовремя, впервые за месяц.",
      "Хотите чаю? Я как раз поставила чайник.",
      "С удовольствием, спасибо.\nПогода сегодня просто ужасная.",
    ],
  ],
  [
    "uk-koi8-u",
    "koi8-u",
    "uk",
    "ar",
    [
      "Добрий день! Як справи?",
      "Дякую, все гаразд. А в тебе?",
      "Їду до Львова на вихідні.\nЄ ще квитки на потяг?",
      "Чудово! Привези мені ґудзики з ярмарку.",
      "Гаразд, не забуду. Бувай!",
    ],
  ],
  [
    "ar-windows-1256",
    "windows-1256",
    "ar",
    "ru",
    [
      "مرحباً، كيف حالك اليوم؟",
      "بخير، شكراً. وأنت؟",
      "أنا متعب قليلاً، عملت طوال الليل.",
      "يجب أن ترتاح.\nهل تريد قهوة؟",
      "نعم، من فضلك. بدون سكر.",
    ],
  ],
  // Persian in windows-1256 writes yeh as U+064A (the code page has no U+06CC), as such files do.
  [
    "fa-windows-1256",
    "windows-1256",
    "fa",
    "he",
    [
      "سلام! خيلي وقته نديدمت.",
      "آره، چند ماه رفته بودم شيراز.",
      "چه خوب! خوش گذشت؟",
      "عالي بود. هوا گرم بود\nولي مردم خيلي مهربان بودند.",
      "پس حتماً برايم تعريف کن.",
    ],
  ],
  [
    "he-windows-1255",
    "windows-1255",
    "he",
    "ar",
    ["שלום, מה שלומך?", "בסדר גמור, תודה. ואתה?", "עייף קצת. עבדתי עד מאוחר.", "בוא נשתה קפה ביחד.", "רעיון מצוין! אני מזמין."],
  ],
  [
    "el-windows-1253",
    "windows-1253",
    "el",
    "ru",
    [
      "Καλημέρα! Τι κάνεις;",
      "Καλά, ευχαριστώ. Εσύ;",
      "Πολύ κουρασμένος.\nΔούλευα όλη νύχτα.",
      "Θέλεις έναν καφέ;",
      "Ναι, παρακαλώ. Σκέτο, χωρίς ζάχαρη.",
    ],
  ],
  [
    "tr-windows-1254",
    "windows-1254",
    "tr",
    "ru",
    [
      "Günaydın! Nasılsın?",
      "İyiyim, teşekkür ederim. Sen nasılsın?",
      "Biraz yorgunum, bütün gece çalıştım.",
      "Dün akşam maçı gördün mü?",
      "Sana bir çay getireyim mi?\nÇok iyi olur, sağ ol.",
    ],
  ],
  [
    "th-windows-874",
    "windows-874",
    "th",
    "ko",
    ["สวัสดีครับ วันนี้เป็นอย่างไรบ้าง", "สบายดีค่ะ ขอบคุณ แล้วคุณล่ะ", "เหนื่อยนิดหน่อยครับ ทำงานทั้งคืน", "ดื่มกาแฟสักแก้วไหมคะ", "ดีครับ ขอบคุณมาก"],
  ],
  [
    "pl-windows-1250",
    "windows-1250",
    "pl",
    "ru",
    [
      "Dzień dobry! Gdzie byłeś wczoraj?",
      "Musiałem zostać w pracy do późna.\nWszyscy są zmęczeni.",
      "Znowu? Szef naprawdę przesadza.",
      "Wiem. Może w sobotę weźmiemy łódź?",
      "Świetny pomysł! Zabiorę kanapki.",
      "Cześć, do zobaczenia.",
    ],
  ],
  [
    "cs-windows-1250",
    "windows-1250",
    "cs",
    "el",
    [
      "Dobrý den, pane doktore.",
      "Dobrý den. Co vás trápí?",
      "Už tři dny mě bolí hlava.",
      "Spal jste v noci dobře?",
      "Moc ne. Pořád přemýšlím o práci.",
      "Jděte domů a odpočiňte si.",
    ],
  ],
  [
    "hu-windows-1250",
    "windows-1250",
    "hu",
    "ko",
    [
      "Jó estét! Hová mész ilyen későn?",
      "Haza. Fáradt vagyok, egész nap dolgoztam.",
      "Nem akarsz velünk vacsorázni?\nŐ is jön.",
      "Köszönöm, de most nem. Talán holnap.",
      "Az élet nem mindig egyszerű.",
      "Átadom az üdvözletedet. Szép álmokat!",
    ],
  ],
  [
    "vi-windows-1258",
    "windows-1258",
    "vi",
    "ru",
    [
      "Chào anh! Anh khỏe không?",
      "Cảm ơn, tôi khỏe. Còn chị thì sao?",
      "Tôi hơi mệt vì làm việc cả đêm.",
      "Chị nên nghỉ ngơi một chút.",
      "Đúng vậy. Chúng ta đi uống cà phê nhé?",
      "Được, đi thôi!",
    ],
  ],
  [
    "lt-windows-1257",
    "windows-1257",
    "lt",
    "ru",
    [
      "Labas rytas! Kaip sekasi?",
      "Ačiū, gerai. O tau?",
      "Šiek tiek pavargau, dirbau visą naktį.",
      "Gal išgerkime kavos kartu?\nLaukiu draugų prie upės.",
      "Puiki mintis! Einame į kavinę.",
      "Aš sumokėsiu, šiandien mano eilė.",
    ],
  ],
  [
    "fr-windows-1252",
    "windows-1252",
    "fr",
    "ru",
    [
      "Bonjour, madame Lefèvre !",
      "Vous n’avez pas vu mon frère ?",
      "Non… Il est sorti tôt ce matin.",
      "Il a pris son vélo\net un œuf dur.",
      "Ça m’étonne. Il déteste les œufs !",
      "C’est vrai… mais il a changé, à ce qu’on dit.",
    ],
  ],
  [
    "es-windows-1252",
    "windows-1252",
    "es",
    "el",
    [
      "¡Hola, Marta! ¿Qué tal estás?",
      "Muy bien, gracias. ¿Y tú?",
      "Cansado. Mi jefe dijo:\n“Hoy nadie se va a casa”.",
      "¡Qué horror! ¿Y qué hiciste?",
      "Terminé el informe a las once de la noche.",
      "Pobrecito. Mañana te invito a un café.",
    ],
  ],
  [
    "de-windows-1252",
    "windows-1252",
    "de",
    "ko",
    [
      "Guten Morgen! Hast du gut geschlafen?",
      "Nicht wirklich. Die Nachbarn waren so laut.",
      "Schon wieder? Du solltest mit ihnen sprechen.",
      "Das habe ich versucht,\naber sie hören nicht zu.",
      "Weißt du, wie spät es ist? Möchtest du Frühstück?",
    ],
  ],
];

/** A long English file, all ASCII but for 4 curly quotes (what real files look like after one pass through Word). */
function englishCues() {
  const lines = [
    "Where were you last night?",
    "I told you, I was at work.",
    "Until three in the morning?",
    "The server went down.\nSomebody had to fix it.",
    "You could have called.",
    "My phone was dead. I'm sorry.",
    "Let's just go. We're late.",
    "Did you bring the tickets?",
    "They're in my jacket.",
    "Which jacket?",
  ];
  const cues = [];
  for (let i = 0; i < 400; i++) cues.push(lines[i % lines.length]);
  cues[60] = "He said “hold the door” and left.";
  cues[240] = "That’s not what I meant.";
  cues[350] = "It doesn’t matter now.";
  return cues;
}
FIXTURES.push(["en-windows-1252", "windows-1252", "en", "ko", englishCues(), "\r\n"]);

const clock = (ms) => {
  const p = (n, w = 2) => String(n).padStart(w, "0");
  return `${p(Math.floor(ms / 3_600_000))}:${p(Math.floor(ms / 60_000) % 60)}:${p(Math.floor(ms / 1000) % 60)},${p(ms % 1000, 3)}`;
};
const srt = (cues, eol) =>
  cues
    .map((text, i) => `${i + 1}\n${clock(1000 + i * 3000)} --> ${clock(3500 + i * 3000)}\n${text}\n`)
    .join("\n")
    .split("\n")
    .join(eol);

/** windows-1258 has Vietnamese vowels with their shape marks but not with tone marks: a tone is a combining character. */
function toCp1258Form(text) {
  let out = "";
  for (const ch of text.normalize("NFD").match(/\P{M}\p{M}*/gu) ?? []) {
    const marks = [...ch.slice(1)];
    const shape = marks.filter((m) => "\u0302\u0306\u031b".includes(m)).join("");
    out += (ch[0] + shape).normalize("NFC") + marks.filter((m) => !"\u0302\u0306\u031b".includes(m)).join("");
  }
  return out;
}

mkdirSync(OUT, { recursive: true });
const entries = [];
FIXTURES.forEach(([name, encoding, language, wrongLanguage, cues, eol]) => {
  const text = srt(cues, eol ?? (entries.length % 2 ? "\r\n" : "\n"));
  const bytes = iconv.encode(encoding === "windows-1258" ? toCp1258Form(text) : text, encoding);
  const back = iconv.decode(bytes, encoding).normalize("NFC");
  if (back !== text) throw new Error(`${name}: ${encoding} cannot hold the text (it came back as ${JSON.stringify(back.slice(0, 80))})`);
  if (!bytes.some((b) => b >= 0x80)) throw new Error(`${name}: no byte above 0x7F`);
  writeFileSync(join(OUT, `${name}.srt`), bytes);
  writeFileSync(join(OUT, `${name}.expected.txt`), text);
  entries.push({ name, encoding, language, wrongLanguage, base64: bytes.toString("base64"), expected: text });
});

const body = entries
  .map(
    (e) =>
      `  {\n${Object.entries(e)
        // As Prettier prints it (printWidth 140), so the generated file passes `prettier --check`.
        .map(([k, v]) =>
          `    ${k}: ${JSON.stringify(v)},`.length <= 140 ? `    ${k}: ${JSON.stringify(v)},` : `    ${k}:\n      ${JSON.stringify(v)},`,
        )
        .join("\n")}\n  },`,
  )
  .join("\n");
writeFileSync(
  join(OUT, "index.ts"),
  `// Generated by scripts/make-encoding-fixtures.mjs: do not edit. Each <name>.srt beside this file, as base64, with its
// expected text (<name>.expected.txt): the tests run in workerd, which reads no files.
import type { EncodingFixture } from "./fixture";

export const ENCODING_FIXTURES: EncodingFixture[] = [
${body}
];
`,
);
console.log(`${entries.length} fixtures written to ${OUT}`);
