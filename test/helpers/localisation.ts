import { segments, subtitleHistories, subtitles } from "../../src/db/schema";
import { db } from ".";

/**
 * Segments of a video, one per second (start i*1000, end i*1000+900), with subtitles in the given
 * languages: `texts[language]` is either a count (the first N segments get "<language> <i>") or explicit
 * texts by segment index (null leaves the segment without one).
 */
export async function createSubtitles(
  videoId: number,
  count: number,
  texts: Record<string, number | Array<string | null>>,
  opts: { authorId?: number } = {},
) {
  // D1 allows 100 bound parameters per statement: chunks of 30 segments (3 columns) and 15 subtitles (5).
  const segs: (typeof segments.$inferSelect)[] = [];
  const timings = Array.from({ length: count }, (_, i) => ({ videoId, startMs: i * 1000, endMs: i * 1000 + 900 }));
  for (let i = 0; i < timings.length; i += 30) {
    segs.push(
      ...(await db()
        .insert(segments)
        .values(timings.slice(i, i + 30))
        .returning()),
    );
  }
  const rows = Object.entries(texts).flatMap(([language, spec]) =>
    segs.flatMap((seg, i) => {
      const text = typeof spec === "number" ? (i < spec ? `${language} ${i}` : null) : spec[i];
      return text === null || text === undefined ? [] : [{ segmentId: seg.id, videoId, language, text, authorId: opts.authorId }];
    }),
  );
  const inserted: (typeof subtitles.$inferSelect)[] = [];
  for (let i = 0; i < rows.length; i += 15) {
    inserted.push(
      ...(await db()
        .insert(subtitles)
        .values(rows.slice(i, i + 15))
        .returning()),
    );
  }
  /** The subtitle of segment `i` in `language`. */
  const at = (language: string, i: number) => {
    const s = inserted.find((r) => r.language === language && r.segmentId === segs[i].id);
    if (!s) throw new Error(`no ${language} subtitle at segment ${i}`);
    return { ...s, wireId: `${s.id}s` };
  };
  return { segments: segs, subtitles: inserted, at };
}

/** History rows written directly (the importer writes them in production). */
export async function createHistories(
  rows: Array<{ userId: number; videoId: number; containerId: number; language?: string; text?: string; kind?: "segment" | "subtitle" }>,
) {
  const values = rows.map((r) => ({ kind: r.kind ?? ("subtitle" as const), language: r.language ?? "en", text: r.text ?? "x", ...r }));
  const out: (typeof subtitleHistories.$inferSelect)[] = [];
  for (let i = 0; i < values.length; i += 10) {
    out.push(
      ...(await db()
        .insert(subtitleHistories)
        .values(values.slice(i, i + 10))
        .returning()),
    );
  }
  return out;
}
