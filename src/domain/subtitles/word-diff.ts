import { diffWordsWithSpace } from "diff";

/**
 * The word diff of a changed cue's text (docs/decisions.md, "Subtitle versions"): jsdiff's diffWordsWithSpace over the
 * texts' middles, bounded per pair and per comparison so that a pathological track costs a bounded time.
 */

/** A piece of a word diff: the old text is the equal and deleted pieces in order, the new the equal and inserted. */
export interface TextEdit {
  op: "equal" | "insert" | "delete";
  text: string;
}

/** Tokens inserted plus deleted beyond which a pair's word diff gives up (one delete, one insert). */
export const MAX_WORD_EDITS = 100;
/** The word-diff work one comparison may spend, in (old + new length) × (edits + 1) over its pairs. */
export const WORD_DIFF_BUDGET = 40_000_000;

/** Spaces or tabs only (no line break), which a reader would rather see inside a replaced phrase than kept between. */
const SPACES = /^[^\S\r\n]+$/;
const WHITE = /\s/;
const isWhite = (ch: string) => WHITE.test(ch);

/**
 * Where diffWordsWithSpace's tokens of `s` must break: its ends and every change between white space and other text
 * (a token is white space only or none), so text cut there tokenizes as it would whole.
 */
const breaks = (s: string, i: number) => i === 0 || i === s.length || isWhite(s[i - 1]) !== isWhite(s[i]);

/**
 * The word diff of two texts, within the bounds above. The common start and end of the texts (cut where tokens break)
 * are kept without diffing, which makes a small edit in a long text cheap; only the middles are diffed and counted
 * against the budget, and a middle past the bounds is one delete and one insert. Spaces kept between two changes are
 * folded into them, so "red fox" → "blue cat" reads as one replacement, not two with a space kept; spaces then common
 * to both ends of a replacement go back to the text around it. In each run of changes the deletion comes first.
 */
export function wordEdits(before: string, after: string, budget: { left: number } = { left: WORD_DIFF_BUDGET }): TextEdit[] {
  if (before === after) return before ? [{ op: "equal", text: before }] : [];
  let head = 0;
  while (head < before.length && head < after.length && before.charCodeAt(head) === after.charCodeAt(head)) head++;
  while (!(breaks(before, head) && breaks(after, head))) head--;
  let tail = 0;
  const room = Math.min(before.length, after.length) - head;
  while (tail < room && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  while (!(breaks(before, before.length - tail) && breaks(after, after.length - tail))) tail--;
  const oldMiddle = before.slice(head, before.length - tail);
  const newMiddle = after.slice(head, after.length - tail);

  const size = oldMiddle.length + newMiddle.length;
  const maxEditLength = Math.min(MAX_WORD_EDITS, Math.floor(budget.left / size) - 1);
  const diffed = maxEditLength >= 1 ? diffWordsWithSpace(oldMiddle, newMiddle, { maxEditLength }) : undefined;
  let edits = maxEditLength;
  const parts: TextEdit[] = [{ op: "equal", text: before.slice(0, head) }];
  if (diffed) {
    edits = 0;
    for (const p of diffed) {
      if (p.added || p.removed) edits += p.count;
      parts.push({ op: p.added ? "insert" : p.removed ? "delete" : "equal", text: p.value });
    }
  } else parts.push({ op: "delete", text: oldMiddle }, { op: "insert", text: newMiddle });
  parts.push({ op: "equal", text: before.slice(before.length - tail) });
  budget.left -= size * (Math.max(edits, 0) + 1);
  return tidy(parts);
}

/** Folds spaces between changes into them, merges neighbours of one kind and drops empty pieces (see wordEdits). */
function tidy(parts: readonly TextEdit[]): TextEdit[] {
  const out: TextEdit[] = [];
  const keep = (text: string) => {
    const last = out[out.length - 1];
    if (last?.op === "equal") last.text += text;
    else if (text) out.push({ op: "equal", text });
  };
  let deleted = "";
  let inserted = "";
  let carried = "";
  const flush = () => {
    let lead = 0;
    while (lead < deleted.length && lead < inserted.length && deleted[lead] === inserted[lead] && SPACES.test(deleted[lead])) lead++;
    let trail = 0;
    while (
      trail < deleted.length - lead &&
      trail < inserted.length - lead &&
      deleted[deleted.length - 1 - trail] === inserted[inserted.length - 1 - trail] &&
      SPACES.test(inserted[inserted.length - 1 - trail])
    )
      trail++;
    keep(deleted.slice(0, lead));
    if (deleted.length > lead + trail) out.push({ op: "delete", text: deleted.slice(lead, deleted.length - trail) });
    if (inserted.length > lead + trail) out.push({ op: "insert", text: inserted.slice(lead, inserted.length - trail) });
    carried = deleted.slice(deleted.length - trail);
    deleted = inserted = "";
  };
  const changeAt = (k: number) => {
    for (; k < parts.length; k++) if (parts[k].text) return parts[k].op !== "equal";
    return false;
  };
  for (let k = 0; k < parts.length; k++) {
    const { op, text } = parts[k];
    if (!text) continue;
    if (op === "insert") inserted += text;
    else if (op === "delete") deleted += text;
    else if ((deleted || inserted) && SPACES.test(text) && changeAt(k + 1)) {
      deleted += text;
      inserted += text;
    } else {
      if (deleted || inserted) flush();
      keep(carried + text);
      carried = "";
    }
  }
  if (deleted || inserted) flush();
  keep(carried);
  return out;
}
