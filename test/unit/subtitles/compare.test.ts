import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareTracks, type TrackComparison } from "../../../src/domain/subtitles/compare";
import { MAX_WORD_EDITS, WORD_DIFF_BUDGET, wordEdits, type TextEdit } from "../../../src/domain/subtitles/word-diff";
import type { SnapshotCue } from "../../../src/domain/subtitles/snapshot";
import { fastestAsync } from "../../helpers/timing";

const ref = ([start_ms, end_ms, text]: SnapshotCue) => ({ start_ms, end_ms, text });

const nothingBut = (unchanged: number): TrackComparison => ({ added: [], removed: [], retimed: [], changed: [], unchanged });

/** The old text (equal and deleted pieces) and the new (equal and inserted) a word diff describes. */
const sides = (edits: TextEdit[]) => [
  edits
    .filter((e) => e.op !== "insert")
    .map((e) => e.text)
    .join(""),
  edits
    .filter((e) => e.op !== "delete")
    .map((e) => e.text)
    .join(""),
];

/**
 * Milliseconds `run` takes, read after a timer (a Worker's clock may stand still while its code runs): the fastest of
 * at most three runs (test/helpers/timing.ts).
 */
async function timed(run: () => void): Promise<number> {
  return (await fastestAsync(run, { limitMs: LIMIT_MS })).ms;
}

/** Generous for a 2-core CI machine; locally each case takes a fraction of it (figures printed). */
const LIMIT_MS = 2000;

describe("compareTracks", () => {
  it("finds nothing but unchanged cues in identical tracks, and nothing at all in two empty ones", () => {
    const cues: SnapshotCue[] = [
      [0, 1000, "One"],
      [1000, 2000, "Two"],
      [1000, 2000, "Two"],
      [5000, 5000, ""],
    ];
    expect(
      compareTracks(
        cues,
        cues.map((c) => [...c] as SnapshotCue),
      ),
    ).toEqual(nothingBut(4));
    expect(compareTracks([], [])).toEqual(nothingBut(0));
  });

  it("sorts every cue into its category, each list in time order", () => {
    const from: SnapshotCue[] = [
      [0, 1000, "Hello"],
      [2000, 3000, "The red fox"],
      [4000, 5000, "Moved"],
      [6000, 7000, "Jump"],
      [20_000, 21_000, "Far"],
      [30_000, 32_000, "Shifted and edited"],
      [50_000, 51_000, "Gone"],
      [70_000, 72_000, "barely"],
      [80_000, 81_000, "A"],
      [82_000, 83_000, "B"],
    ];
    const to: SnapshotCue[] = [
      [0, 1000, "Hello"],
      [2000, 3000, "The blue fox"],
      [4500, 5500, "Moved"],
      [12_000, 13_000, "Jump"],
      [30_500, 32_500, "Shifted, edited"],
      [40_000, 41_000, "Far"],
      [60_000, 61_000, "New"],
      [71_500, 73_500, "touch"],
      [80_500, 81_500, "B"],
      [82_500, 83_500, "A"],
    ];
    expect(compareTracks(from, to)).toEqual({
      added: [ref([40_000, 41_000, "Far"]), ref([60_000, 61_000, "New"]), ref([71_500, 73_500, "touch"])],
      removed: [ref([20_000, 21_000, "Far"]), ref([50_000, 51_000, "Gone"]), ref([70_000, 72_000, "barely"])],
      retimed: [
        // Sharing time; then 6 s apart with nothing shared; then two crossing pairs, by their `to` cue.
        { from: ref([4000, 5000, "Moved"]), to: ref([4500, 5500, "Moved"]) },
        { from: ref([6000, 7000, "Jump"]), to: ref([12_000, 13_000, "Jump"]) },
        { from: ref([82_000, 83_000, "B"]), to: ref([80_500, 81_500, "B"]) },
        { from: ref([80_000, 81_000, "A"]), to: ref([82_500, 83_500, "A"]) },
      ],
      changed: [
        {
          from: ref([2000, 3000, "The red fox"]),
          to: ref([2000, 3000, "The blue fox"]),
          edits: [
            { op: "equal", text: "The " },
            { op: "delete", text: "red" },
            { op: "insert", text: "blue" },
            { op: "equal", text: " fox" },
          ],
        },
        {
          from: ref([30_000, 32_000, "Shifted and edited"]),
          to: ref([30_500, 32_500, "Shifted, edited"]),
          edits: [
            { op: "equal", text: "Shifted" },
            { op: "delete", text: " and" },
            { op: "insert", text: "," },
            { op: "equal", text: " edited" },
          ],
        },
      ],
      unchanged: 1,
    });
  });

  it("pairs by times first: a cue at the same times is changed even when its text is elsewhere", () => {
    const result = compareTracks(
      [
        [0, 1000, "A"],
        [1500, 2500, "B"],
      ],
      [[0, 1000, "B"]],
    );
    expect(result.changed.map((c) => [c.from.text, c.to.text])).toEqual([["A", "B"]]);
    expect(result.removed).toEqual([ref([1500, 2500, "B"])]);
    expect(result.retimed).toEqual([]);
  });

  it("pairs equal texts first among cues sharing both times, the rest in order", () => {
    const result = compareTracks(
      [
        [0, 1000, "A"],
        [0, 1000, "B"],
        [0, 1000, "D"],
      ],
      [
        [0, 1000, "B"],
        [0, 1000, "C"],
      ],
    );
    expect(result.unchanged).toBe(1);
    expect(result.changed.map((c) => [c.from.text, c.to.text])).toEqual([["A", "C"]]);
    expect(result.removed).toEqual([ref([0, 1000, "D"])]);
    expect(result.added).toEqual([]);
  });

  it("retimes to an equal text that shares time before a nearer one that does not", () => {
    const result = compareTracks(
      [
        [0, 3000, "Yes"],
        [3500, 3600, "Yes"],
      ],
      [[2900, 3400, "Yes"]],
    );
    expect(result.retimed).toEqual([{ from: ref([0, 3000, "Yes"]), to: ref([2900, 3400, "Yes"]) }]);
    expect(result.removed).toEqual([ref([3500, 3600, "Yes"])]);
  });

  it("retimes within 10 s by start and no further; a changed text that far away is removed and added", () => {
    const result = compareTracks(
      [
        [0, 1000, "Near"],
        [0, 1000, "Text"],
      ],
      [
        [10_000, 11_000, "Near"],
        [5000, 6000, "Text!"],
      ],
    );
    expect(result.retimed).toEqual([{ from: ref([0, 1000, "Near"]), to: ref([10_000, 11_000, "Near"]) }]);
    const beyond = compareTracks([[0, 1000, "Near"]], [[10_001, 11_000, "Near"]]);
    expect(beyond.retimed).toEqual([]);
    expect(beyond.removed).toHaveLength(1);
    expect(beyond.added).toHaveLength(1);
    expect(result.removed).toEqual([ref([0, 1000, "Text"])]);
    expect(result.added).toEqual([ref([5000, 6000, "Text!"])]);
  });

  it("changes by shared time: at least half of the shorter cue, the pair sharing most first", () => {
    const result = compareTracks(
      [
        [0, 1000, "x"],
        [1000, 2000, "y"],
        [5000, 6000, "half"],
        [8000, 9000, "less"],
      ],
      [
        [600, 1600, "z"],
        [5500, 7000, "halved"],
        [8501, 10_000, "lesser"],
      ],
    );
    expect(result.changed.map((c) => [c.from.text, c.to.text])).toEqual([
      ["y", "z"],
      ["half", "halved"],
    ]);
    expect(result.removed.map((c) => c.text)).toEqual(["x", "less"]);
    expect(result.added.map((c) => c.text)).toEqual(["lesser"]);
  });

  it("matches a cue of no duration with one that holds its instant", () => {
    const result = compareTracks(
      [
        [1000, 1000, "a"],
        [4000, 5000, "b"],
      ],
      [
        [500, 1500, "A"],
        [5000, 5000, "B"],
        [7000, 7000, "c"],
      ],
    );
    expect(result.changed.map((c) => [c.from.text, c.to.text])).toEqual([
      ["a", "A"],
      ["b", "B"],
    ]);
    expect(result.added).toEqual([ref([7000, 7000, "c"])]);
    // Two cues that only touch share nothing.
    const touching = compareTracks([[0, 1000, "a"]], [[1000, 2000, "b"]]);
    expect(touching.removed).toHaveLength(1);
    expect(touching.added).toHaveLength(1);
  });

  it("gives the same answer whatever the order of cues sharing a start", () => {
    const from: SnapshotCue[] = [
      [0, 1000, "p"],
      [0, 2000, "q"],
      [0, 3000, "r"],
    ];
    const to: SnapshotCue[] = [
      [100, 1100, "P"],
      [100, 2100, "Q"],
      [100, 3100, "R"],
    ];
    const expected = compareTracks(from, to);
    expect(expected.changed.map((c) => [c.from.text, c.to.text])).toEqual([
      ["p", "P"],
      ["q", "Q"],
      ["r", "R"],
    ]);
    expect(compareTracks([...from].reverse(), [...to].reverse())).toEqual(expected);
  });

  it("counts every cue once: unchanged, paired or left over", () => {
    const cue = fc
      .tuple(fc.nat(20), fc.nat(4), fc.constantFrom("a", "b", "c", "a b", ""))
      .map(([s, d, text]) => [s * 500, s * 500 + d * 500, text] as SnapshotCue);
    const track = fc.array(cue, { maxLength: 25 }).map((cues) => cues.sort((x, y) => x[0] - y[0]));
    fc.assert(
      fc.property(track, track, (from, to) => {
        const r = compareTracks(from, to);
        const pairs = r.retimed.length + r.changed.length;
        expect(r.unchanged + pairs + r.removed.length).toBe(from.length);
        expect(r.unchanged + pairs + r.added.length).toBe(to.length);
        for (const p of r.retimed) expect(p.from.text).toBe(p.to.text);
        for (const p of r.changed) {
          expect(p.from.text).not.toBe(p.to.text);
          expect(sides(p.edits)).toEqual([p.from.text, p.to.text]);
        }
        for (const list of [r.added, r.removed, r.retimed.map((p) => p.to), r.changed.map((p) => p.to)])
          for (let i = 1; i < list.length; i++) expect(list[i].start_ms).toBeGreaterThanOrEqual(list[i - 1].start_ms);
        expect(compareTracks(to, from).unchanged).toBe(r.unchanged);
      }),
      { seed: 20_260_101, numRuns: 300 },
    );
  });
});

describe("wordEdits", () => {
  it("folds the spaces between two changes into one replacement and keeps line breaks", () => {
    expect(wordEdits("The red fox ran", "The blue cat ran")).toEqual([
      { op: "equal", text: "The " },
      { op: "delete", text: "red fox" },
      { op: "insert", text: "blue cat" },
      { op: "equal", text: " ran" },
    ]);
    expect(wordEdits("Hello\nworld", "Goodbye\nall")).toEqual([
      { op: "delete", text: "Hello" },
      { op: "insert", text: "Goodbye" },
      { op: "equal", text: "\n" },
      { op: "delete", text: "world" },
      { op: "insert", text: "all" },
    ]);
    expect(wordEdits("<i>Hi</i>", "<i>Hi there</i>")).toEqual([
      { op: "equal", text: "<i>Hi" },
      { op: "insert", text: " there" },
      { op: "equal", text: "</i>" },
    ]);
    expect(wordEdits("", "new")).toEqual([{ op: "insert", text: "new" }]);
    expect(wordEdits("old", "")).toEqual([{ op: "delete", text: "old" }]);
    expect(wordEdits("same", "same")).toEqual([{ op: "equal", text: "same" }]);
  });

  it("describes both texts exactly, with no empty piece and no two pieces of one kind side by side", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", "é", " ", "  ", "\n", ",", "🎬", "\t", "<i>"), maxLength: 30 });
    fc.assert(
      fc.property(text, text, (before, after) => {
        const edits = wordEdits(before, after);
        expect(sides(edits)).toEqual([before, after]);
        for (let i = 0; i < edits.length; i++) {
          expect(edits[i].text).not.toBe("");
          if (i > 0) expect(edits[i].op).not.toBe(edits[i - 1].op);
          if (i > 0 && edits[i].op === "delete") expect(edits[i - 1].op).toBe("equal");
        }
      }),
      { seed: 20_260_102, numRuns: 500 },
    );
  });

  it(`gives up beyond ${MAX_WORD_EDITS} edited tokens or an exhausted budget: one delete, one insert`, () => {
    const before = "a ".repeat(1000).trim();
    const after = "b ".repeat(1000).trim();
    expect(wordEdits(before, after)).toEqual([
      { op: "delete", text: before },
      { op: "insert", text: after },
    ]);
    const [one, uno] = ["one two three", "uno two tres"];
    const diffed = [
      { op: "delete", text: "one" },
      { op: "insert", text: "uno" },
      { op: "equal", text: " two " },
      { op: "delete", text: "three" },
      { op: "insert", text: "tres" },
    ];
    const replaced = [
      { op: "delete", text: one },
      { op: "insert", text: uno },
    ];
    // The pair needs 4 edits, so it costs (13 + 12) × (4 + 1): with one less, it is replaced (and charged 25 × 4).
    const enough = { left: 125 };
    expect(wordEdits(one, uno, enough)).toEqual(diffed);
    const short = { left: 124 };
    expect(wordEdits(one, uno, short)).toEqual(replaced);
    expect(short.left).toBe(24);
    expect(wordEdits(one, uno, { left: 0 })).toEqual(replaced);
    expect(enough.left).toBe(0);
  });
});

describe("compareTracks on large and pathological tracks", () => {
  const N = 20_000;
  const sentence = (i: number) => `Line ${i}: the quick brown fox jumps\nover the lazy dog`;
  const track = (n: number, cue: (i: number) => SnapshotCue) => Array.from({ length: n }, (_, i) => cue(i));
  const report = (name: string, ms: number) => console.log(`compareTracks ${name}: ${ms.toFixed(0)} ms`);

  it(`compares two ${N}-cue tracks with every text changed in well under the limit`, async () => {
    const from = track(N, (i) => [i * 2000, i * 2000 + 1500, sentence(i)]);
    const to = track(N, (i) => [i * 2000, i * 2000 + 1500, sentence(i).replace("brown", "red").replace("dog", "cat")]);
    let result!: TrackComparison;
    const ms = await timed(() => (result = compareTracks(from, to)));
    report("same times, every text changed", ms);
    expect(result.changed).toHaveLength(N);
    expect(result.changed[N - 1].edits).toEqual([
      { op: "equal", text: `Line ${N - 1}: the quick ` },
      { op: "delete", text: "brown" },
      { op: "insert", text: "red" },
      { op: "equal", text: " fox jumps\nover the lazy " },
      { op: "delete", text: "dog" },
      { op: "insert", text: "cat" },
    ]);
    expect(ms).toBeLessThan(LIMIT_MS);
  });

  it(`compares two ${N}-cue tracks with every cue retimed and changed`, async () => {
    const from = track(N, (i) => [i * 2000, i * 2000 + 1500, sentence(i)]);
    const to = track(N, (i) => [i * 2000 + 300, i * 2000 + 1900, sentence(i) + "!"]);
    let result!: TrackComparison;
    const ms = await timed(() => (result = compareTracks(from, to)));
    report("every cue retimed and changed", ms);
    expect(result.changed).toHaveLength(N);
    expect(result.changed.every((c, i) => c.from.start_ms === i * 2000 && c.to.start_ms === i * 2000 + 300)).toBe(true);
    expect(ms).toBeLessThan(LIMIT_MS);
  });

  it(`compares ${N} cues all at one time, changed at the same times, at other times, and retimed`, async () => {
    const from = track(N, (i) => [0, 1000, `cue ${i}`]);
    let result!: TrackComparison;
    let ms = await timed(
      () =>
        (result = compareTracks(
          from,
          track(N, (i) => [0, 1000, `cue ${i}!`]),
        )),
    );
    report("one time, every text changed", ms);
    expect(result.changed).toHaveLength(N);
    expect(ms).toBeLessThan(LIMIT_MS);

    ms = await timed(
      () =>
        (result = compareTracks(
          from,
          track(N, (i) => [1, 1001, `cue ${i}!`]),
        )),
    );
    report("one time, all shifted by 1 ms and changed", ms);
    expect(result.changed).toHaveLength(N);
    expect(ms).toBeLessThan(LIMIT_MS);

    ms = await timed(
      () =>
        (result = compareTracks(
          track(N, () => [0, 1000, "Hi"]),
          track(N, () => [5, 1005, "Hi"]),
        )),
    );
    report("one time, one text, all retimed", ms);
    expect(result.retimed).toHaveLength(N);
    expect(ms).toBeLessThan(LIMIT_MS);

    // No pair shares enough time: each `to` cue looks at a bounded number of them, never at all N.
    ms = await timed(
      () =>
        (result = compareTracks(
          from,
          track(N, (i) => [600, 100_000, `other ${i}`]),
        )),
    );
    report("one time, none sharing half", ms);
    expect(result.removed).toHaveLength(N);
    expect(result.added).toHaveLength(N);
    expect(ms).toBeLessThan(LIMIT_MS);
  });

  /** Cues of 2,000 characters (the most a cue holds) filling a 2 MB upload, the most a track is imported from. */
  const LONG = 1000;

  it("bounds the word diff of long texts changed everywhere", async () => {
    const unbroken = "x".repeat(2000);
    let result!: TrackComparison;
    let ms = await timed(() => (result = compareTracks([[0, 1000, unbroken]], [[0, 1000, "y".repeat(2000)]])));
    report("one cue of 2,000 unbroken characters, all changed", ms);
    expect(result.changed[0].edits).toEqual([
      { op: "delete", text: unbroken },
      { op: "insert", text: "y".repeat(2000) },
    ]);
    expect(ms).toBeLessThan(LIMIT_MS);

    // 2,000 characters of one-letter words, every word changed: the worst input for Myers' algorithm, in every cue.
    const before = "a ".repeat(1000).trim();
    const after = "b ".repeat(1000).trim();
    ms = await timed(
      () =>
        (result = compareTracks(
          track(LONG, (i) => [i * 2000, i * 2000 + 1500, before]),
          track(LONG, (i) => [i * 2000, i * 2000 + 1500, after]),
        )),
    );
    report(`${LONG} cues of 2,000 characters, every word changed`, ms);
    expect(result.changed).toHaveLength(LONG);
    expect(result.changed.every((c) => c.edits.length === 2)).toBe(true);
    expect(ms).toBeLessThan(LIMIT_MS);

    // A small change in a long text is diffed in its middle only, so every pair keeps its word diff.
    const [older, newer] = ["old", "new"].map((word) => `${"word ".repeat(395)}${word} end`);
    ms = await timed(
      () =>
        (result = compareTracks(
          track(LONG, (i) => [i * 2000, i * 2000 + 1500, older]),
          track(LONG, (i) => [i * 2000, i * 2000 + 1500, newer]),
        )),
    );
    report(`${LONG} cues of 2,000 characters, one word changed`, ms);
    expect(result.changed.every((c) => c.edits.length === 4 && c.edits[1].text === "old" && c.edits[2].text === "new")).toBe(true);
    expect(ms).toBeLessThan(LIMIT_MS);

    // 42 words changed throughout a long text: diffed (84 edits) while the budget lasts, then replaced whole.
    const words = Array.from({ length: 329 }, (_, k) => `w${k}`);
    const spread = words.join(" ");
    const respelled = words.map((w, k) => (k % 8 ? w : w.toUpperCase())).join(" ");
    ms = await timed(
      () =>
        (result = compareTracks(
          track(LONG, (i) => [i * 2000, i * 2000 + 1500, spread]),
          track(LONG, (i) => [i * 2000, i * 2000 + 1500, respelled]),
        )),
    );
    report(`${LONG} cues of ${spread.length} characters, 42 words changed in each`, ms);
    const perPair = (spread.length + respelled.length) * (84 + 1);
    const diffedPairs = Math.floor(WORD_DIFF_BUDGET / perPair);
    expect(diffedPairs).toBeGreaterThan(100);
    expect(diffedPairs).toBeLessThan(LONG);
    expect(result.changed.slice(0, diffedPairs).every((c) => c.edits.length === 42 * 3 - 1)).toBe(true);
    expect(result.changed.slice(diffedPairs).every((c) => c.edits.length === 2)).toBe(true);
    expect(ms).toBeLessThan(LIMIT_MS);
  });
});
