// The project's subtitle corpus (test/fixtures/subtitles/corpus) through the real import route and queue consumer:
// each file stored as its manifest says or refused naming cue and line, then every track format written from what
// was stored and read back. The legacy-encoding fixtures go the same way, each with its language.
import { beforeAll, describe, expect, it } from "vitest";
import { FORMATS, SUBTITLE_FORMATS, type SubtitleFormat } from "../../src/domain/subtitles/formats";
import { readSrt } from "../../src/domain/subtitles/srt";
import { CORPUS, type CorpusCue, type CorpusEntry } from "../fixtures/subtitles/corpus/manifest";
import { ENCODING_FIXTURES } from "../fixtures/subtitles/encodings";
import { api, createApplication, errorBody, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { waitForJob, type JobWire } from "../helpers/jobs";
import { comparable, expectedText, readBackTimes } from "../unit/subtitles/format-expectations";

let official: string;
let manager: Awaited<ReturnType<typeof signedInUser>>;
let containerId: number;

const utf8 = (s: string) => new TextEncoder().encode(s);

/** UTF-16 with its byte order mark, as Windows editors save "Unicode". */
function utf16(s: string, littleEndian: boolean): Uint8Array {
  const out = new Uint8Array((s.length + 1) * 2);
  const view = new DataView(out.buffer);
  view.setUint16(0, 0xfeff, littleEndian);
  for (let i = 0; i < s.length; i++) view.setUint16(2 + i * 2, s.charCodeAt(i), littleEndian);
  return out;
}

function bytesOf(entry: CorpusEntry): Uint8Array {
  if (entry.bytes === "utf-16le" || entry.bytes === "utf-16be") return utf16(entry.text, entry.bytes === "utf-16le");
  const body = utf8(entry.text);
  return entry.bytes === "utf-8-bom" ? new Uint8Array([0xef, 0xbb, 0xbf, ...body]) : body;
}

/** Each upload names its type differently, as clients do: generic text, generic bytes, or the format's own type. */
const contentType = (n: number, format: SubtitleFormat) => ["text/plain", "application/octet-stream", FORMATS[format].mediaTypes[0]][n % 3];

interface Outcome {
  videoWireId: string;
  status: number;
  body: unknown;
  job?: JobWire;
}

async function importFile(bytes: Uint8Array, language: string, type: string): Promise<Outcome> {
  const video = await createVideo(containerId);
  const res = await api(
    `/v4/videos/${video.wireId}/subtitles/import_srt.json?app=${official}&language=${language}&token=${manager.token}`,
    {
      method: "POST",
      body: bytes,
      headers: { "content-type": type },
    },
  );
  if (res.status !== 202) return { videoWireId: video.wireId, status: res.status, body: await errorBody(res) };
  const { job } = (await res.json()) as { job: { id: string } };
  const done = await waitForJob(job.id, manager.token);
  // The completion job the import queued is waited for too, so none is left running into the next test file.
  if (done.status === "succeeded") await waitForJob((done.result as { completion_job: string }).completion_job, manager.token);
  return { videoWireId: video.wireId, status: 202, body: null, job: done };
}

/** Runs the imports eight at a time: the queue consumer takes batches of ten. */
async function inBatches<T, R>(items: readonly T[], run: (item: T, n: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let from = 0; from < items.length; from += 8)
    out.push(...(await Promise.all(items.slice(from, from + 8).map((item, k) => run(item, from + k)))));
  return out;
}

const outcomes = new Map<string, Outcome>();
const encodingOutcomes = new Map<string, Outcome>();

beforeAll(async () => {
  official = (await createApplication({ official: true })).wireId;
  manager = await signedInUser();
  containerId = (await createContainer({ title: "Corpus", managers: [manager.user.id] })).id;
  const results = await inBatches(CORPUS, (entry, n) => importFile(bytesOf(entry), entry.language, contentType(n, entry.format)));
  CORPUS.forEach((entry, n) => outcomes.set(entry.file, results[n]));
  const legacy = await inBatches(ENCODING_FIXTURES, (f, n) =>
    importFile(
      Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0)),
      f.language,
      n % 2 ? "application/octet-stream" : "application/x-subrip",
    ),
  );
  ENCODING_FIXTURES.forEach((f, n) => encodingOutcomes.set(f.name, legacy[n]));
}, 60_000);

const trackUrl = (videoWireId: string, language: string, ext: string) =>
  `/v4/videos/${videoWireId}/subtitle_tracks/${language}.${ext}?app=${official}`;

async function storedCues(videoWireId: string, language: string): Promise<CorpusCue[]> {
  const res = await api(trackUrl(videoWireId, language, "json"));
  expect(res.status).toBe(200);
  const { cues } = (await res.json()) as { cues: Array<{ start_ms: number; end_ms: number; text: string }> };
  return cues.map((c) => [c.start_ms, c.end_ms, c.text]);
}

describe("the subtitle corpus, imported through the route", () => {
  for (const [n, entry] of CORPUS.entries()) {
    it(`${entry.file}: ${entry.exercises}`, async () => {
      const outcome = outcomes.get(entry.file)!;
      const what = `${entry.file} sent as ${contentType(n, entry.format)}`;
      if ("rejected" in entry.expect) {
        expect(outcome.status, what).toBe(400);
        expect((outcome.body as { details?: unknown[] }).details?.[0], what).toEqual(entry.expect.rejected);
        return;
      }
      const job = outcome.job!;
      if ("error" in entry.expect) {
        expect(job.status, what).toBe("failed");
        expect(job.error, what).toBe(entry.expect.error);
        return;
      }
      expect(job.status, `${what}: ${job.error}`).toBe("succeeded");
      expect(job.result?.format, what).toBe(entry.format);
      const stored = await storedCues(outcome.videoWireId, entry.language);
      expect(stored, what).toEqual(entry.expect.cues);
      expect((job.result?.quality as { skipped?: unknown }).skipped, what).toEqual(entry.expect.skipped ?? { count: 0, blocks: [] });

      for (const ext of SUBTITLE_FORMATS) {
        const res = await api(trackUrl(outcome.videoWireId, entry.language, ext));
        expect(res.status, `${what} as ${ext}`).toBe(200);
        // Decoded by hand: workerd warns when .text() meets a type it does not know as text (application/x-subrip).
        const { cues } = FORMATS[ext].read(new TextDecoder().decode(await res.arrayBuffer()));
        const read = cues.map((c) => [c.startMs, c.endMs, comparable(c.text, ext)]);
        const expected = stored.map(([s, e, text]) => [...readBackTimes(ext, s, e), comparable(expectedText(ext, text), ext)]);
        expect(read, `${what}, downloaded as ${ext} and read back`).toEqual(expected);
      }
    });
  }
});

describe("the legacy-encoding fixtures, imported through the route with their language", () => {
  for (const f of ENCODING_FIXTURES) {
    it(`${f.name}: stored as its expected text`, async () => {
      const { job, videoWireId } = encodingOutcomes.get(f.name)!;
      expect(job?.status, job?.error ?? "").toBe("succeeded");
      expect(job?.result?.encoding).toMatchObject({ name: f.encoding });
      const expected = readSrt(f.expected).cues.map((c): CorpusCue => [c.startMs, c.endMs, c.text]);
      expect(await storedCues(videoWireId, f.language)).toEqual(expected);
    });
  }
});
