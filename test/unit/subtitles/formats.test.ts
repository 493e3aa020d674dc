// The registry of subtitle formats (src/domain/subtitles/formats.ts; docs/decisions.md, "Subtitle formats"): every
// check loops over it, so a new entry is held to the same rules with no edit here.
import { describe, expect, it } from "vitest";
import {
  DETECTION_ORDER,
  FORMATS,
  SUBTITLE_FORMATS,
  UPLOAD_MEDIA_TYPES,
  detectFormat,
  formatName,
} from "../../../src/domain/subtitles/formats";
import { TRACK_EXTENSIONS, mediaTypeOf } from "../../../src/domain/subtitles/write-file";
import { RAW_SUBTITLE_TYPES } from "../../../src/routes/v4/contracts/subtitles";
import { CORPUS } from "../../fixtures/subtitles/corpus/manifest";

const CUES = [
  { startMs: 1000, endMs: 2500, text: "<i>Hello</i>\nthere" },
  { startMs: 3000, endMs: 4000, text: "again" },
];

describe("the registry of subtitle formats", () => {
  it("names each format by a unique id, its first extension, and no extension twice", () => {
    expect(new Set(SUBTITLE_FORMATS).size).toBe(SUBTITLE_FORMATS.length);
    const extensions = SUBTITLE_FORMATS.flatMap((id) => FORMATS[id].extensions);
    expect(new Set(extensions).size).toBe(extensions.length);
    for (const id of SUBTITLE_FORMATS) {
      expect(FORMATS[id].id).toBe(id);
      expect(FORMATS[id].extensions[0]).toBe(id);
      expect(formatName(id)).toBe(FORMATS[id].name);
    }
    expect(formatName("unknown")).toBe("unknown");
  });

  it("derives what the routes accept and answer with: every media type accepted once, downloads in every format", () => {
    expect(RAW_SUBTITLE_TYPES).toBe(UPLOAD_MEDIA_TYPES);
    expect(new Set(UPLOAD_MEDIA_TYPES).size).toBe(UPLOAD_MEDIA_TYPES.length);
    expect(UPLOAD_MEDIA_TYPES).toEqual(expect.arrayContaining(["text/plain", "application/octet-stream"]));
    expect(TRACK_EXTENSIONS).toEqual([...SUBTITLE_FORMATS, "json"]);
    for (const id of SUBTITLE_FORMATS) {
      expect(UPLOAD_MEDIA_TYPES).toEqual(expect.arrayContaining([...FORMATS[id].mediaTypes]));
      expect(mediaTypeOf(id)).toBe(FORMATS[id].mediaTypes[0]);
    }
  });

  it("asks every format, in priority order, the last one taking any text", () => {
    expect([...DETECTION_ORDER].sort()).toEqual([...SUBTITLE_FORMATS].sort());
    const priorities = SUBTITLE_FORMATS.map((id) => FORMATS[id].priority);
    expect(new Set(priorities).size).toBe(priorities.length);
    expect(DETECTION_ORDER.map((id) => FORMATS[id].priority)).toEqual([...priorities].sort((a, b) => a - b));
    const last = DETECTION_ORDER[DETECTION_ORDER.length - 1];
    expect(FORMATS[last].looksLike("something else")).toBe(true);
    expect(detectFormat("something else")).toBe(last);
  });

  it.each(SUBTITLE_FORMATS)("%s: what its writer writes is detected as it and read back", (id) => {
    const text = FORMATS[id].write(CUES, { language: "en" });
    expect(detectFormat(text)).toBe(id);
    expect(FORMATS[id].read(text).cues.map((c) => [c.startMs, c.endMs])).toEqual([
      [1000, 2500],
      [3000, 4000],
    ]);
  });

  it.each(SUBTITLE_FORMATS)("%s: has corpus files, each named by one of its extensions", (id) => {
    // A corpus entry names its file, then how it is sent when not as UTF-8 (`a.srt (UTF-16 LE)`).
    const files = CORPUS.filter((entry) => entry.format === id).map((entry) => entry.file.split(" ")[0]);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(FORMATS[id].extensions).toContain(file.slice(file.lastIndexOf(".") + 1));
  });
});
