// The authorization matrix of the write routes outside /v4/users/<id>/ (docs/decisions.md,
// "Official applications must sign"), part 2: routes of official applications (SRT import, completions and histories,
// reads by POST, subtitle track edits, deletions and restores), votes, reports, caption suggestions and timed comments. Part 1, access-writes.test.ts,
// checks that every write of /openapi.json is covered somewhere.
import { eq } from "drizzle-orm";
import { videos } from "../../src/db/schema";
import { api, db, type Sender, signedInUser, type Target } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { describe, expect, test, type Signed } from "../helpers/fixtures";
import { waitForJob } from "../helpers/jobs";
import { createSubtitles } from "../helpers/localisation";
import { expectRefused, expectStatus } from "../helpers/write-authz";

/** A Korean series managed by `manager` with one video (pending when `hidden`) and two segments in ko (originals) and en. */
async function video(manager: Signed, hidden = false) {
  const container = await createContainer({ title: `Authz ${crypto.randomUUID()}`, managers: [manager.user.id] });
  const v = await createVideo(container.id, { title: "Episode 1", number: 1, state: hidden ? "pending" : "normal" });
  const subs = await createSubtitles(v.id, 2, { ko: 2, en: 2 });
  return {
    container: container.wireId,
    video: v.wireId,
    id: v.id,
    original: subs.at("ko", 0).wireId,
    translation: subs.at("en", 0).wireId,
  };
}

/** The three refusals of a route for official applications: no app=, another application, and the official one unsigned. */
async function officialOnly(method: string, target: Target, who: Sender & { partnerApp: string; officialApp: string }) {
  await expectRefused(await api(target, { method, token: who.token }), "no app=", 400, 5002, "app");
  await expectRefused(await api(target, { method, token: who.token, app: who.partnerApp }), "a partner application", 403, 5403);
  await expectRefused(
    await api(target, { method, token: who.token, app: who.officialApp, unsigned: true }),
    "the official app unsigned",
    401,
    4,
    "sig",
  );
}

const IMPORT = { op: "POST /v4/videos/{video_id}/subtitles/import_srt.json" };
const COMPLETIONS = { op: "POST /v4/subtitle_completions.json" };
const HISTORIES = { op: "POST /v4/users/{user_id}/subtitle_histories.json" };

describe("routes of official applications: a signed official app=, then the user rule", () => {
  test(`${IMPORT.op}: staff or the container's managers`, async ({ user: manager, otherUser: other, staff, officialApp, partnerApp }) => {
    const srt = { language: "fr", content: "1\n00:00:00,000 --> 00:00:00,900\nBonjour\n" };
    const target = (v: { video: string }) => ({ path: `/v4/videos/${v.video}/subtitles/import_srt.json`, json: srt });
    const visible = await video(manager);
    const hidden = await video(manager, true);
    await officialOnly("POST", target(visible), { token: manager.token, officialApp, partnerApp });
    const app = officialApp;
    await expectRefused(await api(target(visible), { method: "POST", app }), "no token", 401, 4500);
    await expectRefused(await api(target(visible), { method: "POST", app, token: other.token }), "a user who manages nothing", 403, 5403);
    await expectRefused(await api(target(hidden), { method: "POST", app, token: other.token }), "that user, video hidden", 404, 404);
    for (const [who, v, what] of [
      [manager, hidden, "the manager, video hidden"],
      [staff, visible, "staff"],
    ] as const) {
      const res = await api(target(v), { method: "POST", app, token: who.token });
      await expectStatus(res, what, 202);
      const job = await waitForJob(((await res.json()) as { job: { id: string } }).job.id, who.token);
      expect(job.status, what).toBe("succeeded");
    }
  });

  test(`${COMPLETIONS.op}: any caller of the official app; hidden containers 404 but to their managers`, async ({
    user: manager,
    otherUser: other,
    staff,
    officialApp,
    partnerApp,
  }) => {
    const visible = await video(manager);
    const hidden = await createContainer({ title: `Hidden ${crypto.randomUUID()}`, managers: [manager.user.id], state: "pending" });
    const ofVideos = { path: "/v4/subtitle_completions.json", json: { video_ids: [visible.video] } };
    const ofHidden = { path: "/v4/subtitle_completions.json", json: { container_id: hidden.wireId } };
    await officialOnly("POST", ofVideos, { officialApp, partnerApp });
    await expectStatus(await api(ofVideos, { method: "POST", app: officialApp }), "no token", 200);
    await expectRefused(
      await api(ofHidden, { method: "POST", app: officialApp, token: other.token }),
      "a hidden container, another user",
      404,
      404,
    );
    await expectStatus(
      await api(ofHidden, { method: "POST", app: officialApp, token: manager.token }),
      "a hidden container, its manager",
      200,
    );
    await expectStatus(await api(ofHidden, { method: "POST", app: officialApp, token: staff.token }), "a hidden container, staff", 200);
  });

  test(`${HISTORIES.op}: the user themself or staff`, async ({ user: owner, otherUser: other, staff, officialApp, partnerApp }) => {
    const mine = { path: `/v4/users/${owner.id}/subtitle_histories.json`, json: {} };
    await officialOnly("POST", mine, { token: owner.token, officialApp, partnerApp });
    await expectRefused(await api(mine, { method: "POST", app: officialApp }), "no token", 401, 4500);
    await expectRefused(await api(mine, { method: "POST", app: officialApp, token: other.token }), "another user", 403, 5403);
    await expectStatus(await api(mine, { method: "POST", app: officialApp, token: owner.token }), "the user", 200);
    await expectStatus(await api(mine, { method: "POST", app: officialApp, token: staff.token }), "staff", 200);
    const nobody = { path: "/v4/users/999999999u/subtitle_histories.json", json: {} };
    await expectRefused(await api(nobody, { method: "POST", app: officialApp, token: staff.token }), "staff, no such user", 404, 404);
  });
});

const EDIT_CUE = { op: "PUT /v4/videos/{video_id}/subtitle_tracks/{language}/cues/{start_ms}.json" };
// The file form of the path (`en.json`), which /openapi.json writes without the `.json` it gives the other routes.
const DELETE_LANGUAGE = { op: "DELETE /v4/videos/{video_id}/subtitle_tracks/{file}" };
const RESTORE = { op: "POST /v4/videos/{video_id}/subtitle_tracks/{language}/versions/{number}/restore.json" };

type Scene = Awaited<ReturnType<typeof video>>;
type Callers = { manager: Signed; other: Signed; officialApp: string; partnerApp: string };

/**
 * The refusals of a subtitle track write to everyone but staff and the container's managers: the three of official
 * routes, no token, a user who manages nothing (403), and that user on a hidden video (404).
 */
async function trackWriteRefusals(method: string, target: (v: Scene) => Target, visible: Scene, hidden: Scene, who: Callers) {
  const { manager, other, officialApp: app, partnerApp } = who;
  await officialOnly(method, target(visible), { token: manager.token, officialApp: app, partnerApp });
  await expectRefused(await api(target(visible), { method, app }), "no token", 401, 4500);
  await expectRefused(await api(target(visible), { method, app, token: other.token }), "a user who manages nothing", 403, 5403);
  await expectRefused(await api(target(hidden), { method, app, token: other.token }), "that user, video hidden", 404, 404);
}

/** A video whose en track has versions 1 (its text before) and 2 (an edit by the manager). */
async function versioned(manager: Signed, officialApp: string, hidden = false) {
  const v = await video(manager, hidden);
  const edit = { path: `/v4/videos/${v.video}/subtitle_tracks/en/cues/1000.json`, json: { text: "Edited" } };
  await expectStatus(await api(edit, { method: "PUT", app: officialApp, token: manager.token }), "the manager's edit", 200);
  return v;
}

describe("subtitle track writes: a signed official app=, then staff or the container's managers", () => {
  test(`${EDIT_CUE.op}: a cue's text`, async ({ user: manager, otherUser: other, staff, officialApp, partnerApp }) => {
    const target = (v: Scene, text = "Changed") => ({ path: `/v4/videos/${v.video}/subtitle_tracks/en/cues/1000.json`, json: { text } });
    const visible = await video(manager);
    const hidden = await video(manager, true);
    await trackWriteRefusals("PUT", target, visible, hidden, { manager, other, officialApp, partnerApp });
    for (const [who, v, what] of [
      [manager, visible, "the manager"],
      [manager, hidden, "the manager, video hidden"],
      [staff, visible, "staff"],
    ] as const) {
      await expectStatus(await api(target(v, `By ${what}`), { method: "PUT", app: officialApp, token: who.token }), what, 200);
    }
  });

  test(`${DELETE_LANGUAGE.op}: every cue of a language`, async ({ user: manager, otherUser: other, staff, officialApp, partnerApp }) => {
    const target = (v: Scene, language = "en") => ({ path: `/v4/videos/${v.video}/subtitle_tracks/${language}.json` });
    const visible = await video(manager);
    const hidden = await video(manager, true);
    await trackWriteRefusals("DELETE", target, visible, hidden, { manager, other, officialApp, partnerApp });
    for (const [who, t, what] of [
      [manager, target(visible), "the manager"],
      [manager, target(hidden), "the manager, video hidden"],
      [staff, target(visible, "ko"), "staff"],
    ] as const) {
      await expectStatus(await api(t, { method: "DELETE", app: officialApp, token: who.token }), what, 200);
    }
  });

  test(`${RESTORE.op}: a version of the track`, async ({ user: manager, otherUser: other, staff, officialApp, partnerApp }) => {
    const target = (v: Scene, number = 1) => ({ path: `/v4/videos/${v.video}/subtitle_tracks/en/versions/${number}/restore.json` });
    const visible = await versioned(manager, officialApp);
    const hidden = await versioned(manager, officialApp, true);
    await trackWriteRefusals("POST", target, visible, hidden, { manager, other, officialApp, partnerApp });
    for (const [who, t, what] of [
      [manager, target(visible), "the manager"],
      [manager, target(hidden), "the manager, video hidden"],
      [staff, target(visible, 2), "staff"],
    ] as const) {
      await expectStatus(await api(t, { method: "POST", app: officialApp, token: who.token }), what, 201);
    }
  });
});

interface CommunityWrite {
  op: string;
  ok: number;
  target: (v: Awaited<ReturnType<typeof video>>) => Target;
}
const vote = (prefix: string, kind: "like" | "dislike") => (v: { translation: string }) => ({
  path: `/v4/${prefix}/${v.translation}/${kind}.json`,
});
const report = (prefix: string) => (v: { original: string }) => ({
  path: `/v4/${prefix}/${v.original}/report.json`,
  json: { reason: "typo" },
});
// Both spellings of every translation route (docs/api.md, "Translations, captions, timed comments and histories"),
// each op written out for part 1's coverage check.
const COMMUNITY: CommunityWrite[] = [
  { op: "POST /v4/tranlslations/{subtitle_id}/like.json", ok: 200, target: vote("tranlslations", "like") },
  { op: "POST /v4/tranlslations/{subtitle_id}/dislike.json", ok: 200, target: vote("tranlslations", "dislike") },
  { op: "POST /v4/tranlslations/{subtitle_id}/report.json", ok: 201, target: report("tranlslations") },
  { op: "POST /v4/translations/{subtitle_id}/like.json", ok: 200, target: vote("translations", "like") },
  { op: "POST /v4/translations/{subtitle_id}/dislike.json", ok: 200, target: vote("translations", "dislike") },
  { op: "POST /v4/translations/{subtitle_id}/report.json", ok: 201, target: report("translations") },
  {
    op: "POST /v4/captions.json",
    ok: 201,
    target: (v) => ({ path: "/v4/captions.json", json: { origin_subtitle_id: v.original, language: "fr", content: "Bonjour" } }),
  },
];

describe("votes, reports and caption suggestions: any application and any user; hidden videos are 404 to everyone", () => {
  for (const route of COMMUNITY) {
    test(`${route.op}`, async ({ user: owner, otherUser: voter, staff, partnerApp, officialApp }) => {
      const visible = route.target(await video(owner));
      const hidden = route.target(await video(owner, true));
      await expectRefused(await api(visible, { method: "POST", token: voter.token }), "no app=", 400, 5002, "app");
      await expectRefused(await api(visible, { method: "POST", app: partnerApp }), "no token", 401, 4500);
      await expectRefused(await api(hidden, { method: "POST", app: partnerApp, token: voter.token }), "a user, video hidden", 404, 404);
      await expectRefused(
        await api(hidden, { method: "POST", app: partnerApp, token: owner.token }),
        "its manager, video hidden",
        404,
        404,
      );
      await expectRefused(await api(hidden, { method: "POST", app: officialApp, token: staff.token }), "staff, video hidden", 404, 404);
      await expectStatus(
        await api(visible, { method: "POST", app: partnerApp, token: voter.token }),
        "a user with a partner app",
        route.ok,
      );
      await expectStatus(
        await api(visible, { method: "POST", app: officialApp, token: staff.token }),
        "staff with the official app",
        route.ok,
      );
    });
  }
});

const COMMENT = { op: "POST /v4/videos/{video_id}/timed_comments/{language_or_id}.json" };
const UNCOMMENT = { op: "DELETE /v4/videos/{video_id}/timed_comments/{language_or_id}.json" };

describe("timed comments: any user writes on a video they can see; the author, managers and staff delete", () => {
  const comment = (v: { video: string }) => ({
    path: `/v4/videos/${v.video}/timed_comments/en.json`,
    json: { time: 1000, comment: "nice" },
  });
  /** A comment of `author` on `v`, and its DELETE target. */
  const posted = async (v: { video: string }, author: Signed) => {
    const res = await api(comment(v), { method: "POST", token: author.token });
    await expectStatus(res, "posting the comment", 201);
    return { path: `/v4/videos/${v.video}/timed_comments/${((await res.json()) as { id: string }).id}.json` };
  };

  test(`${COMMENT.op}: a user token; a hidden video 404 to who cannot see it`, async ({ user: manager, otherUser: other }) => {
    const visible = await video(manager);
    const hidden = await video(manager, true);
    await expectRefused(await api(comment(visible), { method: "POST" }), "no token", 401, 4500);
    await expectRefused(await api(comment(hidden), { method: "POST", token: other.token }), "a user, video hidden", 404, 404);
    await expectStatus(await api(comment(visible), { method: "POST", token: other.token }), "any user", 201);
  });

  test(`${UNCOMMENT.op}: the author, the container's managers, staff`, async ({ user: manager, otherUser: author, staff }) => {
    const v = await video(manager);
    const bystander = await signedInUser();
    await expectRefused(await api(await posted(v, author), { method: "DELETE" }), "no token", 401, 4500);
    await expectRefused(await api(await posted(v, author), { method: "DELETE", token: bystander.token }), "another user", 403, 5403);
    for (const [who, what] of [
      [author, "the author"],
      [manager, "the container's manager"],
      [staff, "staff"],
    ] as const) {
      await expectStatus(await api(await posted(v, author), { method: "DELETE", token: who.token }), what, 204);
    }
    const onHidden = await posted(v, author);
    await db().update(videos).set({ state: "pending" }).where(eq(videos.id, v.id));
    await expectRefused(await api(onHidden, { method: "DELETE", token: bystander.token }), "another user, video hidden since", 404, 404);
    await expectStatus(await api(onHidden, { method: "DELETE", token: manager.token }), "the manager, video hidden since", 204);
  });
});
