// Applying a caption suggestion (src/routes/v4/subtitle-edits.ts): the suggestion's text becomes the cue of its language
// at the segment of the original it translates, as an edit that makes a version. The cue edit and the deletion of a
// language are tested with the versions (subtitle-versions*.test.ts).
import { and, eq } from "drizzle-orm";
import { subtitleVersions } from "../../src/db/shard-schema";
import { api } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { describe, expect, test, type Signed } from "../helpers/fixtures";
import { createSubtitles, videoShard } from "../helpers/localisation";
import { expectRefused, expectStatus } from "../helpers/write-authz";

const APPLY = { op: "POST /v4/captions/{suggestion_id}/apply.json" };

/** A video managed by `manager` with Korean originals, and a French suggestion for the first one. */
async function suggestion(manager: Signed, suggester: Signed, partnerApp: string, hidden = false) {
  const container = await createContainer({ title: `Apply ${crypto.randomUUID()}`, managers: [manager.user.id] });
  const v = await createVideo(container.id, { number: 1 });
  const subs = await createSubtitles(v.id, 2, { ko: 2 });
  const res = await api(
    { path: "/v4/captions.json", json: { origin_subtitle_id: subs.at("ko", 0).wireId, language: "fr", content: "Bonjour à tous" } },
    { method: "POST", app: partnerApp, token: suggester.token },
  );
  expect(res.status).toBe(201);
  const id = ((await res.json()) as { id: number }).id;
  if (hidden) await api({ path: `/v4/videos/${v.wireId}.json`, json: { state: "pending" } }, { method: "PUT", token: manager.token });
  return { id, video: v, path: `/v4/captions/${id}/apply.json` };
}

describe(`${APPLY.op}: staff and the container's managers`, () => {
  test("writes the suggestion as the cue, makes a version, and refuses everyone else", async ({
    user: manager,
    otherUser: other,
    staff,
    officialApp,
    partnerApp,
  }) => {
    const s = await suggestion(manager, other, partnerApp);
    const target = { path: s.path };
    await expectRefused(await api(target, { method: "POST", token: manager.token }), "no app=", 400, 5002, "app");
    await expectRefused(await api(target, { method: "POST", token: manager.token, app: partnerApp }), "a partner application", 403, 5403);
    await expectRefused(await api(target, { method: "POST", app: officialApp }), "no token", 401, 4500);
    await expectRefused(
      await api(target, { method: "POST", app: officialApp, token: other.token }),
      "the suggester, no manager",
      403,
      5403,
    );

    const res = await api(target, { method: "POST", app: officialApp, token: manager.token });
    await expectStatus(res, "the manager", 200);
    const body = (await res.json()) as { changed: boolean; version: { number: number; cause: string; cues: number } };
    expect(body).toMatchObject({ changed: true, version: { number: 1, cause: "edit", cues: 1 } });
    const track = await api(`/v4/videos/${s.video.wireId}/subtitle_tracks/fr.srt`, { app: officialApp });
    expect(await track.text()).toContain("Bonjour à tous");

    // Applying it again changes nothing and makes no version; staff may apply too.
    const again = await api(target, { method: "POST", app: officialApp, token: staff.token });
    await expectStatus(again, "staff", 200);
    expect(await again.json()).toEqual({ changed: false, version: null, checks: [] });
    // On the container's shard (docs/decisions.md, "Subtitles on the shards").
    const rows = await (
      await videoShard(s.video.id)
    ).db
      .select()
      .from(subtitleVersions)
      .where(and(eq(subtitleVersions.videoId, s.video.id), eq(subtitleVersions.language, "fr")));
    expect(rows.map((r) => r.number)).toEqual([1]);
  });

  test("hides a hidden video's suggestions from who cannot see it, and names bad ids", async ({
    user: manager,
    otherUser: other,
    officialApp,
    partnerApp,
  }) => {
    const s = await suggestion(manager, other, partnerApp, true);
    await expectRefused(
      await api({ path: s.path }, { method: "POST", app: officialApp, token: other.token }),
      "a user, video hidden",
      404,
      404,
    );
    await expectStatus(await api({ path: s.path }, { method: "POST", app: officialApp, token: manager.token }), "its manager", 200);
    await expectRefused(
      await api({ path: "/v4/captions/999999999/apply.json" }, { method: "POST", app: officialApp, token: manager.token }),
      "unknown",
      404,
      404,
    );
    await expectRefused(
      await api({ path: "/v4/captions/abc/apply.json" }, { method: "POST", app: officialApp, token: manager.token }),
      "malformed",
      400,
      5002,
      "suggestion_id",
    );
  });
});
