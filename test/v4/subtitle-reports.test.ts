import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { allocateShardIdsStatement, firstAllocatedId } from "../../src/db/queries/shard-rows";
import { reports, subtitles } from "../../src/db/shard-schema";
import { api, createApplication, errorBody, rowsRead, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { importSrt } from "../helpers/subtitles";
import { createSubtitles } from "../helpers/localisation";
import { shardOf } from "../helpers/shards";
import { expectRefused, expectStatus } from "../helpers/write-authz";

type Signed = Awaited<ReturnType<typeof signedInUser>>;
type Report = {
  id: string;
  subtitle: { id: string; language: string | null; text: string | null; video_id: string | null };
  reporter: { id: string; username: string; url: { api: string } };
  reason: string;
  version: number | null;
  status: string;
  created_at: string;
  resolution: { action: string; by: string | null; at: string | null } | null;
};
type Version = { number: number; cause: string; restored_from: number | null };
type List = { more: boolean; response: Report[]; count?: number };

const RESOLVE = { op: "POST /v4/subtitle_reports/{report_id}/resolve.json" };

let official: string;
let partner: string;
let manager: Signed;
let reporter: Signed;
let other: Signed;
let staff: Signed;
let container: Awaited<ReturnType<typeof createContainer>>;
let video: Awaited<ReturnType<typeof createVideo>>;
let french: Awaited<ReturnType<typeof createVideo>>;

// The container's origin language is ko (createContainer), so ko subtitles are originals: the ones users report.
const V1 = [
  { startMs: 1000, endMs: 2500, text: "Hello there" },
  { startMs: 3000, endMs: 4000, text: "The red fox ran" },
  { startMs: 5000, endMs: 7000, text: "Goodbye" },
];

const track = (v = video) => `/v4/videos/${v.wireId}/subtitle_tracks/ko`;
const listPath = (c = container.wireId) => `/v4/containers/${c}/subtitle_reports.json`;
const resolvePath = (id: string) => `/v4/subtitle_reports/${id}/resolve.json`;

/** The database of the shard that holds the test container's subtitle family (reports live beside their subtitles). */
const shard = async (containerId = container.id) => (await shardOf(containerId)).db;

/** The wire id of the subtitle of `v` in `language` with `text`. */
async function subtitleWithText(v: typeof video, text: string, language = "ko") {
  const [row] = await (
    await shard()
  )
    .select()
    .from(subtitles)
    .where(and(eq(subtitles.videoId, v.id), eq(subtitles.language, language), eq(subtitles.text, text)));
  return `${row.id}s`;
}

async function report(who: Signed, subtitle: string, reason = "wrong") {
  return api(`/v4/tranlslations/${subtitle}/report.json`, { method: "POST", app: partner, token: who.token, json: { reason } });
}

/** Reports `subtitle` as `who` and answers the report's wire id, read back from the table. */
async function reported(who: Signed, subtitle: string, reason = "wrong") {
  await expectStatus(await report(who, subtitle, reason), "the report", 201);
  const [row] = await (
    await shard()
  )
    .select()
    .from(reports)
    .where(and(eq(reports.subtitleId, Number.parseInt(subtitle, 10)), eq(reports.userId, who.user.id)));
  return `${row.id}r`;
}

async function list(query: Record<string, string> = {}, who = manager) {
  const res = await api(listPath(), { app: official, token: who.token, query });
  await expectStatus(res, `the list ${JSON.stringify(query)}`, 200);
  return (await res.json()) as List;
}

const ids = (l: List) => l.response.map((r) => r.id);

async function resolve(id: string, action: string, who = manager) {
  return api(resolvePath(id), { method: "POST", app: official, token: who.token, json: { action } });
}

let foxReport: string; // reporter, against version 2 (the edit that made "The blue cat ran")
let helloReport: string; // other user, also version 2
let frenchReport: string; // reporter, a track with no version kept

beforeAll(async () => {
  official = (await createApplication({ official: true })).wireId;
  partner = (await createApplication()).wireId;
  [manager, reporter, other, staff] = await Promise.all([signedInUser(), signedInUser(), signedInUser(), signedInUser({ staff: true })]);
  container = await createContainer({ title: `Reports ${crypto.randomUUID()}`, managers: [manager.user.id] });
  video = await createVideo(container.id, { number: 1 });
  french = await createVideo(container.id, { number: 2, originLanguage: "fr" });
  await createSubtitles(french.id, 2, { fr: ["Bonjour", "Au revoir"] });
  await importSrt({ app: official, token: manager.token }, video, V1, "ko"); // version 1
  const edit = await api(`${track()}/cues/3000.json`, {
    method: "PUT",
    app: official,
    token: manager.token,
    json: { text: "The blue cat ran" },
  });
  await expectStatus(edit, "the edit", 200); // version 2
});

describe("reporting a subtitle", () => {
  it("stores where the subtitle sits, its text and the track's version; a repeat stores nothing", async () => {
    const fox = await subtitleWithText(video, "The blue cat ran");
    foxReport = await reported(reporter, fox, "wrong animal");
    const [row] = await (
      await shard()
    )
      .select()
      .from(reports)
      .where(eq(reports.id, Number.parseInt(foxReport, 10)));
    expect(row).toMatchObject({
      videoId: video.id,
      containerId: container.id,
      language: "ko",
      text: "The blue cat ran",
      version: 2,
      status: "open",
      resolution: null,
      resolvedBy: null,
      reason: "wrong animal",
      username: reporter.user.username,
    });

    const again = await report(reporter, fox, "still wrong");
    await expectStatus(again, "the same report again", 200);
    expect(await again.json()).toEqual({ ok: true });
    const rows = await (await shard()).select().from(reports).where(eq(reports.subtitleId, row.subtitleId));
    expect(rows).toHaveLength(1);
    expect(rows[0].reason).toBe("wrong animal");

    await expectRefused(await report(other, fox, "x".repeat(501)), "a huge reason", 400, 5002, "reason");

    helloReport = await reported(other, await subtitleWithText(video, "Hello there"), "greeting");
    frenchReport = await reported(reporter, await subtitleWithText(french, "Bonjour", "fr"), "not French");
    const [fr] = await (
      await shard()
    )
      .select()
      .from(reports)
      .where(eq(reports.id, Number.parseInt(frenchReport, 10)));
    expect(fr).toMatchObject({ videoId: french.id, language: "fr", text: "Bonjour", version: null });
  });
});

describe("GET /v4/containers/{container_id}/subtitle_reports.json", () => {
  it("lists the container's open reports newest first, with filters and paging", async () => {
    const all = await list();
    expect(ids(all)).toEqual([frenchReport, helloReport, foxReport]);
    expect(all.response[2]).toEqual({
      id: foxReport,
      subtitle: { id: expect.stringMatching(/^\d+s$/), language: "ko", text: "The blue cat ran", video_id: video.wireId },
      reporter: {
        id: `${reporter.user.id}u`,
        username: reporter.user.username,
        url: { api: expect.stringContaining(`${reporter.user.id}u.json`) },
      },
      reason: "wrong animal",
      version: 2,
      status: "open",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      resolution: null,
    });
    expect(ids(await list({ language: "fr" }))).toEqual([frenchReport]);
    expect(ids(await list({ language: "ko" }))).toEqual([helloReport, foxReport]);
    expect(ids(await list({ status: "resolved" }))).toEqual([]);

    const first = await list({ per_page: "2", with_paging: "true" });
    expect(first).toMatchObject({ more: true, count: 3 });
    expect(ids(first)).toEqual([frenchReport, helloReport]);
    const second = await list({ per_page: "2", page: "2" });
    expect(second.more).toBe(false);
    expect(ids(second)).toEqual([foxReport]);
    expect((await list({ only_ids: "true" })).response).toEqual([frenchReport, helloReport, foxReport]);
    expect(ids(await list({}, staff))).toEqual([frenchReport, helloReport, foxReport]);
  });

  it("is for staff and the container's managers of official applications only", async () => {
    // The reporter sees no list, not even of their own reports.
    await expectRefused(await api(listPath(), { app: official, token: reporter.token }), "the reporter", 403, 5403);
    await expectRefused(await api(listPath(), { app: official, token: other.token }), "another user", 403, 5403);
    await expectRefused(await api(listPath(), { app: official }), "no token", 401, 4500);
    await expectRefused(await api(listPath(), { app: partner, token: manager.token }), "a partner application", 403, 5403);
    await expectRefused(await api(listPath(), { app: official, token: manager.token, unsigned: true }), "unsigned", 401, 4, "sig");
    await expectRefused(await api(listPath("999999999c"), { app: official, token: staff.token }), "no such container", 404, 404);
    const hidden = await createContainer({ title: `Hidden ${crypto.randomUUID()}`, managers: [manager.user.id], state: "pending" });
    await expectRefused(await api(listPath(hidden.wireId), { app: official, token: other.token }), "a hidden container", 404, 404);
    await expectStatus(await api(listPath(hidden.wireId), { app: official, token: manager.token }), "its manager", 200);
  });

  it("refuses malformed filters, naming them", async () => {
    for (const [query, field] of [
      [{ status: "bogus" }, "status"],
      [{ language: "EN!" }, "language"],
    ] as const) {
      const res = await api(listPath(), { app: official, token: manager.token, query });
      await expectRefused(res, JSON.stringify(query), 400, 5002, field);
    }
  });

  it("reads a page, not the container's every report", async () => {
    const busy = await createContainer({ title: `Busy ${crypto.randomUUID()}`, managers: [manager.user.id] });
    const v = await createVideo(busy.id, { number: 1 });
    const subs = await createSubtitles(v.id, 60, { ko: 60 });
    const rows = subs.subtitles.map((s, i) => ({
      subtitleId: s.id,
      userId: reporter.user.id,
      username: reporter.user.username,
      videoId: v.id,
      containerId: busy.id,
      language: "ko",
      text: s.text,
      status: i % 2 ? ("resolved" as const) : ("open" as const),
    }));
    // Written where the API writes them: the container's shard, ids from its range.
    const placed = await shardOf(busy.id);
    for (let i = 0; i < rows.length; i += 5) {
      const chunk = rows.slice(i, i + 5);
      const first = firstAllocatedId(placed.shard, chunk.length);
      await placed.db.batch([
        allocateShardIdsStatement(placed.db, placed.shard, chunk.length),
        placed.db.insert(reports).values(chunk.map((r, k) => ({ ...r, id: sql`${first} + ${k}` })) as never),
      ]);
    }
    for (const status of ["open", "resolved", "all"]) {
      const res = await api(listPath(busy.wireId), { app: official, token: manager.token, query: { status, per_page: "5" } });
      await expectStatus(res, status, 200);
      const body = (await res.json()) as List;
      expect(body.response).toHaveLength(5);
      const numbers = body.response.map((r) => Number.parseInt(r.id, 10));
      expect(numbers, `${status}: newest first`).toEqual([...numbers].sort((a, b) => b - a));
      // The page (6 index rows, 6 reports, 6 reporters) and the caller's checks; a sort would read every one of 30 or 60.
      expect(rowsRead(res), status).toBeLessThan(30);
    }
  });
});

describe(`${RESOLVE.op}`, () => {
  it("no token, another user, the reporter, unofficial applications and unknown reports are refused", async () => {
    const target = { path: resolvePath(helloReport), json: { action: "dismiss" } };
    await expectRefused(await api(target, { method: "POST", app: official }), "no token", 401, 4500);
    await expectRefused(await api(target, { method: "POST", token: manager.token }), "no app=", 400, 5002, "app");
    await expectRefused(await api(target, { method: "POST", app: partner, token: manager.token }), "a partner application", 403, 5403);
    await expectRefused(
      await api(target, { method: "POST", app: official, token: manager.token, unsigned: true }),
      "the official app unsigned",
      401,
      4,
      "sig",
    );
    await expectRefused(await api(target, { method: "POST", app: official, token: other.token }), "its own reporter", 403, 5403);
    await expectRefused(await api(target, { method: "POST", app: official, token: reporter.token }), "another user", 403, 5403);
    await expectRefused(await resolve("999999999r", "dismiss"), "no such report", 404, 404);
    await expectRefused(await resolve("12s", "dismiss"), "not a report id", 404, 404);
    await expectRefused(await resolve(helloReport, "delete"), "an unknown action", 400, 5002, "action");
    const noBody = await api(resolvePath(helloReport), { method: "POST", app: official, token: manager.token, json: {} });
    await expectRefused(noBody, "no action", 400, 5002, "action");
    expect(ids(await list())).toContain(helloReport);
  });

  it("dismisses once: who, when and how are recorded; a second resolve is 409", async () => {
    const res = await resolve(helloReport, "dismiss");
    await expectStatus(res, "the dismissal", 200);
    const body = (await res.json()) as { report: Report; version?: unknown; job?: unknown };
    expect(body.version).toBeUndefined();
    expect(body.job).toBeUndefined();
    expect(body.report).toMatchObject({
      id: helloReport,
      status: "resolved",
      resolution: { action: "dismiss", by: `${manager.user.id}u`, at: expect.stringMatching(/Z$/) },
    });
    const [row] = await (
      await shard()
    )
      .select()
      .from(reports)
      .where(eq(reports.id, Number.parseInt(helloReport, 10)));
    expect(row).toMatchObject({ status: "resolved", resolution: "dismiss", resolvedBy: manager.user.id });
    expect(row.resolvedAt).toBeGreaterThan(0);

    await expectRefused(await resolve(helloReport, "dismiss"), "dismissed twice", 409, 5409);
    await expectRefused(await resolve(helloReport, "restore", staff), "restored after the dismissal", 409, 5409);

    expect(ids(await list({ status: "resolved" }))).toEqual([helloReport]);
    expect(ids(await list())).toEqual([frenchReport, foxReport]);
    expect(ids(await list({ status: "all" }))).toEqual([frenchReport, helloReport, foxReport]);
  });

  it("restores the version before the reported change", async () => {
    const res = await resolve(foxReport, "restore");
    await expectStatus(res, "the restore", 200);
    const body = (await res.json()) as { report: Report; version: Version; changed: boolean };
    expect(body.report).toMatchObject({ id: foxReport, status: "resolved", resolution: { action: "restore", by: `${manager.user.id}u` } });
    expect(body.changed).toBe(true);
    expect(body.version).toMatchObject({ number: 3, cause: "restore", restored_from: 1 });

    const srt = await api(`${track()}.srt`, { app: official, token: manager.token });
    const text = await srt.text();
    expect(text).toContain("The red fox ran");
    expect(text).not.toContain("The blue cat ran");
    const versions = await api(`${track()}/versions.json`, { app: official, token: manager.token });
    const newest = ((await versions.json()) as { response: Version[] }).response[0];
    expect(newest).toMatchObject({ number: 3, cause: "restore", restored_from: 1 });

    await expectRefused(await resolve(foxReport, "restore"), "restored twice", 409, 5409);
  });

  it("refuses a restore when no earlier version is kept, and leaves the report open", async () => {
    const none = await resolve(frenchReport, "restore");
    expect((await errorBody(none.clone())).error).toContain("no earlier version is kept");
    await expectRefused(none, "a track with no version kept", 409, 5409);
    expect(ids(await list())).toEqual([frenchReport]);

    // A report made against the track's first version: there is nothing before it.
    const first = await createVideo(container.id, { number: 3 });
    await importSrt({ app: official, token: manager.token }, first, V1, "ko");
    const firstReport = await reported(reporter, await subtitleWithText(first, "Goodbye"));
    const refused = await resolve(firstReport, "restore");
    expect((await errorBody(refused.clone())).error).toContain("no earlier version is kept");
    await expectRefused(refused, "a report against version 1", 409, 5409);

    const dismissed = await resolve(frenchReport, "dismiss", staff);
    await expectStatus(dismissed, "staff dismiss it", 200);
    expect(((await dismissed.json()) as { report: Report }).report.resolution).toMatchObject({
      action: "dismiss",
      by: `${staff.user.id}u`,
    });
  });
});
