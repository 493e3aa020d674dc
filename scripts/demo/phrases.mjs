// Phrase banks for video titles, descriptions and subtitles, parallel across languages.

export const EPISODE = {
  en: (n) => `Episode ${n}`,
  ko: (n) => `${n}화`,
  ja: (n) => `第${n}話`,
  zh: (n) => `第${n}集`,
  es: (n) => `Episodio ${n}`,
  fr: (n) => `Épisode ${n}`,
  de: (n) => `Folge ${n}`,
  th: (n) => `ตอนที่ ${n}`,
  hi: (n) => `एपिसोड ${n}`,
};

export const TRAILER = {
  en: "Official Trailer",
  ko: "공식 예고편",
  ja: "予告編",
  zh: "官方预告片",
  es: "Tráiler oficial",
  fr: "Bande-annonce officielle",
  de: "Offizieller Trailer",
  th: "ตัวอย่างอย่างเป็นทางการ",
  hi: "आधिकारिक ट्रेलर",
};

export const CLIPS = [
  {
    en: "Behind the Scenes",
    ko: "비하인드",
    ja: "メイキング",
    zh: "幕后花絮",
    es: "Detrás de cámaras",
    fr: "Dans les coulisses",
    de: "Hinter den Kulissen",
    th: "เบื้องหลัง",
    hi: "पर्दे के पीछे",
  },
  {
    en: "Highlights",
    ko: "하이라이트",
    ja: "ハイライト",
    zh: "精彩片段",
    es: "Lo más destacado",
    fr: "Temps forts",
    de: "Höhepunkte",
    th: "ไฮไลต์",
    hi: "मुख्य अंश",
  },
  { en: "Bloopers", ko: "NG 모음", ja: "NG集", zh: "NG花絮", es: "Tomas falsas", fr: "Bêtisier", de: "Pannen", th: "ฉากหลุด", hi: "ब्लूपर्स" },
  {
    en: "Cast Interview",
    ko: "배우 인터뷰",
    ja: "キャストインタビュー",
    zh: "演员访谈",
    es: "Entrevista al reparto",
    fr: "Interview des acteurs",
    de: "Interview mit der Besetzung",
    th: "สัมภาษณ์นักแสดง",
    hi: "कलाकारों का साक्षात्कार",
  },
  { en: "Teaser", ko: "티저", ja: "ティザー", zh: "预告", es: "Avance", fr: "Teaser", de: "Teaser", th: "ทีเซอร์", hi: "टीज़र" },
];
export const LIVE_CLIP = {
  en: "Live Performance",
  ko: "라이브 무대",
  ja: "ライブパフォーマンス",
  zh: "现场表演",
  es: "Actuación en directo",
  fr: "Performance live",
  de: "Live-Auftritt",
  th: "การแสดงสด",
  hi: "लाइव परफॉर्मेंस",
};

export const SONGS = [
  { en: "Golden Hour", ko: "골든 아워", ja: "ゴールデンアワー", zh: "黄金时刻", fr: "L'heure dorée", es: "La hora dorada", th: "ชั่วโมงทอง" },
  { en: "Neon Rain", ko: "네온 비", ja: "ネオンの雨", zh: "霓虹雨", fr: "Pluie de néon", es: "Lluvia de neón", th: "ฝนนีออน" },
  { en: "Paper Hearts", ko: "종이 하트", ja: "紙のハート", zh: "纸心", fr: "Cœurs de papier", es: "Corazones de papel", th: "หัวใจกระดาษ" },
  {
    en: "Midnight Run",
    ko: "미드나잇 런",
    ja: "ミッドナイト・ラン",
    zh: "午夜狂奔",
    fr: "Course de minuit",
    es: "Carrera de medianoche",
    th: "วิ่งเที่ยงคืน",
  },
  { en: "First Snow", ko: "첫눈", ja: "初雪", zh: "初雪", fr: "Première neige", es: "Primera nevada", th: "หิมะแรก" },
  { en: "Blue Summer", ko: "파란 여름", ja: "青い夏", zh: "蓝色夏天", fr: "Été bleu", es: "Verano azul", th: "ฤดูร้อนสีฟ้า" },
  { en: "Falling Stars", ko: "떨어지는 별", ja: "流れ星", zh: "流星", fr: "Étoiles filantes", es: "Estrellas fugaces", th: "ดาวตก" },
  { en: "Echo", ko: "메아리", ja: "エコー", zh: "回声", fr: "Écho", es: "Eco", th: "เสียงสะท้อน" },
  { en: "Butterfly", ko: "나비", ja: "バタフライ", zh: "蝴蝶", fr: "Papillon", es: "Mariposa", th: "ผีเสื้อ" },
  { en: "Wildfire", ko: "들불", ja: "ワイルドファイア", zh: "野火", fr: "Feu sauvage", es: "Fuego salvaje", th: "ไฟป่า" },
  {
    en: "Hello Tomorrow",
    ko: "안녕 내일",
    ja: "ハロー・トゥモロー",
    zh: "你好明天",
    fr: "Bonjour demain",
    es: "Hola mañana",
    th: "สวัสดีพรุ่งนี้",
  },
  { en: "Heartbeat", ko: "심장 소리", ja: "ハートビート", zh: "心跳", fr: "Battement de cœur", es: "Latido", th: "จังหวะหัวใจ" },
  { en: "Runaway", ko: "런어웨이", ja: "ランナウェイ", zh: "逃离", fr: "Fugue", es: "Fugitivo", th: "หนีไป" },
  {
    en: "Silver Lining",
    ko: "희망의 빛",
    ja: "希望の光",
    zh: "一线希望",
    fr: "Lueur d'espoir",
    es: "Rayo de esperanza",
    th: "แสงแห่งความหวัง",
  },
  { en: "Daydream", ko: "백일몽", ja: "白昼夢", zh: "白日梦", fr: "Rêverie", es: "Ensueño", th: "ฝันกลางวัน" },
  { en: "Moonwalk", ko: "문워크", ja: "ムーンウォーク", zh: "月球漫步", fr: "Moonwalk", es: "Moonwalk", th: "มูนวอล์ก" },
];
/** How a music video's title reads per language, given the song title in that language. */
export const MV_TITLE = {
  en: (s) => `${s} (Official MV)`,
  ko: (s) => `'${s}' 뮤직비디오`,
  ja: (s) => `「${s}」MV`,
  zh: (s) => `《${s}》MV`,
  es: (s) => `${s} (Video oficial)`,
  fr: (s) => `${s} (Clip officiel)`,
  th: (s) => `${s} (MV)`,
  de: (s) => `${s} (Offizielles Musikvideo)`,
  hi: (s) => `${s} (आधिकारिक वीडियो)`,
};

const MONTHS = {
  en: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
  es: ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"],
  fr: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"],
  de: ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
  hi: ["जनवरी", "फ़रवरी", "मार्च", "अप्रैल", "मई", "जून", "जुलाई", "अगस्त", "सितंबर", "अक्टूबर", "नवंबर", "दिसंबर"],
};

/** A news edition's date as that language writes it. */
export function editionDate(ts, lang) {
  const d = new Date(ts * 1000);
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  switch (lang) {
    case "ko":
      return `${y}년 ${m + 1}월 ${day}일`;
    case "ja":
    case "zh":
      return `${y}年${m + 1}月${day}日`;
    case "es":
      return `${day} de ${MONTHS.es[m]} de ${y}`;
    case "de":
      return `${day}. ${MONTHS.de[m]} ${y}`;
    case "fr":
    case "hi":
      return `${day} ${MONTHS[lang][m]} ${y}`;
    case "th":
      return `${day}/${m + 1}/${y}`;
    default:
      return `${day} ${MONTHS.en[m]} ${y}`;
  }
}

/** "<container title>: <suffix>", with the separator each language uses. */
export function joinTitle(lang, head, tail) {
  if (lang === "fr") return `${head} : ${tail}`;
  if (lang === "ko" || lang === "ja" || lang === "zh" || lang === "th") return `${head} ${tail}`;
  return `${head}: ${tail}`;
}

/** Short promotional blurbs, used as non-English container descriptions. */
export const PROMO = {
  ko: (t) => `지금 '${t}'을(를) 자막과 함께 감상하세요.`,
  ja: (t) => `「${t}」を字幕付きで楽しもう。`,
  zh: (t) => `立即观看带字幕的《${t}》。`,
  es: (t) => `Mira «${t}» con subtítulos en tu idioma.`,
  fr: (t) => `Regardez « ${t} » sous-titré dans votre langue.`,
  de: (t) => `Sieh dir „${t}“ mit Untertiteln in deiner Sprache an.`,
  th: (t) => `รับชม ${t} พร้อมคำบรรยาย`,
  hi: (t) => `${t} को सबटाइटल के साथ देखें।`,
};

export const EPISODE_BLURBS = [
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
export const LINES = [
  {
    en: "Where are you going?",
    ko: "어디 가?",
    ja: "どこへ行くの？",
    zh: "你要去哪里？",
    es: "¿Adónde vas?",
    fr: "Où vas-tu ?",
    de: "Wohin gehst du?",
    th: "คุณจะไปไหน",
    hi: "तुम कहाँ जा रहे हो?",
  },
  {
    en: "I'll be right back.",
    ko: "금방 올게.",
    ja: "すぐ戻るよ。",
    zh: "我马上回来。",
    es: "Ahora vuelvo.",
    fr: "Je reviens tout de suite.",
    de: "Ich bin gleich zurück.",
    th: "เดี๋ยวฉันกลับมา",
    hi: "मैं अभी आता हूँ।",
  },
  {
    en: "Thank you so much.",
    ko: "정말 고마워.",
    ja: "本当にありがとう。",
    zh: "太谢谢你了。",
    es: "Muchas gracias.",
    fr: "Merci beaucoup.",
    de: "Vielen Dank.",
    th: "ขอบคุณมาก",
    hi: "बहुत-बहुत धन्यवाद।",
  },
  {
    en: "Are you okay?",
    ko: "괜찮아?",
    ja: "大丈夫？",
    zh: "你没事吧？",
    es: "¿Estás bien?",
    fr: "Ça va ?",
    de: "Alles in Ordnung?",
    th: "คุณโอเคไหม",
    hi: "तुम ठीक हो?",
  },
  {
    en: "Let's go together.",
    ko: "같이 가자.",
    ja: "一緒に行こう。",
    zh: "我们一起去吧。",
    es: "Vamos juntos.",
    fr: "Allons-y ensemble.",
    de: "Lass uns zusammen gehen.",
    th: "ไปด้วยกันเถอะ",
    hi: "चलो साथ चलते हैं।",
  },
  {
    en: "I can't believe it.",
    ko: "믿을 수가 없어.",
    ja: "信じられない。",
    zh: "真不敢相信。",
    es: "No puedo creerlo.",
    fr: "Je n'arrive pas à y croire.",
    de: "Ich kann es nicht glauben.",
    th: "ไม่อยากเชื่อเลย",
    hi: "मुझे यकीन नहीं हो रहा।",
  },
  {
    en: "Wait for me!",
    ko: "기다려!",
    ja: "待って！",
    zh: "等等我！",
    es: "¡Espérame!",
    fr: "Attends-moi !",
    de: "Warte auf mich!",
    th: "รอฉันด้วย",
    hi: "मेरा इंतज़ार करो!",
  },
  {
    en: "It's been a long time.",
    ko: "오랜만이야.",
    ja: "久しぶりだね。",
    zh: "好久不见。",
    es: "Cuánto tiempo.",
    fr: "Ça fait longtemps.",
    de: "Lange nicht gesehen.",
    th: "ไม่เจอกันนานเลย",
    hi: "बहुत दिन हो गए।",
  },
  {
    en: "What happened here?",
    ko: "여기서 무슨 일이 있었던 거야?",
    ja: "ここで何があったの？",
    zh: "这里发生了什么？",
    es: "¿Qué pasó aquí?",
    fr: "Que s'est-il passé ici ?",
    de: "Was ist hier passiert?",
    th: "เกิดอะไรขึ้นที่นี่",
    hi: "यहाँ क्या हुआ?",
  },
  {
    en: "I'm sorry.",
    ko: "미안해.",
    ja: "ごめんね。",
    zh: "对不起。",
    es: "Lo siento.",
    fr: "Je suis désolé.",
    de: "Es tut mir leid.",
    th: "ขอโทษนะ",
    hi: "मुझे माफ़ करना।",
  },
  {
    en: "We have to hurry.",
    ko: "서둘러야 해.",
    ja: "急がなきゃ。",
    zh: "我们得快点。",
    es: "Tenemos que darnos prisa.",
    fr: "Il faut se dépêcher.",
    de: "Wir müssen uns beeilen.",
    th: "เราต้องรีบแล้ว",
    hi: "हमें जल्दी करनी होगी।",
  },
  {
    en: "Good morning.",
    ko: "좋은 아침.",
    ja: "おはよう。",
    zh: "早上好。",
    es: "Buenos días.",
    fr: "Bonjour.",
    de: "Guten Morgen.",
    th: "อรุณสวัสดิ์",
    hi: "सुप्रभात।",
  },
  {
    en: "Don't worry about it.",
    ko: "걱정하지 마.",
    ja: "心配しないで。",
    zh: "别担心。",
    es: "No te preocupes.",
    fr: "Ne t'inquiète pas.",
    de: "Mach dir keine Sorgen.",
    th: "ไม่ต้องห่วง",
    hi: "चिंता मत करो।",
  },
  {
    en: "I love you.",
    ko: "사랑해.",
    ja: "愛してる。",
    zh: "我爱你。",
    es: "Te quiero.",
    fr: "Je t'aime.",
    de: "Ich liebe dich.",
    th: "ฉันรักเธอ",
    hi: "मैं तुमसे प्यार करता हूँ।",
  },
  {
    en: "Who are you?",
    ko: "누구세요?",
    ja: "あなたは誰？",
    zh: "你是谁？",
    es: "¿Quién eres?",
    fr: "Qui êtes-vous ?",
    de: "Wer bist du?",
    th: "คุณเป็นใคร",
    hi: "तुम कौन हो?",
  },
  {
    en: "See you in Tokyo tomorrow.",
    ko: "내일 도쿄에서 봐.",
    ja: "明日、東京で会おう。",
    zh: "明天东京见。",
    es: "Nos vemos mañana en Tokio.",
    fr: "À demain à Tokyo.",
    de: "Bis morgen in Tokio.",
    th: "พรุ่งนี้เจอกันที่โตเกียว",
    hi: "कल टोक्यो में मिलते हैं।",
  },
];
