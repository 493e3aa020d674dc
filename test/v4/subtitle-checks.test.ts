// Quality checks where they show (docs/api.md, "Quality checks"): the import's report, the cue edit's answer,
// GET .../subtitle_tracks/<lang>/checks.json and `checks_passing` in subtitle_tracks.json, kept by every writer.
import { and, eq } from "drizzle-orm";
import { trackChecks } from "../../src/db/shard-schema";
import { api } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { describe, expect, test, type Signed } from "../helpers/fixtures";
import { videoShard } from "../helpers/localisation";
import { cuesOf, importSrt, insertSegments } from "../helpers/subtitles";
import { waitForJob } from "../helpers/jobs";

/**
 * Five English cues: 1 ends 50 ms before 2 (small_gap), 2 lasts 0.45 s (short_duration), 3 reads at 40 characters a
 * second (fast_reading), 4 passes, 5 lasts 8 s (long_duration).
 */
const CUES = cuesOf([
  [1000, 3000, "Hello there."],
  [3050, 3500, "Short"],
  [5000, 6000, "This line is read far too fast by anyone"],
  [8000, 10_000, "Fine."],
  [11_000, 19_000, "Long"],
]);
const FINDINGS = [
  { rule: "small_gap", start_ms: 1000, end_ms: 3000, text: "Hello there.", value: 50, limit: 83.33 },
  { rule: "short_duration", start_ms: 3050, end_ms: 3500, text: "Short", value: 450, limit: 833.33 },
  { rule: "fast_reading", start_ms: 5000, end_ms: 6000, text: "This line is read far too fast by anyone", value: 40, limit: 20 },
  { rule: "long_duration", start_ms: 11_000, end_ms: 19_000, text: "Long", value: 8000, limit: 7000 },
];

async function importedVideo(manager: Signed, officialApp: string) {
  const container = await createContainer({ title: `Checks ${crypto.randomUUID()}`, managers: [manager.user.id] });
  const video = await createVideo(container.id);
  const result = await importSrt({ app: officialApp, token: manager.token }, video, CUES, "en");
  return { video, result: result as unknown as { quality: Record<string, unknown> } };
}

const tracksOf = (app: string, video: { wireId: string }) => api(`/v4/videos/${video.wireId}/subtitle_tracks.json`, { app });
async function passing(app: string, video: { wireId: string }) {
  const body = (await (await tracksOf(app, video)).json()) as { tracks: Array<{ language: string; checks_passing: number | null }> };
  return Object.fromEntries(body.tracks.map((t) => [t.language, t.checks_passing]));
}
const checks = (app: string, video: { wireId: string }, query: Record<string, string> = {}, language = "en") =>
  api(`/v4/videos/${video.wireId}/subtitle_tracks/${language}/checks.json`, { app, query });

describe("quality checks of a track", () => {
  test("the import reports them by the track's language and stores them: checks.json and checks_passing", async ({ user, officialApp }) => {
    const { video, result } = await importedVideo(user, officialApp);
    expect(result.quality).toMatchObject({
      fast_reading: { count: 1, cues: [3] },
      long_lines: { count: 0, cues: [] },
      many_lines: { count: 0, cues: [] },
      short_duration: { count: 1, cues: [2] },
      long_duration: { count: 1, cues: [5] },
      small_gap: { count: 1, cues: [1] },
    });
    // One cue of five passes every check.
    expect(await passing(officialApp, video)).toEqual({ en: 20 });

    const all = await checks(officialApp, video);
    expect(all.status).toBe(200);
    expect(await all.json()).toEqual({ more: false, response: FINDINGS });

    const first = await checks(officialApp, video, { per_page: "2", with_paging: "true" });
    expect(await first.json()).toEqual({
      more: true,
      response: FINDINGS.slice(0, 2),
      count: 4,
      pagination: { previous: null, next: expect.stringContaining("page=2") },
    });
    const second = await checks(officialApp, video, { per_page: "2", page: "2" });
    expect(await second.json()).toEqual({ more: false, response: FINDINGS.slice(2) });

    const fast = await checks(officialApp, video, { rule: "fast_reading" });
    expect(await fast.json()).toEqual({ more: false, response: [FINDINGS[2]] });
    const ids = await checks(officialApp, video, { only_ids: "true" });
    expect(await ids.json()).toEqual({
      more: false,
      response: ["1000:small_gap", "3050:short_duration", "5000:fast_reading", "11000:long_duration"],
    });
    // A language without cues has no finding.
    expect(await (await checks(officialApp, video, {}, "fr")).json()).toEqual({ more: false, response: [] });
  });

  test("a cue edit answers the cue's findings and keeps checks_passing right, the neighbour's gap included", async ({
    user,
    otherUser,
    officialApp,
  }) => {
    const { video } = await importedVideo(user, officialApp);
    const edit = (start: number, text: string, who: Signed = user) =>
      api(`/v4/videos/${video.wireId}/subtitle_tracks/en/cues/${start}.json`, {
        app: officialApp,
        token: who.token,
        method: "PUT",
        json: { text },
      });

    // Another user's write is refused and changes nothing.
    expect((await edit(5000, "Fast no more", otherUser)).status).toBe(403);
    expect(await passing(officialApp, video)).toEqual({ en: 20 });

    // Fixing the fast cue: no finding, two cues of five pass.
    const fixed = await edit(5000, "Fast no more");
    expect(fixed.status).toBe(200);
    expect(await fixed.json()).toMatchObject({ changed: true, checks: [] });
    expect(await passing(officialApp, video)).toEqual({ en: 40 });

    // Breaking the passing one: three lines.
    const broken = await edit(8000, "one\ntwo\nthree");
    expect(await broken.json()).toMatchObject({ changed: true, checks: [{ rule: "many_lines", value: 3, limit: 2 }] });
    expect(await passing(officialApp, video)).toEqual({ en: 20 });

    // The same text again: no change, the findings still answered.
    expect(await (await edit(8000, "one\ntwo\nthree")).json()).toEqual({
      changed: false,
      version: null,
      checks: [{ rule: "many_lines", value: 3, limit: 2 }],
    });

    // A cue written at a segment 50 ms after cue 2 ends: cue 2 now has a small gap to it too (checked again).
    await insertSegments(video.id, [[3550, 4500]]);
    const added = await edit(3550, "Between");
    expect(await added.json()).toMatchObject({ changed: true, checks: [] });
    const second = await checks(officialApp, video, { rule: "small_gap" });
    expect(await second.json()).toEqual({
      more: false,
      response: [FINDINGS[0], { rule: "small_gap", start_ms: 3050, end_ms: 3500, text: "Short", value: 50, limit: 83.33 }],
    });
    // Six cues, passing: 3 (fixed) and the new one.
    expect(await passing(officialApp, video)).toEqual({ en: 33 });

    // Deleting the language: no track, and its counts at zero.
    const deleted = await api(`/v4/videos/${video.wireId}/subtitle_tracks/en.json`, {
      app: officialApp,
      token: user.token,
      method: "DELETE",
    });
    expect(deleted.status).toBe(200);
    expect(await passing(officialApp, video)).toEqual({});
    const { db: shard } = await videoShard(video.id);
    const counts = await shard
      .select({ checked: trackChecks.checked, passing: trackChecks.passing })
      .from(trackChecks)
      .where(and(eq(trackChecks.videoId, video.id), eq(trackChecks.language, "en")));
    expect(counts).toEqual([{ checked: 0, passing: 0 }]);

    // Restoring the import's version checks the track it makes again.
    const restored = await api(`/v4/videos/${video.wireId}/subtitle_tracks/en/versions/1/restore.json`, {
      app: officialApp,
      token: user.token,
      method: "POST",
    });
    expect(restored.status).toBe(201);
    const body = (await restored.json()) as { completion_job?: string };
    if (body.completion_job) await waitForJob(body.completion_job, user.token);
    expect(await passing(officialApp, video)).toEqual({ en: 20 });
  });

  test("hostile input is a 400 naming the field, a hidden video a 404, never a 5xx", async ({ user, otherUser, officialApp }) => {
    const { video } = await importedVideo(user, officialApp);
    for (const [query, field] of [
      [{ rule: "bogus" }, "rule"],
      [{ rule: "fast_reading,small_gap" }, "rule"],
      [{ rule: "" }, "rule"],
    ] as const) {
      const res = await checks(officialApp, video, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(JSON.stringify(await res.json())).toContain(field);
    }
    for (const language of ["EN", "english", "e%27n", "zh-TW-x"]) {
      const res = await api(`/v4/videos/${video.wireId}/subtitle_tracks/${language}/checks.json`, { app: officialApp });
      expect(res.status, language).toBe(400);
    }
    expect((await checks(officialApp, { wireId: "99999999v" })).status).toBe(404);
    // An id that names no video is a 404, as on the track's other reads.
    expect((await checks(officialApp, { wireId: "nonsense" })).status).toBe(404);
    // Repeated and unreadable parameters: the last of a repeated rule is read (docs/decisions.md, "Paging ceiling and
    // repeated parameters"), unreadable paging falls back as on every list.
    const repeated = await api(`/v4/videos/${video.wireId}/subtitle_tracks/en/checks.json?rule=fast_reading&rule=small_gap`, {
      app: officialApp,
    });
    expect(repeated.status).toBe(200);
    expect(await repeated.json()).toEqual({ more: false, response: [FINDINGS[0]] });
    const junk = await checks(officialApp, video, { per_page: "lots", page: "-3" });
    expect(junk.status).toBe(200);
    expect(((await junk.json()) as { response: unknown[] }).response).toEqual(FINDINGS);
    // Pages past the ceiling are refused as on every list.
    expect((await checks(officialApp, video, { page: "100000" })).status).toBe(400);
    // Official applications only, as the track's other reads.
    expect((await api(`/v4/videos/${video.wireId}/subtitle_tracks/en/checks.json`, { token: otherUser.token })).status).toBe(400);

    await api({ path: `/v4/videos/${video.wireId}.json`, json: { state: "pending" } }, { method: "PUT", token: user.token });
    expect((await checks(officialApp, video)).status).toBe(404);
  });
});
