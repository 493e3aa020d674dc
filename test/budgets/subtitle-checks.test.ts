// What the quality checks cost on a 2,000-cue track (docs/performance.md, "Quality checks"): checking it whole (the
// Worker's time and the shard's rows), and one page of checks.json, one shard statement whose rows read follow the
// track's size, and the same check with a series' 2,000 glossary terms. `npx vitest run
// test/budgets/subtitle-checks.test.ts` prints the figures.
import { beforeAll, describe, expect, it } from "vitest";
import { emptyStats, instrument } from "../../src/db/client";
import { findJob } from "../../src/db/queries/jobs";
import { glossaryTerms } from "../../src/db/schema";
import { trackFindingsQuery } from "../../src/db/queries/subtitle-checks";
import { createShardDb } from "../../src/db/shards";
import { GLOSSARY_RULES, type GlossaryTermInput } from "../../src/domain/glossary-match";
import { trackGlossary } from "../../src/domain/subtitles/glossary-checks";
import { CHECK_RULES, trackMasks } from "../../src/domain/subtitles/checks";
import { recheckTrack } from "../../src/services/subtitle-checks";
import { api, createApplication, db, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { videoShard } from "../helpers/localisation";
import { deliver, importJob, makeCues, srtOf } from "../helpers/subtitles";

const CUES = 2_000;
/** Rows a whole-track check reads per cue: its subtitle (index entry and row) and its segment. */
const ROWS_READ_PER_CUE = 3;
/**
 * Rows a page of findings reads per cue of the track (its index entry and row), and per cue with a finding (its segment
 * and its walk of the nine rules: 3 measured).
 */
const PAGE_ROWS_PER_CUE = 2;
const PAGE_ROWS_PER_FINDING = 3;
/** A glossary finding reads besides its segment's other languages' cues (an index entry and a row each). */
const PAGE_ROWS_PER_GLOSSARY_FINDING = PAGE_ROWS_PER_FINDING + 2;
const ROWS_READ_MORE = 50;
/** Checking 2,000 cues in the Worker: the median of a few runs, far under a request's CPU. */
const CHECK_MS = 50;
/** The same with a series' 2,000 glossary terms (GLOSSARY_MAX_TERMS) and each cue's Korean source. */
const GLOSSARY_CHECK_MS = 1000;
const TERMS = 2_000;

let video: { id: number; wireId: string };
let official: string;
/** Every tenth cue reads too fast for English (40 characters in 1.5 s): 200 findings. */
const cues = makeCues(CUES, "line").map((c, i) => (i % 10 === 0 ? { ...c, text: "x".repeat(40) } : c));

beforeAll(async () => {
  const manager = await signedInUser();
  official = (await createApplication({ official: true })).wireId;
  const container = await createContainer({ title: "Checks costs", managers: [manager.user.id] });
  video = await createVideo(container.id);
  const job = await importJob(manager.user.id, video.id, "en", srtOf(cues));
  await deliver({ type: "srt-import", jobId: job.id });
  expect((await findJob(db(), job.id))!.status).toBe("succeeded");
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A page of 100 findings of every rule (and one more, to say there are more) of a video's English track, as checks.json reads it. */
async function findingsPage(binding: D1Database, videoId: number, offset: number) {
  const stats = emptyStats();
  const rows = await trackFindingsQuery(createShardDb(instrument(binding, stats)), {
    videoId,
    language: "en",
    mask: (1 << CHECK_RULES.length) - 1,
    rules: CHECK_RULES,
    glossaryRules: GLOSSARY_RULES,
    limit: 101,
    offset,
  });
  return { rows, stats };
}

describe("quality check costs, a 2,000-cue track", () => {
  it("checks the track in the Worker in milliseconds, and a recheck reads each cue once and writes nothing unchanged", async () => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      trackMasks(cues, "en");
      times.push(performance.now() - started);
    }
    const { binding } = await videoShard(video.id);
    const stats = emptyStats();
    const done = await recheckTrack(createShardDb(instrument(binding, stats)), { videoId: video.id, language: "en" });
    expect(done).toMatchObject({ cues: CUES, changed: 0 });
    expect(stats.rowsWritten).toBe(0);
    expect(stats.rowsRead).toBeLessThanOrEqual(ROWS_READ_PER_CUE * CUES + ROWS_READ_MORE);
    console.log(
      JSON.stringify({
        bench: "subtitle-checks",
        cues: CUES,
        check_ms_median: Number(median(times).toFixed(2)),
        recheck_rows_read: stats.rowsRead,
      }),
    );
    expect(median(times)).toBeLessThan(CHECK_MS);
  });

  it("checks the track with 2,000 glossary terms, each cue against its Korean source, in the Worker", async () => {
    const syllables = "가나다라마바사아자차카타파하세리윤준";
    const nameOf = (n: number) => [...String(n).padStart(4, "0")].map((d) => syllables[Number(d) + 4]).join("") + syllables[n % 18];
    const terms: GlossaryTermInput[] = Array.from({ length: TERMS }, (_, i) => ({
      id: i + 1,
      term: nameOf(i),
      language: "ko",
      translations: { en: `Name${i}` },
      status: i % 10 === 0 ? "forbidden" : i % 10 === 1 ? "do_not_translate" : "preferred",
      caseSensitive: false,
    }));
    // Every cue's source holds two names with particles; its English line holds one translation.
    const sources = cues.map((_, i) => [{ language: "ko", text: `${nameOf(i % TERMS)}가 ${nameOf((i * 7) % TERMS)}에게 말했어요` }]);
    const texts = cues.map((c, i) => ({ ...c, text: `${c.text} Name${i % TERMS}` }));
    const times: number[] = [];
    let masks: Array<number | null> = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const glossary = trackGlossary(terms, "en")!;
      masks = trackMasks(texts, "en", undefined, (j) => glossary.mask(texts[j].text, sources[j]));
      times.push(performance.now() - started);
    }
    expect(masks.filter((m) => m !== null && m >= 64).length).toBeGreaterThan(CUES / 2);
    console.log(
      JSON.stringify({ bench: "subtitle-checks-glossary", cues: CUES, terms: TERMS, check_ms_median: Number(median(times).toFixed(2)) }),
    );
    expect(median(times)).toBeLessThan(GLOSSARY_CHECK_MS);
  });

  it("answers a page of checks.json in one shard statement whose rows read follow the track, at any page", async () => {
    const { binding } = await videoShard(video.id);
    const figures = [];
    for (const offset of [0, 150]) {
      const { rows, stats } = await findingsPage(binding, video.id, offset);
      expect(rows.length).toBe(Math.min(101, 200 - offset));
      expect(rows[0].total).toBe(200);
      expect(stats.queries).toBe(1);
      expect(stats.rowsRead).toBeLessThanOrEqual(PAGE_ROWS_PER_CUE * CUES + PAGE_ROWS_PER_FINDING * 200 + ROWS_READ_MORE);
      figures.push({ offset, rows_read: stats.rowsRead });
    }
    console.log(JSON.stringify({ bench: "subtitle-checks-page", cues: CUES, findings: 200, figures }));
    const res = await api(`/v4/videos/${video.wireId}/subtitle_tracks/en/checks.json`, { app: official, query: { per_page: "100" } });
    const body = (await res.json()) as { more: boolean; response: Array<{ rule: string; start_ms: number }> };
    expect(body.more).toBe(true);
    expect(body.response.length).toBe(100);
    expect(body.response[1]).toEqual({
      rule: "fast_reading",
      start_ms: cues[10].startMs,
      end_ms: cues[10].endMs,
      text: "x".repeat(40),
      value: 26.67,
      limit: 20,
    });
  });
});

describe("glossary findings on a 2,000-cue track", () => {
  let translated: { id: number; wireId: string };
  beforeAll(async () => {
    const manager = await signedInUser();
    const container = await createContainer({ title: "Glossary check costs", managers: [manager.user.id] });
    await db()
      .insert(glossaryTerms)
      .values({ containerId: container.id, term: "윤세리", language: "ko", translations: { en: "Yoon Se-ri" } });
    translated = await createVideo(container.id);
    // Every tenth Korean cue names her; no English cue translates it: 200 missing_translation findings.
    const ko = makeCues(CUES, "줄").map((c, i) => (i % 10 === 0 ? { ...c, text: "윤세리가 왔어요" } : c));
    for (const [language, track] of [
      ["ko", ko],
      ["en", makeCues(CUES, "line")],
    ] as const) {
      const job = await importJob(manager.user.id, translated.id, language, srtOf([...track]));
      await deliver({ type: "srt-import", jobId: job.id });
      expect((await findJob(db(), job.id))!.status).toBe("succeeded");
    }
  });

  it("answers a page of them in one shard statement, each finding reading its segment's other texts", async () => {
    const { binding } = await videoShard(translated.id);
    const { rows, stats } = await findingsPage(binding, translated.id, 0);
    expect(rows.length).toBe(101);
    expect(rows[0]).toMatchObject({ rule: "missing_translation", total: 200, sources: JSON.stringify([["ko", "윤세리가 왔어요"]]) });
    expect(stats.queries).toBe(1);
    expect(stats.rowsRead).toBeLessThanOrEqual(PAGE_ROWS_PER_CUE * CUES + PAGE_ROWS_PER_GLOSSARY_FINDING * 200 + ROWS_READ_MORE);
    console.log(JSON.stringify({ bench: "subtitle-checks-glossary-page", cues: CUES, findings: 200, rows_read: stats.rowsRead }));
  });
});
