// Subtitle versions end to end (docs/decisions.md, "Subtitle versions"): every change of a track (import, edit, deletion,
// restore) makes a version; after each one the track download, the completions, the contributions and the
// subtitles.updated events agree with it, and every version reads back in every format as the track read then. Writes
// refused for bad input, races and large restores: subtitle-versions-edits.test.ts; who may write:
// test/services/access-writes-localisation.test.ts.
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { segments } from "../../src/db/shard-schema";
import { TRACK_EXTENSIONS, type TrackExtension } from "../../src/domain/subtitles/write-file";
import { api, createApplication, errorBody, signedInUser, type ApiInit, type User } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { videoShard } from "../helpers/localisation";
import { completionJobsSince as waitForCompletions, lastJobId } from "../helpers/jobs";
import { importSrt, insertSegments, type TestCue } from "../helpers/subtitles";
import { eventsWhere } from "../webhooks/events-helpers";

type Video = Awaited<ReturnType<typeof createVideo>>;
type Version = {
  number: number;
  cause: string;
  cues: number;
  completion: number;
  hash: string;
  author: string | null;
  app: string | null;
  restored_from: number | null;
  formats: Record<string, string>;
};
type CueRef = { start_ms: number; end_ms: number; text: string };
type Comparison = {
  from: number;
  to: number;
  counts: { added: number; removed: number; retimed: number; changed: number; unchanged: number };
  added: CueRef[];
  removed: CueRef[];
  retimed: Array<{ from: CueRef; to: CueRef }>;
  changed: Array<{ from: CueRef; to: CueRef; edits: Array<{ op: string; text: string }> }>;
  more: boolean;
  pagination: { next: string | null; previous: string | null };
};
type Download = { status: number; etag: string | null; body: string };

let official: string;
let partner: string;
let manager: User;
let other: User;
let staff: User;
let container: Awaited<ReturnType<typeof createContainer>>;
let video: Video;

/** The manager through the official application: the caller of every step. */
const asManager = () => ({ token: manager.token, app: official });
const tracks = (v: Video = video) => `/v4/videos/${v.wireId}/subtitle_tracks`;
const decode = async (res: Response) => new TextDecoder().decode(await res.arrayBuffer());

/** The video's four segments: the first import matches three of them (75 %). */
const SEGMENTS: Array<[number, number]> = [
  [1000, 2500],
  [3000, 4000],
  [5000, 7000],
  [8000, 9000],
];
const V1: TestCue[] = [
  { startMs: 1000, endMs: 2500, text: "Hello there" },
  { startMs: 3000, endMs: 4000, text: "The red fox ran" },
  { startMs: 5000, endMs: 7000, text: "Goodbye" },
];
/** The re-import: one text back as it was, one changed, one the same. */
const V2: TestCue[] = [
  { startMs: 1000, endMs: 2500, text: "Hello there" },
  { startMs: 3000, endMs: 4000, text: "The red fox ran" },
  { startMs: 5000, endMs: 7000, text: "See you soon" },
];

/** Waits for the completion jobs of the video enqueued since `since`, and answers how many there were. */
const completionJobsSince = (since: number, v: Video = video) => waitForCompletions(since, v.id, manager.token);

async function download(path: string, init: ApiInit = {}): Promise<Download> {
  const res = await api(path, { ...asManager(), ...init });
  return { status: res.status, etag: res.headers.get("etag"), body: res.status === 200 ? await decode(res) : "" };
}

/** The track as every format downloads it now. */
async function downloads(language = "en") {
  const all = {} as Record<TrackExtension, Download>;
  for (const ext of TRACK_EXTENSIONS) all[ext] = await download(`${tracks()}/${language}.${ext}`);
  return all;
}

async function versions(language = "en", v: Video = video) {
  const res = await api(`${tracks(v)}/${language}/versions.json`, asManager());
  expect(res.status).toBe(200);
  return ((await res.json()) as { response: Version[] }).response;
}

async function compare(n: number | string, m: number | string, query?: Record<string, string>) {
  const res = await api(`${tracks()}/en/versions/${n}/compare/${m}.json`, { ...asManager(), query });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Comparison;
}

/**
 * What the rest of the API says about the en track: completion (the completions read and the track list), the
 * manager's contributions to the container as [segments, subtitles], and the causes of its subtitles.updated events.
 */
async function observed() {
  const completions = await api("/v4/subtitle_completions.json", { ...asManager(), method: "POST", json: { video_ids: [video.wireId] } });
  expect(completions.status).toBe(200);
  const percent = ((await completions.json()) as Record<string, Record<string, number>>)[video.wireId].en ?? null;
  const list = await api(`${tracks()}.json`, asManager());
  expect(list.status).toBe(200);
  const track = ((await list.json()) as { tracks: Array<{ language: string; cues: number; completion: number }> }).tracks.find(
    (t) => t.language === "en",
  );
  const contrib = await api(`/v4/container/${container.wireId}/contributions.json`);
  expect(contrib.status).toBe(200);
  const mine = ((await contrib.json()) as Array<{ user: { id: string }; segments: number; subtitles: number }>).find(
    (c) => c.user.id === manager.id,
  );
  const events = await eventsWhere("subtitles.updated", { video_id: video.wireId, language: "en" });
  return {
    completion: percent,
    track: track ? { cues: track.cues, completion: track.completion } : null,
    contributions: mine ? [mine.segments, mine.subtitles] : null,
    causes: events.map((e) => e.data.cause),
  };
}

/** The downloads made while each version was the track's last, by version number. */
const asDownloaded = new Map<number, Record<TrackExtension, Download>>();
const causes: string[] = [];

/** After a change that made version `number`: the version listed first, and the track downloads it stands for. */
async function expectLatest(expected: Partial<Version> & { number: number }) {
  const [latest] = await versions();
  expect(latest).toMatchObject({ author: manager.id, app: official, ...expected });
  const now = await downloads();
  for (const ext of TRACK_EXTENSIONS) {
    // While a version is the last, the track's ETag is its hash: a client can tell which version it holds.
    if (latest.cues) expect(now[ext], ext).toMatchObject({ status: 200, etag: `"${latest.hash}.${ext}"` });
    else expect(now[ext].status, ext).toBe(404);
  }
  asDownloaded.set(latest.number, now);
  return latest;
}

beforeAll(async () => {
  official = (await createApplication({ official: true })).wireId;
  partner = (await createApplication()).wireId;
  manager = await signedInUser();
  other = await signedInUser();
  staff = await signedInUser({ staff: true });
  container = await createContainer({ title: `Versions ${crypto.randomUUID()}`, managers: [manager.user.id] });
  video = await createVideo(container.id, { number: 1 });
  await insertSegments(video.id, SEGMENTS);
});

describe("a track's life: import, edits, re-import, deletion and restores, each a version", () => {
  it("the first import is version 1; the same content again makes none and announces nothing", async () => {
    expect((await importSrt(asManager(), video, V1)).version).toBe(1);
    const v1 = await expectLatest({ number: 1, cause: "import", cues: 3, completion: 75, restored_from: null });
    expect(Object.keys(v1.formats)).toEqual([...TRACK_EXTENSIONS]);
    expect(v1.formats.srt).toMatch(new RegExp(`/v4/videos/${video.wireId}/subtitle_tracks/en/versions/1\\.srt$`));
    causes.push("import");
    expect(await observed()).toEqual({ completion: 75, track: { cues: 3, completion: 75 }, contributions: [0, 3], causes });

    expect((await importSrt(asManager(), video, V1)).version).toBe(1);
    expect((await versions()).map((v) => v.number)).toEqual([1]);
    expect(await observed()).toEqual({ completion: 75, track: { cues: 3, completion: 75 }, contributions: [0, 3], causes });
  });

  it("an edit of a cue's text is a version and enqueues a completion job; the same text is no change", async () => {
    const since = await lastJobId();
    const res = await api(`${tracks()}/en/cues/3000.json`, { ...asManager(), method: "PUT", json: { text: "The blue cat ran" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ changed: true, version: { number: 2, cause: "edit" } });
    expect(await completionJobsSince(since)).toBe(1);
    await expectLatest({ number: 2, cause: "edit", cues: 3, completion: 75 });
    causes.push("edit");
    expect(await observed()).toEqual({ completion: 75, track: { cues: 3, completion: 75 }, contributions: [0, 4], causes });

    const again = await lastJobId();
    const same = await api(`${tracks()}/en/cues/3000.json`, { ...asManager(), method: "PUT", json: { text: "The blue cat ran" } });
    expect(same.status).toBe(200);
    expect(await same.json()).toEqual({ changed: false, version: null, checks: [] });
    expect(await completionJobsSince(again)).toBe(0);
    expect((await versions()).map((v) => v.number)).toEqual([2, 1]);
    expect(await observed()).toEqual({ completion: 75, track: { cues: 3, completion: 75 }, contributions: [0, 4], causes });
  });

  it("an edit at a segment without text adds a cue and raises the completion", async () => {
    const since = await lastJobId();
    const res = await api(`${tracks()}/en/cues/8000.json`, { ...asManager(), method: "PUT", json: { text: "A new line" } });
    expect(res.status).toBe(200);
    expect(await completionJobsSince(since)).toBe(1);
    await expectLatest({ number: 3, cause: "edit", cues: 4, completion: 100 });
    causes.push("edit");
    expect(await observed()).toEqual({ completion: 100, track: { cues: 4, completion: 100 }, contributions: [0, 5], causes });
  });

  it("a re-import with changed content is a version; the cue it does not name keeps its text", async () => {
    expect((await importSrt(asManager(), video, V2)).version).toBe(4);
    await expectLatest({ number: 4, cause: "import", cues: 4, completion: 100 });
    expect(asDownloaded.get(4)!.srt.body).toContain("See you soon");
    expect(asDownloaded.get(4)!.srt.body).toContain("A new line");
    causes.push("import");
    // Two texts changed (3000 back to the red fox, 5000): two subtitle contributions.
    expect(await observed()).toEqual({ completion: 100, track: { cues: 4, completion: 100 }, contributions: [0, 7], causes });
  });

  it("a version records the segments' times as they are: a retimed segment shows in the next version", async () => {
    // Timings are the video's, shared by every language, and change outside the track's writers (a timing tool):
    // written here on the container's shard. The edit of another cue records the track as it then is.
    await (
      await videoShard(video.id)
    ).db
      .update(segments)
      .set({ endMs: 7500 })
      .where(and(eq(segments.videoId, video.id), eq(segments.startMs, 5000)));
    const since = await lastJobId();
    const res = await api(`${tracks()}/en/cues/1000.json`, { ...asManager(), method: "PUT", json: { text: "Hello there!" } });
    expect(res.status).toBe(200);
    expect(await completionJobsSince(since)).toBe(1);
    await expectLatest({ number: 5, cause: "edit", cues: 4, completion: 100 });
    expect(asDownloaded.get(5)!.srt.body).toContain("00:00:05,000 --> 00:00:07,500");
    causes.push("edit");
    expect(await observed()).toEqual({ completion: 100, track: { cues: 4, completion: 100 }, contributions: [0, 8], causes });
  });

  it("deleting the language is a version without cues; the track and its completion are gone; a second delete 404s", async () => {
    const since = await lastJobId();
    const res = await api(`${tracks()}/en.json`, { ...asManager(), method: "DELETE" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ version: { number: 6, cause: "deletion", cues: 0, completion: 0 } });
    expect(await completionJobsSince(since)).toBe(1);
    await expectLatest({ number: 6, cause: "deletion", cues: 0, completion: 0 });
    causes.push("deletion");
    // A language without text has no completion left (the recompute deletes it).
    expect(await observed()).toEqual({ completion: null, track: null, contributions: [0, 8], causes });

    const again = await api(`${tracks()}/en.json`, { ...asManager(), method: "DELETE" });
    expect(again.status).toBe(404);
    expect((await versions()).map((v) => v.number)).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it("restoring version 1 brings its texts back at the segments' current times; restoring it again changes nothing", async () => {
    const since = await lastJobId();
    const res = await api(`${tracks()}/en/versions/1/restore.json`, { ...asManager(), method: "POST" });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ changed: true, version: { number: 7, cause: "restore", restored_from: 1 } });
    expect(await completionJobsSince(since)).toBe(1);
    const v7 = await expectLatest({ number: 7, cause: "restore", cues: 3, completion: 75, restored_from: 1 });
    const srt = asDownloaded.get(7)!.srt.body;
    for (const text of ["Hello there\r\n", "The red fox ran", "Goodbye"]) expect(srt).toContain(text);
    expect(srt).not.toContain("A new line");
    expect(srt).toContain("00:00:05,000 --> 00:00:07,500");
    // Version 1's texts, but not its times: another content hash.
    expect(v7.hash).not.toBe((await versions()).find((v) => v.number === 1)!.hash);
    causes.push("restore");
    // The three texts written again are three subtitle contributions.
    expect(await observed()).toEqual({ completion: 75, track: { cues: 3, completion: 75 }, contributions: [0, 11], causes });

    const noop = await lastJobId();
    const again = await api(`${tracks()}/en/versions/1/restore.json`, { ...asManager(), method: "POST" });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ changed: false, version: { number: 7 } });
    expect(await completionJobsSince(noop)).toBeLessThanOrEqual(1);
    expect(await observed()).toEqual({ completion: 75, track: { cues: 3, completion: 75 }, contributions: [0, 11], causes });
  });

  it("restoring an edit's version brings back its added cue; restoring the deletion's version deletes", async () => {
    const since = await lastJobId();
    const res = await api(`${tracks()}/en/versions/3/restore.json`, { ...asManager(), method: "POST" });
    expect(res.status).toBe(201);
    expect(await completionJobsSince(since)).toBe(1);
    await expectLatest({ number: 8, cause: "restore", cues: 4, completion: 100, restored_from: 3 });
    expect(asDownloaded.get(8)!.srt.body).toContain("The blue cat ran");
    expect(asDownloaded.get(8)!.srt.body).toContain("A new line");
    causes.push("restore");
    // 3000 changed back to the blue cat, 8000 written again.
    expect(await observed()).toEqual({ completion: 100, track: { cues: 4, completion: 100 }, contributions: [0, 13], causes });

    const gone = await api(`${tracks()}/en/versions/6/restore.json`, { ...asManager(), method: "POST" });
    expect(gone.status).toBe(201);
    expect(await completionJobsSince(since)).toBe(2);
    await expectLatest({ number: 9, cause: "restore", cues: 0, completion: 0, restored_from: 6 });
    causes.push("restore");
    expect(await observed()).toEqual({ completion: null, track: null, contributions: [0, 13], causes });

    const back = await api(`${tracks()}/en/versions/8/restore.json`, { ...asManager(), method: "POST" });
    expect(back.status).toBe(201);
    const v10 = await expectLatest({ number: 10, cause: "restore", cues: 4, completion: 100, restored_from: 8 });
    expect(v10.hash).toBe((await versions()).find((v) => v.number === 8)!.hash);
    causes.push("restore");
    expect(await completionJobsSince(since)).toBe(3);
    expect(await observed()).toEqual({ completion: 100, track: { cues: 4, completion: 100 }, contributions: [0, 17], causes });
  });

  it("lists the versions newest first, paged, with their count", async () => {
    const all = await versions();
    expect(all.map((v) => [v.number, v.cause, v.restored_from])).toEqual([
      [10, "restore", 8],
      [9, "restore", 6],
      [8, "restore", 3],
      [7, "restore", 1],
      [6, "deletion", null],
      [5, "edit", null],
      [4, "import", null],
      [3, "edit", null],
      [2, "edit", null],
      [1, "import", null],
    ]);
    const page = await api(`${tracks()}/en/versions.json`, { ...asManager(), query: { per_page: "3", page: "2" } });
    expect(page.status).toBe(200);
    const body = (await page.json()) as { response: Version[]; more: boolean; count?: number };
    expect(body.response.map((v) => v.number)).toEqual([7, 6, 5]);
    expect(body.more).toBe(true);
  });

  it("reads every version in every format as the track downloaded while it was the last, with an ETag that never changes", async () => {
    for (const v of await versions()) {
      const then = asDownloaded.get(v.number)!;
      for (const ext of TRACK_EXTENSIONS) {
        const url = new URL(v.formats[ext]);
        const got = await download(url.pathname);
        expect(got.status, `${v.number}.${ext}`).toBe(200);
        expect(got.etag, `${v.number}.${ext}`).toBe(`"${v.hash}.${ext}"`);
        if (v.cues) expect(got.body, `${v.number}.${ext}`).toBe(then[ext].body);
        else for (const text of ["Hello", "fox", "cat", "Goodbye", "See you", "new line"]) expect(got.body).not.toContain(text);
      }
    }
    const etag = `"${(await versions()).find((v) => v.number === 1)!.hash}.vtt"`;
    const cached = await api(`${tracks()}/en/versions/1.vtt`, { ...asManager(), headers: { "if-none-match": etag } });
    expect(cached.status).toBe(304);
    const shifted = await download(`${tracks()}/en/versions/1.srt`, { query: { offset_ms: "1000" } });
    expect(shifted.body).toContain("00:00:02,000 --> 00:00:03,500");
    expect(shifted.etag).not.toBe(`"${(await versions()).find((v) => v.number === 1)!.hash}.srt"`);
  });

  it("compares any two versions: added, removed, retimed and changed with word edits", async () => {
    const cue = (start_ms: number, end_ms: number, text: string) => ({ start_ms, end_ms, text });
    expect(await compare(1, 2)).toMatchObject({
      counts: { added: 0, removed: 0, retimed: 0, changed: 1, unchanged: 2 },
      changed: [
        {
          from: cue(3000, 4000, "The red fox ran"),
          to: cue(3000, 4000, "The blue cat ran"),
          edits: [
            { op: "equal", text: "The " },
            { op: "delete", text: "red fox" },
            { op: "insert", text: "blue cat" },
            { op: "equal", text: " ran" },
          ],
        },
      ],
    });
    expect(await compare(2, 3)).toMatchObject({
      counts: { added: 1, removed: 0, retimed: 0, changed: 0, unchanged: 3 },
      added: [cue(8000, 9000, "A new line")],
    });
    const reimport = await compare(3, 4);
    expect(reimport.counts).toEqual({ added: 0, removed: 0, retimed: 0, changed: 2, unchanged: 2 });
    expect(reimport.changed.map((c) => [c.from.text, c.to.text])).toEqual([
      ["The blue cat ran", "The red fox ran"],
      ["Goodbye", "See you soon"],
    ]);
    expect(await compare(4, 5)).toMatchObject({
      counts: { added: 0, removed: 0, retimed: 1, changed: 1, unchanged: 2 },
      retimed: [{ from: cue(5000, 7000, "See you soon"), to: cue(5000, 7500, "See you soon") }],
      changed: [{ from: cue(1000, 2500, "Hello there"), to: cue(1000, 2500, "Hello there!") }],
    });
    expect((await compare(5, 6)).counts).toEqual({ added: 0, removed: 4, retimed: 0, changed: 0, unchanged: 0 });
    expect((await compare(6, 7)).counts).toEqual({ added: 3, removed: 0, retimed: 0, changed: 0, unchanged: 0 });
    // The restore of version 1 at the segments' current times, both ways round.
    for (const [n, m] of [
      [1, 7],
      [7, 1],
    ]) {
      const c = await compare(n, m);
      expect(c).toMatchObject({ from: n, to: m, counts: { added: 0, removed: 0, retimed: 1, changed: 0, unchanged: 2 } });
      expect(c.retimed[0].from.end_ms + c.retimed[0].to.end_ms).toBe(7000 + 7500);
    }
    expect((await compare(8, 10)).counts).toEqual({ added: 0, removed: 0, retimed: 0, changed: 0, unchanged: 4 });

    // Each version against the next, both ways: each cue of both sides is accounted for once (every pair is the unit
    // tests' property, test/unit/subtitles/compare.test.ts; through the route, neighbours cover each change).
    const all = await versions();
    const pairs = all.slice(1).flatMap((b, i) => [
      [all[i], b],
      [b, all[i]],
    ]);
    for (const [a, b] of pairs) {
      {
        const c = await compare(a.number, b.number);
        const { added, removed, retimed, changed, unchanged } = c.counts;
        expect(removed + retimed + changed + unchanged, `${a.number}→${b.number}`).toBe(a.cues);
        expect(added + retimed + changed + unchanged, `${a.number}→${b.number}`).toBe(b.cues);
        if (a.hash === b.hash) expect(unchanged).toBe(a.cues);
      }
    }
  });

  it("pages a comparison: per_page=1 gives `more` and a next link without credentials", async () => {
    const seen: CueRef[] = [];
    let page = await compare(5, 6, { per_page: "1" });
    expect(page.pagination.previous).toBeNull();
    for (let n = 1; ; n++) {
      expect(page.counts.removed).toBe(4);
      expect(page.removed).toHaveLength(1);
      seen.push(...page.removed);
      if (n === 4) break;
      expect(page.more).toBe(true);
      const next = new URL(page.pagination.next!);
      expect(next.searchParams.get("page")).toBe(String(n + 1));
      expect(next.searchParams.get("per_page")).toBe("1");
      expect(next.searchParams.has("token")).toBe(false);
      const res = await api(next.pathname + next.search, asManager());
      expect(res.status).toBe(200);
      page = (await res.json()) as Comparison;
      expect(page.pagination.previous).not.toBeNull();
    }
    expect(page.more).toBe(false);
    expect(page.pagination.next).toBeNull();
    expect(seen.map((c) => c.start_ms)).toEqual([1000, 3000, 5000, 8000]);
    const beyond = await compare(5, 6, { per_page: "1", page: "5" });
    expect(beyond).toMatchObject({ more: false, removed: [], counts: { removed: 4 } });
  });
});

describe("reads of versions: who may see the video, and which version is asked for", () => {
  let hidden: Video;
  let second: Video;

  beforeAll(async () => {
    const pending = await createContainer({ title: `Versions hidden ${crypto.randomUUID()}`, managers: [manager.user.id] });
    hidden = await createVideo(pending.id, { number: 1, state: "pending" });
    await importSrt(asManager(), hidden, V1);
    second = await createVideo(container.id, { number: 2 });
    await importSrt(asManager(), second, V1, "fr");
  });

  it("a hidden video's versions are 404 to other users and to no token, readable by its manager and staff", async () => {
    const reads = [
      `${tracks(hidden)}/en/versions.json`,
      `${tracks(hidden)}/en/versions/1.srt`,
      `${tracks(hidden)}/en/versions/1.json`,
      `${tracks(hidden)}/en/versions/1/compare/1.json`,
    ];
    for (const path of reads) {
      const foreign = await api(path, { token: other.token, app: official });
      expect(foreign.status, `${path}, another user`).toBe(404);
      expect((await errorBody(foreign)).vcode).toBe(404);
      expect((await api(path, { app: official })).status, `${path}, no token`).toBe(404);
      expect((await api(path, { token: manager.token, app: official })).status, `${path}, its manager`).toBe(200);
      expect((await api(path, { token: staff.token, app: official })).status, `${path}, staff`).toBe(200);
      expect((await api(path, { token: manager.token, app: partner })).status, `${path}, a partner application`).toBe(403);
      expect((await api(path, { token: manager.token })).status, `${path}, no app=`).toBe(400);
    }
    // A visible video's versions are readable by anyone through the official application.
    expect((await api(`${tracks()}/en/versions.json`, { app: official })).status).toBe(200);
    expect((await api(`${tracks()}/en/versions.json`, { token: other.token, app: official })).status).toBe(200);
  });

  it("a malformed version number is a 400 naming its field", async () => {
    for (const bad of ["0", "-1", "1e99", "abc", "1.5", "01", "9999999999"]) {
      const file = await api(`${tracks()}/en/versions/${bad}.srt`, asManager());
      expect(file.status, `${bad}.srt`).toBe(400);
      expect(
        (await errorBody(file)).details?.map((d) => d.field),
        `${bad}.srt`,
      ).toEqual(["file"]);
      const from = await api(`${tracks()}/en/versions/${bad}/compare/1.json`, asManager());
      expect(from.status, `compare ${bad}`).toBe(400);
      expect((await errorBody(from)).details?.map((d) => d.field)).toEqual(["number"]);
      const to = await api(`${tracks()}/en/versions/1/compare/${bad}.json`, asManager());
      expect(to.status, `compare to ${bad}`).toBe(400);
      expect((await errorBody(to)).details?.map((d) => d.field)).toEqual(["other"]);
    }
    for (const bad of ["1.doc", "1", "1.srt.vtt", "srt"]) {
      const res = await api(`${tracks()}/en/versions/${bad}`, asManager());
      expect(res.status, bad).toBe(400);
      expect(
        (await errorBody(res)).details?.map((d) => d.field),
        bad,
      ).toEqual(["file"]);
    }
  });

  it("a malformed language is a 400 naming `language`", async () => {
    for (const bad of ["EN", "..%2Fx", "english", "e"]) {
      for (const path of [
        `${tracks()}/${bad}/versions.json`,
        `${tracks()}/${bad}/versions/1.srt`,
        `${tracks()}/${bad}/versions/1/compare/2.json`,
      ]) {
        const res = await api(path, asManager());
        expect(res.status, path).toBe(400);
        expect(
          (await errorBody(res)).details?.map((d) => d.field),
          path,
        ).toEqual(["language"]);
      }
    }
  });

  it("an unknown version, or a version of another track, is a 404", async () => {
    const unknown = [
      `${tracks()}/en/versions/99.srt`,
      `${tracks()}/en/versions/99.json`,
      `${tracks()}/en/versions/1/compare/99.json`,
      `${tracks()}/en/versions/99/compare/1.json`,
      // The other language of the video has no versions; the other video's fr track has version 1 only.
      `${tracks()}/fr/versions/1.srt`,
      `${tracks()}/fr/versions/1/compare/1.json`,
      `${tracks(second)}/fr/versions/2.srt`,
      `${tracks(second)}/en/versions/1.srt`,
      `${tracks(second)}/fr/versions/1/compare/2.json`,
      "/v4/videos/999999999v/subtitle_tracks/en/versions/1.srt",
      "/v4/videos/999999999v/subtitle_tracks/en/versions.json",
    ];
    for (const path of unknown) {
      const res = await api(path, asManager());
      expect(res.status, path).toBe(404);
      expect((await errorBody(res)).vcode, path).toBe(404);
    }
    // A track without versions lists none.
    expect(await versions("fr")).toEqual([]);
    expect((await versions("fr", second)).map((v) => v.number)).toEqual([1]);
  });
});
