// The glossary rules of the quality checks (docs/api.md, "Quality checks"; docs/decisions.md, "Quality checks"): a
// series' terms found in a ko track and checked in its en track at the same segments, shown in the import's report,
// checks.json and the cue edit's answer, and `checks_passing` kept right by edits, imports and glossary writes.
import { and, desc, eq, sql } from "drizzle-orm";
import { jobs } from "../../src/db/schema";
import { api, db } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { describe, expect, test, type Signed } from "../helpers/fixtures";
import { waitForJob } from "../helpers/jobs";
import { trips } from "../helpers/playback";
import { importSrt, type TestCue } from "../helpers/subtitles";

const span = (i: number) => ({ startMs: 1000 + i * 3000, endMs: 3000 + i * 3000 });
const track = (texts: string[]): TestCue[] => texts.map((text, i) => ({ ...span(i), text }));

/** Korean: the name with three particles, the do_not_translate term, a greeting, a line with no term. */
const KO = ["윤세리가 왔어요", "윤세리는 어디?", "BTS 노래야", "안녕하세요", "좋아요"];
/**
 * English: 1 has the name's translation; 2 lacks it (missing_translation); 3 changes BTS (do_not_translate_changed);
 * 4 holds the forbidden "Miss Yoon" (forbidden_term); 5 passes.
 */
const EN = ["Yoon Se-ri is here.", "Where is Seri?", "It's a bts song.", "Hello, Miss Yoon.", "Good."];

async function glossaryWrite(who: Signed, containerId: number, write: () => Promise<Response>) {
  const res = await write();
  expect(res.status).toBeLessThan(300);
  // The write queued its recheck: the newest subtitle-checks job of the series.
  const [job] = await db()
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.type, "subtitle-checks"), sql`json_extract(${jobs.params}, '$.containerId') = ${containerId}`))
    .orderBy(desc(jobs.id))
    .limit(1);
  expect(job).toBeDefined();
  const done = await waitForJob(`${job.id}j`, who.token);
  expect(done.status, JSON.stringify(done.error)).toBe("succeeded");
  return res;
}

describe("glossary findings in the quality checks", () => {
  test("are reported, listed with their terms, and checks_passing follows every change", async ({ user, otherUser, officialApp }) => {
    const series = await createContainer({ title: `Glossary checks ${crypto.randomUUID()}`, managers: [user.user.id] });
    const addTerm = (json: unknown) =>
      glossaryWrite(user, series.id, () =>
        api(`/v4/containers/${series.wireId}/glossary.json`, { app: officialApp, token: user.token, method: "POST", json }),
      );
    const name = (await (await addTerm({ term: "윤세리", language: "ko", translations: { en: "Yoon Se-ri" } })).json()) as { id: string };
    const bts = (await (await addTerm({ term: "BTS", language: "ko", status: "do_not_translate", case_sensitive: true })).json()) as {
      id: string;
    };
    const missYoon = (await (await addTerm({ term: "Miss Yoon", language: "en", status: "forbidden" })).json()) as { id: string };

    const video = await createVideo(series.id);
    const who = { app: officialApp, token: user.token };
    await importSrt(who, video, track(KO), "ko");
    const imported = (await importSrt(who, video, track(EN), "en")) as unknown as { quality: Record<string, unknown> };
    expect(imported.quality).toMatchObject({
      fast_reading: { count: 0, cues: [] },
      missing_translation: { count: 1, cues: [2] },
      forbidden_term: { count: 1, cues: [4] },
      do_not_translate_changed: { count: 1, cues: [3] },
    });

    const passing = async () => {
      const res = await api(`/v4/videos/${video.wireId}/subtitle_tracks.json`, { app: officialApp });
      const body = (await res.json()) as { tracks: Array<{ language: string; checks_passing: number | null }> };
      return Object.fromEntries(body.tracks.map((t) => [t.language, t.checks_passing]));
    };
    // en: 1 and 5 pass. ko: cue 4's source (the en text) holds the forbidden term.
    expect(await passing()).toEqual({ en: 40, ko: 80 });

    const checks = (query: Record<string, string> = {}, language = "en") =>
      api(`/v4/videos/${video.wireId}/subtitle_tracks/${language}/checks.json`, { app: officialApp, query });
    const finding = (i: number, rule: string, terms: unknown[], texts = EN) => ({
      rule,
      start_ms: span(i).startMs,
      end_ms: span(i).endMs,
      text: texts[i],
      value: null,
      limit: null,
      terms,
    });
    const nameTerm = { id: name.id, term: "윤세리", expected: "Yoon Se-ri" };
    const missYoonTerm = { id: missYoon.id, term: "Miss Yoon", expected: null };
    expect(await (await checks()).json()).toEqual({
      more: false,
      response: [
        finding(1, "missing_translation", [nameTerm]),
        finding(2, "do_not_translate_changed", [{ id: bts.id, term: "BTS", expected: "BTS" }]),
        finding(3, "forbidden_term", [missYoonTerm]),
      ],
    });
    // Still the application's lookup, one catalogue batch (the terms in it) and one shard statement.
    const read = await checks({ rt: crypto.randomUUID() });
    expect(read.status).toBe(200);
    expect(trips(read)).toBe(3);
    expect(await (await checks({ rule: "forbidden_term" }, "ko")).json()).toEqual({
      more: false,
      response: [finding(3, "forbidden_term", [missYoonTerm], KO)],
    });

    const edit = (language: string, i: number, text: string, by: Signed = user) =>
      api(`/v4/videos/${video.wireId}/subtitle_tracks/${language}/cues/${span(i).startMs}.json`, {
        app: officialApp,
        token: by.token,
        method: "PUT",
        json: { text },
      });

    // Another user's edit is refused and changes nothing.
    expect((await edit("en", 1, "Where is Yoon Se-ri?", otherUser)).status).toBe(403);
    // A target edit that adds the translation: no finding, one more cue passes.
    const fixed = await edit("en", 1, "Where is Yoon Se-ri?");
    expect(await fixed.json()).toMatchObject({ changed: true, checks: [] });
    expect(await passing()).toEqual({ en: 60, ko: 80 });

    // A source edit that brings the name into cue 5: its English cue now lacks the translation, in the same batch.
    const source = await edit("ko", 4, "윤세리의 노래 좋아요");
    expect(await source.json()).toMatchObject({ changed: true, checks: [] });
    expect(await passing()).toEqual({ en: 40, ko: 80 });
    expect(await (await checks({ rule: "missing_translation" })).json()).toEqual({
      more: false,
      response: [finding(4, "missing_translation", [nameTerm])],
    });
    // The en cue's own edit answers the finding with its term.
    expect(await (await edit("en", 4, "Good song.")).json()).toMatchObject({
      changed: true,
      checks: [{ rule: "missing_translation", value: null, limit: null, terms: [nameTerm] }],
    });

    // A ko import that takes the name out again: its final recheck covers the en track too.
    await importSrt(who, video, track(KO), "ko");
    expect(await passing()).toEqual({ en: 60, ko: 80 });

    // A term added: the job it queues checks the series' tracks again (en 1 and 2 now hold a forbidden name).
    const forbidden = (await (await addTerm({ term: "Yoon Se-ri", language: "en", status: "forbidden" })).json()) as { id: string };
    expect(await passing()).toEqual({ en: 20, ko: 40 });
    // Deleted: back as before.
    await glossaryWrite(user, series.id, () =>
      api(`/v4/containers/${series.wireId}/glossary/${forbidden.id}.json`, { app: officialApp, token: user.token, method: "DELETE" }),
    );
    expect(await passing()).toEqual({ en: 60, ko: 80 });

    // The ko track deleted: the en cues lose their sources, so only the forbidden "Miss Yoon" (an en term) is left.
    const deleted = await api(`/v4/videos/${video.wireId}/subtitle_tracks/ko.json`, {
      app: officialApp,
      token: user.token,
      method: "DELETE",
    });
    expect(deleted.status).toBeLessThan(300);
    expect(await passing()).toEqual({ en: 80 });
    expect(await (await checks({ only_ids: "true" })).json()).toEqual({ more: false, response: [`${span(3).startMs}:forbidden_term`] });

    // Another series' videos never meet these terms.
    const other = await createContainer({ title: `No glossary ${crypto.randomUUID()}`, managers: [user.user.id] });
    const elsewhere = await createVideo(other.id);
    await importSrt(who, elsewhere, track(KO), "ko");
    const report = (await importSrt(who, elsewhere, track(EN), "en")) as unknown as { quality: Record<string, unknown> };
    expect(report.quality).toMatchObject({
      missing_translation: { count: 0, cues: [] },
      forbidden_term: { count: 0, cues: [] },
      do_not_translate_changed: { count: 0, cues: [] },
    });
    const res = await api(`/v4/videos/${elsewhere.wireId}/subtitle_tracks/en/checks.json`, { app: officialApp });
    expect(await res.json()).toEqual({ more: false, response: [] });
  });
});
