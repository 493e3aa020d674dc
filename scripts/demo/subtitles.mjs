// Localisation: segments, subtitles and their histories (written to their containers' shards, scripts/demo/shards.mjs;
// the completion job's statements then compute their completions, scripts/demo/completions.mjs).

import { LOCALISED, MANAGED } from "./catalogue-data.mjs";
import { DAY, HOUR, capNow } from "./core.mjs";
import { LINES } from "./phrases.mjs";
import { ADMIN, ALICE, BOB, MANAGER } from "./users.mjs";
import { MAIN_TYPE } from "./videos.mjs";

/**
 * Which videos of a localised container are timed: the first few normal main videos and trailers, plus, for a
 * managed container, its pending upload (so its own completion shows while the container's ignores it).
 */
function videosToLocalise(c, own) {
  const main = own.filter((v) => v.state === "normal" && v.type === MAIN_TYPE[c.type]).slice(0, 4);
  const trailers = own.filter((v) => v.state === "normal" && v.type === "trailer");
  const pending = MANAGED.includes(c.id) ? own.filter((v) => v.state === "pending") : [];
  return [...main, ...trailers, ...pending];
}

/**
 * Target completion per language for a container: the origin language is (nearly) complete, English is well
 * along, two to four other languages are partial.
 */
function languagePlan(r, c) {
  const origin = c.origin_language;
  const plan = [{ lang: origin, base: 100, cap: 100 }];
  if (origin !== "en") plan.push({ lang: "en", base: r.chance(0.3) ? 100 : r.int(60, 100), cap: 100 });
  const extras = r.shuffle(["es", "fr", "de", "ko", "ja", "zh"].filter((l) => l !== origin)).slice(0, r.int(2, 4));
  for (const lang of extras) plan.push({ lang, base: r.int(0, 90), cap: 90 });
  return plan;
}

export function defineLocalisation(r, containers, videos) {
  const segments = [];
  const subtitles = [];
  const histories = [];
  let historyId = 0;

  for (const containerId of LOCALISED) {
    const c = containers[containerId - 1];
    const own = videos.filter((v) => v.container_id === c.id);
    const languages = languagePlan(r, c);
    // The manager times their own channels; elsewhere any user may have done it.
    const timer = MANAGED.includes(c.id) ? MANAGER : r.pick([ADMIN, MANAGER, ALICE, BOB]);

    for (const v of videosToLocalise(c, own)) {
      const n = r.int(8, 20);
      const videoSegments = [];
      let t = r.int(2_000, 30_000);
      for (let i = 0; i < n; i++) {
        const length = r.int(1_200, 4_800);
        const seg = {
          id: segments.length + 1,
          video_id: v.id,
          start_ms: t,
          end_ms: t + length,
          author_id: timer,
          created_at: capNow(v.created_at + r.int(1, 10) * DAY),
          line: r.int(0, LINES.length - 1),
        };
        t += length + r.int(200, 8_000); // strictly increasing and never overlapping
        segments.push(seg);
        videoSegments.push(seg);
        histories.push({
          id: ++historyId,
          kind: "segment",
          user_id: timer,
          video_id: v.id,
          container_id: c.id,
          segment_id: seg.id,
          subtitle_id: null,
          language: null,
          text: null,
          version: 1,
          source_key: `seed:seg:${seg.id}`,
          created_at: seg.created_at,
        });
      }

      for (const { lang, base, cap } of languages) {
        // Per-video jitter around the container's level; the origin language is occasionally a little short.
        const percent =
          lang === c.origin_language ? (r.chance(0.15) ? r.int(85, 99) : 100) : Math.max(0, Math.min(cap, base + r.int(-15, 15)));
        const done = Math.round((percent * n) / 100);
        const author = lang === c.origin_language ? timer : r.pick([ALICE, BOB, ALICE, BOB, ADMIN]);
        // Translators work front to back, so the subtitled segments are the first ones.
        for (const seg of videoSegments.slice(0, done)) {
          const created = capNow(seg.created_at + (lang === c.origin_language ? HOUR : r.int(1, 60) * DAY));
          const sub = {
            id: subtitles.length + 1,
            segment_id: seg.id,
            video_id: v.id,
            language: lang,
            text: LINES[seg.line][lang],
            author_id: author,
            version: 1,
            created_at: created,
            updated_at: created,
          };
          subtitles.push(sub);
          histories.push({
            id: ++historyId,
            kind: "subtitle",
            user_id: author,
            video_id: v.id,
            container_id: c.id,
            segment_id: seg.id,
            subtitle_id: sub.id,
            language: lang,
            text: sub.text,
            version: 1,
            source_key: `seed:sub:${sub.id}`,
            created_at: created,
          });
        }
      }
    }
  }
  return { segments: segments.map(({ line, ...row }) => row), subtitles, histories };
}

/**
 * Each subtitle with its quality checks' mask (`checks`), computed by the app's own rules for its track (time order,
 * each cue's next the next with text) and the glossary of its series, whose sources are the same segment's texts in
 * the terms' languages: what the API's writers store (docs/decisions.md, "Quality checks").
 */
export function withChecks(app, { segments, subtitles, videos, glossary }) {
  const segmentOf = new Map(segments.map((s) => [s.id, s]));
  const containerOf = new Map(videos.map((v) => [v.id, v.container_id]));
  const bySegment = Map.groupBy(subtitles, (s) => s.segment_id);
  const tracks = Map.groupBy(subtitles, (s) => `${s.video_id} ${s.language}`);
  const masks = new Map();
  for (const cues of tracks.values()) {
    const { video_id: videoId, language } = cues[0];
    const ordered = [...cues].sort((a, b) => segmentOf.get(a.segment_id).start_ms - segmentOf.get(b.segment_id).start_ms);
    const terms = (glossary.get(containerOf.get(videoId)) ?? []).map((t) => ({
      id: t.id,
      term: t.term,
      language: t.language,
      translations: JSON.parse(t.translations),
      status: t.status,
      caseSensitive: Boolean(t.case_sensitive),
    }));
    const check = app.trackGlossary(terms, language);
    const sources = (sub) => bySegment.get(sub.segment_id).filter((o) => o.language !== language);
    const cuesChecked = ordered.map((s) => ({
      startMs: segmentOf.get(s.segment_id).start_ms,
      endMs: segmentOf.get(s.segment_id).end_ms,
      text: s.text,
    }));
    const found = app.trackMasks(
      cuesChecked,
      language,
      undefined,
      check ? (i) => check.mask(ordered[i].text, sources(ordered[i])) : undefined,
    );
    ordered.forEach((s, i) => masks.set(s.id, found[i]));
  }
  return subtitles.map((s) => ({ ...s, checks: masks.get(s.id) ?? null }));
}
