// Playback is licensed (src/domain/licence.ts): the streams answer refuses what the catalogue says may not be watched
// here, 403 with the reason and the `blocking` flags the video object shows for the same request; hidden is 404.
import { eq } from "drizzle-orm";
import { applications, licenses, videos } from "../../src/db/schema";
import { type ApiInit, api, createApplication, db, errorBody } from "../helpers";
import { catalogueChanged } from "../helpers/catalogue";
import { describe, expect, test, type Signed } from "../helpers/fixtures";
import { addStream, from, playbackScene, streamsOf, trips } from "../helpers/playback";

const STREAM = { kind: "dash", manifest_url: "https://cdn.example.com/licensed/main.mpd" };

let manager: Signed;
let app: string;
test.beforeAll(async ({ user, officialApp }) => {
  manager = user;
  app = officialApp;
});

/** A video (of a container with `container`'s fields) with one stream. */
async function playable(container: Parameters<typeof playbackScene>[1] = {}) {
  const scene = await playbackScene(manager.user.id, container);
  await addStream(scene.video.wireId, app, manager.token, STREAM);
  return scene.video.wireId;
}

/** The 403 of the streams answer and the `blocking` of the video object for the same caller and country. */
async function refusal(video: string, init: ApiInit = {}, asApp = app) {
  const res = await streamsOf(video, { app: asApp, ...init });
  expect(res.status, await res.clone().text()).toBe(403);
  const body = (await errorBody(res)) as { error: string; vcode: number; reason: string; blocking: Record<string, boolean> };
  const shown = (await (await api(`/v4/videos/${video}.json`, { ...init })).json()) as { blocking: unknown; blocked: boolean };
  expect(body.blocking, "the answer and the video object agree").toEqual(shown.blocking);
  return { ...body, blocked: shown.blocked };
}

describe("licence refusals: 403 with the reason and the blocking flags", () => {
  test("upcoming", async () => {
    const r = await refusal(await playable({ upcoming: true }));
    expect(r).toMatchObject({ vcode: 5403, reason: "upcoming", blocking: { geo: false, paywall: false, upcoming: true }, blocked: true });
    expect(r.error).toContain("not yet available");
  });

  test("geo: a region without a licence (Cloudflare's country), the video object agreeing; unknown regions play", async () => {
    const video = await playable({ regions: ["kr", "jp"] });
    for (const country of ["US", "xx"]) {
      const r = await refusal(video, from(country));
      expect(r, country).toMatchObject({ reason: "geo", blocking: { geo: true, paywall: false, upcoming: false }, blocked: true });
      expect(r.error).toContain("region");
    }
    expect((await streamsOf(video, { app, ...from("KR") })).status).toBe(200);
    expect((await streamsOf(video, { app, ...from("jp") })).status).toBe(200);
    // No country (local development) or Cloudflare's XX (unknown): not geo-blocked, as the video object's `blocking.geo`.
    expect((await streamsOf(video, { app })).status).toBe(200);
    expect((await streamsOf(video, { app, ...from("XX") })).status).toBe(200);
    const unrestricted = await playable();
    expect((await streamsOf(unrestricted, { app, ...from("US") })).status).toBe(200);
  });

  test("upcoming and out of region: both flags, the first reason named", async () => {
    const r = await refusal(await playable({ upcoming: true, regions: ["kr"] }), from("FR"));
    expect(r).toMatchObject({ reason: "upcoming", blocking: { geo: true, paywall: false, upcoming: true } });
  });

  test("platform: a named platform needs a licence for it in the region (any region when unknown); unnamed, any platform", async () => {
    const video = await playable({ regions: ["kr"] }); // a web licence in kr
    const containerId = (
      await db()
        .select({ c: videos.containerId })
        .from(videos)
        .where(eq(videos.id, Number.parseInt(video)))
    )[0].c;
    await db().insert(licenses).values({ containerId, region: "jp", platform: "tv" });
    await catalogueChanged();
    const asked = (platform: string, init: ApiInit = {}) => streamsOf(video, { app, query: { platform }, ...init });
    expect((await asked("web", from("KR"))).status).toBe(200);
    const tvInKorea = await refusal(video, { query: { platform: "tv" }, ...from("KR") });
    expect(tvInKorea).toMatchObject({ reason: "platform", blocking: { geo: false, paywall: false, upcoming: false }, blocked: false });
    expect(tvInKorea.error).toContain("platform");
    expect((await asked("tv", from("JP"))).status).toBe(200);
    // No country: a licence for the platform anywhere is enough; none for mobile anywhere.
    expect((await asked("tv")).status).toBe(200);
    expect(await refusal(video, { query: { platform: "mobile" } })).toMatchObject({ reason: "platform" });
    // Still one D1 round trip with the platform asked.
    expect(trips(await asked("web", from("KR")))).toBe(2);
    // A container without licences is not restricted, on any platform; an unknown platform is a 400 naming it.
    const unrestricted = await playable();
    expect((await streamsOf(unrestricted, { app, query: { platform: "tv" }, ...from("US") })).status).toBe(200);
    const bad = await streamsOf(unrestricted, { app, query: { platform: "fridge" } });
    expect(bad.status).toBe(400);
    expect((await errorBody(bad)).details?.[0].field).toBe("platform");
  });

  test("unlicensed (a fan channel) unless the application has unhosted access", async () => {
    const video = await playable({ licensed: false, hosted: false });
    const r = await refusal(video);
    expect(r).toMatchObject({ reason: "unlicensed", blocking: { geo: false, paywall: false, upcoming: false }, blocked: false });
    const unhosted = await createApplication({ official: true, unhosted: true });
    expect((await streamsOf(video, { app: unhosted.wireId })).status).toBe(200);
  });

  test("adult content to a family-friendly application; other applications play it", async () => {
    const video = await playable({ adult: true });
    const family = await createApplication({ official: true });
    await db().update(applications).set({ familyFriendly: true }).where(eq(applications.id, family.id));
    const r = await refusal(video, {}, family.wireId);
    expect(r).toMatchObject({ reason: "adult", blocking: { geo: false, paywall: false, upcoming: false } });
    expect(r.error).toContain("family-friendly");
    expect((await streamsOf(video, { app })).status).toBe(200);
    expect((await streamsOf(await playable(), { app: family.wireId })).status).toBe(200);
  });
});

describe("hidden and missing videos: 404 as the video read", () => {
  test("a pending video, a blocked container, a deleted video, an unknown id", async ({ otherUser }) => {
    const pending = await playbackScene(manager.user.id);
    await addStream(pending.video.wireId, app, manager.token, STREAM);
    await db().update(videos).set({ state: "pending" }).where(eq(videos.id, pending.video.id));
    await catalogueChanged();
    for (const token of [undefined, otherUser.token]) {
      const res = await streamsOf(pending.video.wireId, { app, token });
      expect(res.status).toBe(404);
      expect((await api(`/v4/videos/${pending.video.wireId}.json`, { token })).status).toBe(404);
    }
    // Its managers see it, as on the video read.
    expect((await streamsOf(pending.video.wireId, { app, token: manager.token })).status).toBe(200);

    const blocked = await playable({ state: "blocked" });
    expect((await streamsOf(blocked, { app, token: otherUser.token })).status).toBe(404);

    const gone = await playbackScene(manager.user.id);
    await addStream(gone.video.wireId, app, manager.token, STREAM);
    const deleted = await api(`/v4/videos/${gone.video.wireId}.json`, { method: "DELETE", token: manager.token });
    expect(deleted.status).toBe(204);
    expect((await streamsOf(gone.video.wireId, { app })).status).toBe(404);
    expect((await streamsOf("999999999v", { app })).status).toBe(404);
    expect((await streamsOf("nope", { app })).status).toBe(404);
  });
});
