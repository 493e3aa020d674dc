import { GLOSSARY_RULES, glossaryChecker, type GlossaryFinding, type GlossaryRule, type GlossaryTermInput } from "../glossary-match";
import { ruleBit } from "./checks";

/**
 * The glossary rules of a track's cues (docs/decisions.md, "Quality checks"): a cue of track L is the target, and the
 * source is the same segment's text in each language the series' terms are in, other than L (every language of a video
 * shares its segments). A forbidden term of L is looked for in the cue itself, whatever the sources.
 */

/** A text of the same segment in another language. */
export interface SourceText {
  language: string;
  text: string;
}

/** A term a glossary finding is about: `expected` is the translation missing or the term that had to stay as written. */
export interface FindingTerm {
  id: number;
  term: string;
  expected: string | null;
}

/** The findings of one glossary rule on a cue, with every term that broke it. */
export interface GlossaryRuleFinding {
  rule: GlossaryRule;
  terms: FindingTerm[];
}

export interface TrackGlossary {
  /** The term languages other than the track's: the texts a check of the track needs besides its own. */
  sourceLanguages: string[];
  findings(target: string, sources: readonly SourceText[]): GlossaryRuleFinding[];
  mask(target: string, sources: readonly SourceText[]): number;
}

/**
 * The glossary check of a track in `language`, its terms compiled once (`glossaryChecker`), or null for a series with
 * no terms (no rule can be broken, and no other text need be read).
 */
export function trackGlossary(terms: readonly GlossaryTermInput[], language: string): TrackGlossary | null {
  if (!terms.length) return null;
  const own = language.toLowerCase();
  const sourceLanguages = [...new Set(terms.map((t) => t.language.toLowerCase()))].filter((l) => l !== own);
  const wanted = new Set(sourceLanguages);
  const check = glossaryChecker(terms);
  const raw = (target: string, sources: readonly SourceText[]) => {
    const out: GlossaryFinding[] = [];
    const used = sources.filter((s) => wanted.has(s.language.toLowerCase()) && s.text.trim() !== "");
    // No source: the cue is still searched for its own language's forbidden terms.
    for (const s of used.length ? used : [{ language: "", text: "" }])
      out.push(...check({ source: s.text, sourceLanguage: s.language, target, targetLanguage: language }));
    return out;
  };
  return {
    sourceLanguages,
    findings(target, sources) {
      const byRule = new Map<GlossaryRule, Map<number, FindingTerm>>();
      for (const f of raw(target, sources)) {
        const terms = byRule.get(f.rule) ?? new Map<number, FindingTerm>();
        byRule.set(f.rule, terms);
        if (!terms.has(f.termId)) terms.set(f.termId, { id: f.termId, term: f.term, expected: f.expected ?? null });
      }
      return GLOSSARY_RULES.filter((rule) => byRule.has(rule)).map((rule) => ({ rule, terms: [...byRule.get(rule)!.values()] }));
    },
    mask: (target, sources) => raw(target, sources).reduce((mask, f) => mask | ruleBit(f.rule), 0),
  };
}

/** Whether a write to `language` can change the glossary findings of the video's other tracks. */
export const isTermLanguage = (terms: readonly GlossaryTermInput[], language: string) =>
  terms.some((t) => t.language.toLowerCase() === language.toLowerCase());
