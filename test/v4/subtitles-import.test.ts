import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { findJob } from "../../src/db/queries/jobs";
import { jobs } from "../../src/db/schema";
import { hmacSha1Hex } from "../../src/lib/signature";
import { SRT_UPLOAD_LIMIT } from "../../src/middleware/body-limit";
import { readSrt } from "../../src/domain/subtitles/srt";

const readSrtCues = (text: string) => readSrt(text).cues;
import { api, createApplication, db, errorBody, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { insertSegments, makeCues, srtOf, waitForJob } from "../helpers/subtitles";

type Signed = Awaited<ReturnType<typeof signedInUser>>;
type JobBody = { job: { id: string; type: string; status: string; progress: number; url: { api: string } } };

let official: Awaited<ReturnType<typeof createApplication>>;
let partner: Awaited<ReturnType<typeof createApplication>>;
let manager: Signed, staff: Signed, other: Signed;
let container: Awaited<ReturnType<typeof createContainer>>;
let videoId: string;
let pendingId: string;

beforeAll(async () => {
  official = await createApplication({ official: true, secret: "import-secret" });
  partner = await createApplication();
  manager = await signedInUser();
  staff = await signedInUser({ staff: true });
  other = await signedInUser();
  container = await createContainer({ title: "Import routes", managers: [manager.user.id] });
  videoId = (await createVideo(container.id, { number: 1 })).wireId;
  pendingId = (await createVideo(container.id, { number: 2, state: "pending" })).wireId;
});

const SAMPLE = srtOf(makeCues(3, "Bonjour"));
const importPath = (video: string, query = "") => `/v4/videos/${video}/subtitles/import_srt.json?app=${official.wireId}${query}`;
const postRaw = (path: string, body: BodyInit, type = "application/x-subrip") =>
  api(path, { method: "POST", body, headers: { "content-type": type } });

const srtJobCount = async () => (await db().select({ id: jobs.id }).from(jobs).where(eq(jobs.type, "srt-import")).all()).length;

describe("POST /v4/videos/<id>/subtitles/import_srt.json: who may import", () => {
  const body = { language: "fr", content: SAMPLE };

  it("needs an official application", async () => {
    const none = await api(`/v4/videos/${videoId}/subtitles/import_srt.json?token=${manager.token}`, { method: "POST", json: body });
    expect(none.status).toBe(400);
    expect((await errorBody(none)).details?.[0].field).toBe("app");
    const unofficial = await api(`/v4/videos/${videoId}/subtitles/import_srt.json?app=${partner.wireId}&token=${manager.token}`, {
      method: "POST",
      json: body,
    });
    expect(unofficial.status).toBe(403);
    expect((await errorBody(unofficial)).vcode).toBe(5403);
  });

  it("needs a user token (401), of staff or a manager of the video's container (403 otherwise)", async () => {
    const anonymous = await api(importPath(videoId), { method: "POST", json: body });
    expect(anonymous.status).toBe(401);
    expect((await errorBody(anonymous)).vcode).toBe(4500);
    const stranger = await api(importPath(videoId, `&token=${other.token}`), { method: "POST", json: body });
    expect(stranger.status).toBe(403);
    expect((await errorBody(stranger)).vcode).toBe(5403);
    for (const who of [manager, staff]) {
      const res = await api(importPath(videoId, `&token=${who.token}`), { method: "POST", json: body });
      expect(res.status).toBe(202);
    }
  });

  it("404s missing and malformed videos, and hidden ones for users who cannot manage them", async () => {
    for (const id of ["999999999v", "12c", "abc"]) {
      expect((await api(importPath(id, `&token=${staff.token}`), { method: "POST", json: body })).status).toBe(404);
    }
    expect((await api(importPath(pendingId, `&token=${other.token}`), { method: "POST", json: body })).status).toBe(404);
    expect((await api(importPath(pendingId, `&token=${manager.token}`), { method: "POST", json: body })).status).toBe(202);
  });
});

describe("POST /v4/videos/<id>/subtitles/import_srt.json: the upload", () => {
  it("takes JSON {language, content}: the bytes go to R2 first, then the job is queued (202)", async () => {
    const res = await api(importPath(videoId, `&token=${manager.token}`), {
      method: "POST",
      json: {
        language: "pt-br",
        content: "1\n00:00:01,000 --> 00:00:02,000\nOlá\n",
      },
    });
    expect(res.status).toBe(202);
    const { job } = (await res.json()) as JobBody;
    expect(job).toMatchObject({ type: "srt-import", status: "queued", progress: 0 });
    expect(job.url.api).toBe(`https://api.test/v4/jobs/${job.id}.json`);
    const row = (await findJob(db(), Number.parseInt(job.id, 10)))!;
    expect(row.payloadKey).toBe(`imports/${row.id}/upload`);
    expect(row.params).toMatchObject({ videoId: Number.parseInt(videoId, 10), language: "pt-br" });
    expect(row.createdBy).toBe(manager.user.id);
    const object = await env.SUBTITLES.get(row.payloadKey!);
    expect(await object?.text()).toBe("1\n00:00:01,000 --> 00:00:02,000\nOlá\n");
    expect(object?.customMetadata).toEqual({ language: "pt-br", video: videoId, user: manager.id });
    expect((await waitForJob(job.id, manager.token)).status).toBe("succeeded");
  });

  it("takes the raw file with ?language= as application/x-subrip, text/plain or application/octet-stream, byte for byte", async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(SAMPLE)]);
    for (const type of ["application/x-subrip", "text/plain; charset=utf-8", "application/octet-stream"]) {
      const res = await postRaw(importPath(videoId, `&language=de&token=${manager.token}`), bytes, type);
      expect(res.status, type).toBe(202);
      const row = (await findJob(db(), Number.parseInt(((await res.json()) as JobBody).job.id, 10)))!;
      expect(new Uint8Array(await (await env.SUBTITLES.get(row.payloadKey!))!.arrayBuffer())).toEqual(bytes);
    }
  });

  it("keeps a signed raw upload byte for byte (a UTF-16 file survives the signature check)", async () => {
    const text = srtOf([{ startMs: 1000, endMs: 2000, text: "¿Qué tal?" }]);
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) bytes.set([text.charCodeAt(i) & 0xff, text.charCodeAt(i) >> 8], 2 + i * 2);
    const t = Math.floor(Date.now() / 1000);
    const path = `/v4/videos/${videoId}/subtitles/import_srt.json?app=${official.wireId}&language=es&token=${manager.token}&t=${t}`;
    // The client signs the body's bytes as sent (src/lib/signature.ts, signedMessageBytes).
    const sig = await hmacSha1Hex("import-secret", concatBytes(new TextEncoder().encode(path), bytes));
    const res = await postRaw(`${path}&sig=${sig}`, bytes);
    expect(res.status).toBe(202);
    const { job } = (await res.json()) as JobBody;
    const row = (await findJob(db(), Number.parseInt(job.id, 10)))!;
    expect(new Uint8Array(await (await env.SUBTITLES.get(row.payloadKey!))!.arrayBuffer())).toEqual(bytes);
    expect(await waitForJob(job.id, manager.token)).toMatchObject({ status: "succeeded", result: { cues: 1 } });
  });

  it("verifies signatures over the raw bytes: a UTF-8 BOM and CRLF line ends, query and header forms", async () => {
    const text = srtOf([{ startMs: 3000, endMs: 4000, text: "Hola" }]).replaceAll("\n", "\r\n");
    const bytes = concatBytes(new Uint8Array([0xef, 0xbb, 0xbf]), new TextEncoder().encode(text));
    const t = Math.floor(Date.now() / 1000);
    const base = `/v4/videos/${videoId}/subtitles/import_srt.json?app=${official.wireId}&language=es&token=${manager.token}`;
    const querySig = await hmacSha1Hex("import-secret", concatBytes(new TextEncoder().encode(`${base}&t=${t}`), bytes));
    const viaQuery = await postRaw(`${base}&t=${t}&sig=${querySig}`, bytes);
    expect(viaQuery.status).toBe(202);
    const headerSig = await hmacSha1Hex("import-secret", concatBytes(new TextEncoder().encode(`${base}&t=${t}`), bytes));
    const viaHeaders = await api(base, {
      method: "POST",
      body: bytes,
      headers: { "content-type": "application/x-subrip", timestamp: String(t), signature: headerSig },
    });
    expect(viaHeaders.status).toBe(202);
    // The same bytes without their BOM no longer match the signature.
    const tampered = await postRaw(`${base}&t=${t}&sig=${querySig}`, bytes.slice(3));
    expect(tampered.status).toBe(401);
  });

  it("refuses a missing or malformed language with 400 naming language", async () => {
    const cases: Array<() => Promise<Response>> = [
      () => postRaw(importPath(videoId, `&token=${manager.token}`), SAMPLE),
      () => postRaw(importPath(videoId, `&language=fra&token=${manager.token}`), SAMPLE),
      () => api(importPath(videoId, `&token=${manager.token}`), { method: "POST", json: { language: "EN", content: SAMPLE } }),
      () => api(importPath(videoId, `&token=${manager.token}`), { method: "POST", json: { language: "english", content: SAMPLE } }),
      () => api(importPath(videoId, `&token=${manager.token}`), { method: "POST", json: { content: SAMPLE } }),
    ];
    for (const call of cases) {
      const res = await call();
      expect(res.status).toBe(400);
      expect((await errorBody(res)).details?.map((d) => d.field)).toContain("language");
    }
  });

  it("refuses an empty file at once and other content types with 400; ignores unknown fields", async () => {
    const before = await srtJobCount();
    const emptyJson = await api(importPath(videoId, `&token=${manager.token}`), { method: "POST", json: { language: "en", content: "" } });
    expect(emptyJson.status).toBe(400);
    expect((await errorBody(emptyJson)).details?.[0]).toEqual({ field: "content", message: "the file is empty" });
    const emptyRaw = await postRaw(importPath(videoId, `&language=en&token=${manager.token}`), new Uint8Array());
    expect(emptyRaw.status).toBe(400);
    expect((await errorBody(emptyRaw)).details?.[0]).toEqual({ field: "body", message: "the file is empty" });
    const image = await postRaw(importPath(videoId, `&language=en&token=${manager.token}`), SAMPLE, "image/png");
    expect(image.status).toBe(400);
    expect((await errorBody(image)).details?.[0].field).toBe("content-type");
    const notText = await api(importPath(videoId, `&token=${manager.token}`), { method: "POST", json: { language: "en", content: ["1"] } });
    expect(notText.status).toBe(400);
    expect((await errorBody(notText)).details?.[0].field).toBe("content");
    expect(await srtJobCount()).toBe(before);
    // An unknown field of the JSON form is ignored (and named in x-ignored-fields): the upload is queued.
    const extra = await api(importPath(videoId, `&token=${manager.token}`), {
      method: "POST",
      json: { language: "en", content: SAMPLE, style: "bold" },
    });
    expect(extra.status).toBe(202);
    expect(extra.headers.get("x-ignored-fields")).toBe("style");
    const row = (await findJob(db(), Number.parseInt(((await extra.json()) as JobBody).job.id, 10)))!;
    expect(await (await env.SUBTITLES.get(row.payloadKey!))?.text()).toBe(SAMPLE);
    expect(await srtJobCount()).toBe(before + 1);
  });

  it(`accepts files up to ${SRT_UPLOAD_LIMIT} bytes and refuses larger ones with 413 before queuing anything`, async () => {
    const before = await srtJobCount();
    const big = new Uint8Array(SRT_UPLOAD_LIMIT + 1).fill(0x41);
    const res = await postRaw(importPath(videoId, `&language=en&token=${manager.token}`), big);
    expect(res.status).toBe(413);
    expect((await errorBody(res)).vcode).toBe(5413);
    const bigJson = await api(importPath(videoId, `&token=${manager.token}`), {
      method: "POST",
      json: {
        language: "en",
        content: "A".repeat(SRT_UPLOAD_LIMIT),
      },
    });
    expect(bigJson.status).toBe(413);
    expect(await srtJobCount()).toBe(before);
    // Well over the 64 KiB default for JSON bodies, under the upload limit.
    const fits = await postRaw(importPath(videoId, `&language=en&token=${manager.token}`), big.subarray(0, SRT_UPLOAD_LIMIT - 1024));
    expect(fits.status).toBe(202);
    const failed = await waitForJob(((await fits.json()) as JobBody).job.id, manager.token);
    expect(failed).toMatchObject({
      status: "failed",
      error: expect.stringContaining("cue 1 (line 1): not SubRip: expected a cue number or a timing line"),
    });
  });

  it("refuses at once, with a 400 naming the file and the cue limit, an upload that plainly holds more cues", async () => {
    const before = await srtJobCount();
    const at = (n: number) => `${Math.floor(n / 3600)}:${Math.floor(n / 60) % 60}:${n % 60}`;
    const many = Array.from({ length: 48_144 }, (_, n) => `${n + 1}\n${at(n)},500 --> ${at(n + 1)},000\nL\n`).join("\n");
    expect(many.length).toBeLessThan(SRT_UPLOAD_LIMIT);
    const message = "the file holds 48144 cues; a file may hold at most 20000 (cue 20001, at line 80002, is the first past it)";
    const raw = await postRaw(importPath(videoId, `&language=en&token=${manager.token}`), many);
    expect(raw.status).toBe(400);
    expect((await errorBody(raw)).details).toEqual([{ field: "body", message }]);
    const json = await api(importPath(videoId, `&token=${manager.token}`), { method: "POST", json: { language: "en", content: many } });
    expect(json.status).toBe(400);
    expect((await errorBody(json)).details).toEqual([{ field: "content", message }]);
    expect(await srtJobCount()).toBe(before);
    // Arrows that start no cue are not counted: the upload is queued, and its job refuses what it finds.
    const arrows = `1\n00:00:01,000 --> 00:00:02,000\n${"a -> b\n".repeat(25_000)}`;
    const queued = await postRaw(importPath(videoId, `&language=en&token=${manager.token}`), arrows);
    expect(queued.status).toBe(202);
    const job = await waitForJob(((await queued.json()) as JobBody).job.id, manager.token);
    expect(job).toMatchObject({
      status: "failed",
      error: expect.stringContaining("cue 1 (line 2): the cue's text is over 2000 characters"),
    });
  });

  it("a broken file is accepted, then its job fails with the cue and line", async () => {
    const broken = `${srtOf(makeCues(2))}\r\n3\r\n00:00:09,000 --> 00:00:08,000\r\nbackwards\r\n`;
    const res = await postRaw(importPath(videoId, `&language=it&token=${manager.token}`), broken);
    expect(res.status).toBe(202);
    const job = await waitForJob(((await res.json()) as JobBody).job.id, manager.token);
    expect(job).toMatchObject({
      status: "failed",
      error: "invalid SubRip file: cue 3 (line 10): the cue ends before it starts (00:00:09,000 --> 00:00:08,000)",
    });
  });

  it("a Latin-1 file imports in the encoding of its language; bytes that read as no text of that language fail, naming encoding=", async () => {
    const latin1 = new Uint8Array([...new TextEncoder().encode("1\r\n00:00:01,000 --> 00:00:02,000\r\n"), 0x45, 0x74, 0xe9, 0x0d, 0x0a]);
    const res = await postRaw(importPath(videoId, `&language=fr&token=${manager.token}`), latin1);
    expect(res.status).toBe(202);
    const job = await waitForJob(((await res.json()) as JobBody).job.id, manager.token);
    expect(job).toMatchObject({ status: "succeeded", result: { encoding: { name: "windows-1252", source: "language" } } });
    const download = await api(`/v4/videos/${videoId}/subtitles/fr.srt?app=${official.wireId}`);
    expect(await download.text()).toContain("Eté");

    const noise = new Uint8Array([
      ...new TextEncoder().encode("1\r\n00:00:01,000 --> 00:00:02,000\r\n"),
      0xff,
      0xfe,
      0x81,
      0x8d,
      0x0d,
      0x0a,
    ]);
    const bad = await postRaw(importPath(videoId, `&language=ko&token=${manager.token}`), noise);
    const failed = await waitForJob(((await bad.json()) as JobBody).job.id, manager.token);
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/^unreadable text: .*not UTF-8.*encoding=/);
  });
});

type Doc = { subtitle_completions: Record<string, number> };

describe("end to end through the real queue", () => {
  it("an official app's upload appears cue for cue in the .srt download and in the completions", async () => {
    const c = await createContainer({ title: "End to end", managers: [manager.user.id] });
    const video = await createVideo(c.id, { number: 1 });
    // A second normal video with ten untranslated segments weighs the container's percentage.
    const other = await createVideo(c.id, { number: 2 });
    await insertSegments(
      other.id,
      Array.from({ length: 10 }, (_, i) => [i * 1000, i * 1000 + 500] as [number, number]),
    );

    const cues = makeCues(30, "Ligne").map((cue, i) => (i % 7 === 3 ? { ...cue, text: `Deux lignes, été ${i}\n— et « la suite »` } : cue));
    const res = await postRaw(importPath(video.wireId, `&language=fr&token=${manager.token}`), srtOf(cues));
    expect(res.status).toBe(202);
    const job = await waitForJob(((await res.json()) as JobBody).job.id, manager.token);
    expect(job).toMatchObject({
      status: "succeeded",
      progress: 100,
      result: { cues: 30, created: 30, updated: 0, unchanged: 0, unmatched: 0, segments_created: 30 },
    });

    const download = await api(`/v4/videos/${video.wireId}/subtitles/fr.srt?app=${official.wireId}`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/x-subrip; charset=utf-8");
    const back = readSrtCues(await download.text()).map(({ startMs, endMs, text }) => ({ startMs, endMs, text }));
    expect(back).toEqual(cues);

    const completion = await waitForJob(String(job.result?.completion_job), manager.token);
    expect(completion).toMatchObject({ type: "completion", status: "succeeded" });
    const videoDoc = (await (await api(`/v4/videos/${video.wireId}.json`)).json()) as Doc;
    expect(videoDoc.subtitle_completions).toEqual({ fr: 100 });
    const containerDoc = (await (await api(`/v4/containers/${c.wireId}.json`)).json()) as Doc;
    expect(containerDoc.subtitle_completions).toEqual({ fr: 75 }); // 30 of 40 segments

    // A second file updates texts on the same segments; the cached download follows.
    const revised = cues.map((cue, i) => (i < 5 ? { ...cue, startMs: cue.startMs + 120, text: `${cue.text} (revu)` } : cue));
    const again = await api(importPath(video.wireId, `&token=${manager.token}`), {
      method: "POST",
      json: { language: "fr", content: srtOf(revised) },
    });
    const second = await waitForJob(((await again.json()) as JobBody).job.id, manager.token);
    expect(second.result).toMatchObject({
      cues: 30,
      created: 0,
      updated: 5,
      unchanged: 25,
      unmatched: 0,
      segments_created: 0,
      mode: "match",
    });
    const after = readSrtCues(await (await api(`/v4/videos/${video.wireId}/subtitles/fr.srt?app=${official.wireId}`)).text());
    expect(after.map((c) => c.text)).toEqual(revised.map((c) => c.text));
    expect(after.map((c) => c.startMs)).toEqual(cues.map((c) => c.startMs)); // timing stays the segments'
  });
});

describe("speed", () => {
  it("imports a 2,000-cue file end to end (POST to job succeeded)", async () => {
    const c = await createContainer({ title: "Speed import", managers: [manager.user.id] });
    const video = await createVideo(c.id, { number: 1 });
    const cues = makeCues(2000, "Cue text number");
    const content = srtOf(cues);
    const started = performance.now();
    const res = await postRaw(importPath(video.wireId, `&language=en&token=${manager.token}`), content);
    expect(res.status).toBe(202);
    const job = await waitForJob(((await res.json()) as JobBody).job.id, manager.token, 60_000);
    const elapsed = performance.now() - started;
    expect(job).toMatchObject({ status: "succeeded", result: { cues: 2000, created: 2000, segments_created: 2000 } });
    console.log(
      JSON.stringify({ bench: "srt-import-2000", bytes: content.length, ms: Math.round(elapsed), rows_written: job.result?.rows_written }),
    );
    const download = await api(`/v4/videos/${video.wireId}/subtitles/en.srt?app=${official.wireId}`);
    expect(readSrtCues(await download.text())).toHaveLength(2000);
  });
});

function concatBytes(a: Uint8Array, b: Uint8Array) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
