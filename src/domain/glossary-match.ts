/**
 * Where a glossary term occurs in a cue, and what a series' glossary finds in one translated cue (docs/decisions.md,
 * "Glossary"). Text and term are compared in the folded form of search (src/domain/search-text.ts: width, accents,
 * case unless the term is case sensitive), whitespace runs as one space. What counts as an occurrence depends on
 * the text's language:
 *
 * - Spaced languages (English, Spanish, Arabic, Hebrew, ...): whole words only. `Ann` is not in `Anne` or `Hannah`;
 *   accented letters, Arabic and Hebrew letters are letters of the word they are in.
 * - Korean: words are separated by spaces, but a noun carries its particles (`윤세리가`, `윤세리에게는`): the term must
 *   start a word, and what follows it in that word must be a chain of particles (KOREAN_PARTICLES), so `이준` is in
 *   `이준이` and `이준에게` but not in `이준기`.
 * - Japanese, Chinese, Thai, Lao, Khmer, Burmese (no spaces between words): any substring, as Weblate's glossary
 *   check had to learn. A Latin term in such a text still needs its Latin neighbours to end (`Ann` is not in `Anne`).
 */
import { fold, graphemes, isUnspaced } from "./search-text";

export const GLOSSARY_STATUSES = ["preferred", "forbidden", "do_not_translate"] as const;
export type GlossaryStatus = (typeof GLOSSARY_STATUSES)[number];

/** A term as the matcher needs it. */
export interface GlossaryTermInput {
  id: number;
  term: string;
  language: string;
  translations: Record<string, string>;
  status: GlossaryStatus;
  caseSensitive: boolean;
}

export interface MatchOptions {
  /** The language of the text searched (a language code; only its primary subtag picks the rule). */
  language: string;
  caseSensitive: boolean;
}

export const GLOSSARY_RULES = ["missing_translation", "forbidden_term", "do_not_translate_changed"] as const;
export type GlossaryRule = (typeof GLOSSARY_RULES)[number];

export interface GlossaryFinding {
  rule: GlossaryRule;
  termId: number;
  /** The term as stored (in its own language). */
  term: string;
  /** Which text the finding is about: a forbidden term is found where it is; the other rules are about the target. */
  text: "source" | "target";
  /** missing_translation: the translation the target text lacks; do_not_translate_changed: the term itself. */
  expected?: string;
}

/** Languages written without spaces between words: a term is any substring there. */
const UNSPACED_LANGUAGES = new Set(["ja", "zh", "th", "lo", "km", "my", "yue", "wuu"]);

type Mode = "spaced" | "korean" | "unspaced";

const modeOf = (language: string): Mode => {
  const primary = language.toLowerCase().split(/[-_]/)[0];
  if (primary === "ko") return "korean";
  return UNSPACED_LANGUAGES.has(primary) ? "unspaced" : "spaced";
};

/**
 * Particles, copulas and suffixes that follow a Korean noun inside its word (case particles, topic and additive
 * particles, vocatives, the honorifics 씨 and 님, the plural 들, polite 요). A word holds a term when what follows the
 * term is a chain of these: `윤세리에게는` is 윤세리 + 에게 + 는. Connectives that are also common last syllables of
 * names (나, 지, 고, 라, 든, 며, 네) are left out, so `윤세리나` is another name, not 윤세리 + 나; the subject particle 이
 * cannot be: `천송이` holds a term `천송` (a name that is another name plus a particle cannot be told apart).
 */
export const KOREAN_PARTICLES: readonly string[] =
  "이 가 은 는 을 를 의 에 에게 에게서 한테 한테서 께 께서 에서 에서부터 와 과 랑 이랑 하고 도 만 로 으로 로서 으로서 로써 으로써 부터 까지 보다 처럼 같이 마저 조차 밖에 뿐 야 아 이야 여 이여 씨 님 들 요 이요 이다 다 이에요 예요 이었다 였다 이라고 라고".split(
    " ",
  );
const PARTICLES = new Set(KOREAN_PARTICLES);
const LONGEST_PARTICLE = Math.max(...KOREAN_PARTICLES.map((p) => p.length));

const HANGUL_SYLLABLE = /[\uAC00-\uD7A3]/;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const WHITESPACE = /^\s+$/u;

/** Combining marks less the kana voicing marks: what search's fold drops, kept here for the case-sensitive form. */
const DROPPED_MARKS = /(?![\u3099\u309A])\p{M}/gu;
const foldKeepingCase = (g: string) => g.normalize("NFKD").replace(DROPPED_MARKS, "").normalize("NFC");

/**
 * The form a text and a term are compared in: each grapheme folded as search folds it (without lower-casing for a
 * case-sensitive term), every run of whitespace (a cue's line break too) one space, trimmed.
 */
export function matchForm(text: string, caseSensitive: boolean): string {
  let out = "";
  let space = false;
  for (const { segment } of graphemes(text)) {
    if (WHITESPACE.test(segment)) {
      space = out.length > 0;
      continue;
    }
    if (space) out += " ";
    space = false;
    out += caseSensitive ? foldKeepingCase(segment) : fold(segment);
  }
  return out;
}

/** The code point before `index` and the one at `index` (surrogate pairs taken whole). */
const before = (s: string, index: number) =>
  index > 0 ? String.fromCodePoint(s.codePointAt(index - 1 - (isLow(s, index - 1) ? 1 : 0))!) : undefined;
const isLow = (s: string, i: number) => i > 0 && s.charCodeAt(i) >= 0xdc00 && s.charCodeAt(i) <= 0xdfff;
const at = (s: string, index: number) => (index < s.length ? String.fromCodePoint(s.codePointAt(index)!) : undefined);

const isWordChar = (ch: string | undefined) => ch !== undefined && WORD_CHAR.test(ch);

/** Whether `rest` (the Hangul that follows a term in its word) is a chain of particles. */
function particleChain(rest: string, memo = new Map<string, boolean>()): boolean {
  if (rest === "") return true;
  const known = memo.get(rest);
  if (known !== undefined) return known;
  let ok = false;
  for (let n = Math.min(LONGEST_PARTICLE, rest.length); n >= 1 && !ok; n--) {
    ok = PARTICLES.has(rest.slice(0, n)) && particleChain(rest.slice(n), memo);
  }
  memo.set(rest, ok);
  return ok;
}

/** Two neighbours of an unspaced script (not Hangul, whose words are spaced) need no boundary between them. */
const runTogether = (edge: string, neighbour: string) =>
  isUnspaced(edge) && isUnspaced(neighbour) && !HANGUL_SYLLABLE.test(edge) && !HANGUL_SYLLABLE.test(neighbour);

function startOk(edge: string, neighbour: string | undefined, mode: Mode) {
  if (!isWordChar(neighbour) || !isWordChar(edge)) return true;
  if (mode === "unspaced" && (isUnspaced(edge) || isUnspaced(neighbour!))) return true;
  return runTogether(edge, neighbour!);
}

function endOk(form: string, end: number, edge: string, mode: Mode) {
  const neighbour = at(form, end);
  if (!isWordChar(neighbour) || !isWordChar(edge)) return true;
  if (mode === "korean" && HANGUL_SYLLABLE.test(neighbour!)) {
    let stop = end;
    while (stop < form.length && HANGUL_SYLLABLE.test(form[stop])) stop++;
    // The word must end after its particles (a Latin letter or a digit glued on is another word).
    return !isWordChar(at(form, stop)) && particleChain(form.slice(end, stop));
  }
  if (mode === "unspaced" && (isUnspaced(edge) || isUnspaced(neighbour!))) return true;
  return runTogether(edge, neighbour!);
}

/** Whether the folded `term` occurs in the folded `form` under the rules of `mode`. */
function occursInForm(form: string, term: string, mode: Mode): boolean {
  let i = term ? form.indexOf(term) : -1;
  if (i === -1) return false;
  const first = at(term, 0)!;
  const last = before(term, term.length)!;
  for (; i !== -1; i = form.indexOf(term, i + 1)) {
    if (startOk(first, before(form, i), mode) && endOk(form, i + term.length, last, mode)) return true;
  }
  return false;
}

/** Whether `term` occurs in `text` (a cue), as the rules of the text's language say (see the module's comment). */
export function termOccurs(text: string, term: string, options: MatchOptions): boolean {
  return occursInForm(matchForm(text, options.caseSensitive), matchForm(term, options.caseSensitive), modeOf(options.language));
}

/** A text with its two forms, each made once however many terms are looked for in it. */
class Prepared {
  private forms: [string?, string?] = [];
  readonly mode: Mode;
  constructor(
    private readonly text: string,
    language: string,
  ) {
    this.mode = modeOf(language);
  }
  form(caseSensitive: boolean) {
    const i = caseSensitive ? 1 : 0;
    return (this.forms[i] ??= matchForm(this.text, caseSensitive));
  }
}

export interface GlossaryCue {
  source: string;
  sourceLanguage: string;
  target: string;
  targetLanguage: string;
}

/**
 * The glossary's findings in one cue and its translation. For a term of the source language found in the source:
 * `missing_translation` when it is `preferred`, has a translation into the target language and that translation is not
 * in the target text; `do_not_translate_changed` when it is `do_not_translate` and the target does not hold it as it
 * is written (case counts); `forbidden_term` when it is `forbidden`. A `forbidden` term of the target language found in
 * the target is a `forbidden_term` too. Terms and their forms are folded once per call of the function this returns.
 */
export function glossaryChecker(terms: readonly GlossaryTermInput[]) {
  // Each term's language and forms are made once for the whole track: a check is then, per term and cue, a compare of
  // two short strings and (only where the languages fit) one indexOf.
  const compiled = terms.map((t) => ({
    t,
    language: t.language.toLowerCase(),
    form: matchForm(t.term, t.caseSensitive),
    forms: new Map<string, string>(),
  }));
  type Compiled = (typeof compiled)[number];
  const formOf = (c: Compiled, key: string, text: string, caseSensitive: boolean) => {
    let form = c.forms.get(key);
    if (form === undefined) c.forms.set(key, (form = matchForm(text, caseSensitive)));
    return form;
  };
  const holdsTerm = (c: Compiled, text: Prepared) =>
    occursInForm(text.form(c.t.caseSensitive), formOf(c, "term", c.t.term, c.t.caseSensitive), text.mode);

  return (cue: GlossaryCue): GlossaryFinding[] => {
    const sourceLanguage = cue.sourceLanguage.toLowerCase();
    const targetLanguage = cue.targetLanguage.toLowerCase();
    const source = new Prepared(cue.source, sourceLanguage);
    const target = new Prepared(cue.target, targetLanguage);
    const findings: GlossaryFinding[] = [];
    const found = ({ t }: Compiled, rule: GlossaryRule, text: "source" | "target", expected?: string) =>
      findings.push({ rule, termId: t.id, term: t.term, text, ...(expected === undefined ? {} : { expected }) });
    for (const c of compiled) {
      const { t } = c;
      if (t.status === "forbidden" && c.language === targetLanguage && holdsTerm(c, target)) found(c, "forbidden_term", "target");
      if (c.language !== sourceLanguage || !holdsTerm(c, source)) continue;
      if (t.status === "forbidden") {
        if (sourceLanguage !== targetLanguage) found(c, "forbidden_term", "source");
      } else if (t.status === "do_not_translate") {
        if (!occursInForm(target.form(true), formOf(c, "exact", t.term, true), target.mode))
          found(c, "do_not_translate_changed", "target", t.term);
      } else {
        const expected = t.translations[targetLanguage] ?? t.translations[cue.targetLanguage];
        if (
          expected?.trim() &&
          !occursInForm(target.form(t.caseSensitive), formOf(c, `to:${targetLanguage}`, expected, t.caseSensitive), target.mode)
        ) {
          found(c, "missing_translation", "target", expected);
        }
      }
    }
    return findings;
  };
}

/** The findings of one cue with a glossary used once (a cue edit); a track's check makes one `glossaryChecker`. */
export const glossaryFindings = (cue: GlossaryCue, terms: readonly GlossaryTermInput[]) => glossaryChecker(terms)(cue);
