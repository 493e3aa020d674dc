import { beforeAll, describe, expect, it } from "vitest";
import { notifications } from "../../src/db/schema";
import { api, createApplication, createUser, db, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { createSubtitles } from "../helpers/localisation";
import { expectFieldError, gem, gemList, type GemApp, type Json } from "./wire";

// The v4 gem (jcheng31/viki-api-gem): docs/clients.md, "v4 Ruby gem". Every request is signed with the
// configured application's salt, carries `Content-Type: application/json` and `User-Agent: viki`.
type Signed = Awaited<ReturnType<typeof signedInUser>>;
let partner: GemApp;
let official: GemApp;
let alice: Signed, bob: Signed, staff: Signed, manager: Signed;
let series: Awaited<ReturnType<typeof createContainer>>;
let ep1: Awaited<ReturnType<typeof createVideo>>;
let ep2: Awaited<ReturnType<typeof createVideo>>;
let subs: Awaited<ReturnType<typeof createSubtitles>>;

beforeAll(async () => {
  partner = { wireId: (await createApplication({ secret: "gem-partner-salt" })).wireId, secret: "gem-partner-salt" };
  official = { wireId: (await createApplication({ official: true, secret: "gem-official-salt" })).wireId, secret: "gem-official-salt" };
  [alice, bob, staff, manager] = await Promise.all([signedInUser(), signedInUser(), signedInUser({ staff: true }), signedInUser()]);
  series = await createContainer({ title: "Gem Series", originLanguage: "ko", managers: [manager.user.id] });
  ep1 = await createVideo(series.id, { number: 1, title: "Gem Episode 1" });
  ep2 = await createVideo(series.id, { number: 2 });
  subs = await createSubtitles(ep1.id, 4, { ko: 4, en: 2, es: 1 });
});

describe("Viki::Session", () => {
  it("authenticate: {username, password, persist: false} signed → 201 token + user; the token reads the session", async () => {
    const u = await createUser();
    const res = await gem("POST", "/v5/sessions", {
      app: partner,
      body: { username: u.user.username, password: u.password, persist: false },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("x-ignored-fields") ?? "").toContain("persist");
    const body = (await res.json()) as Json;
    expect(body.token).toEqual(expect.any(String));
    expect(body.user).toMatchObject({ id: u.id, username: u.user.username });
    // Session.fetch(token: t), with Viki.user_token also set to t.
    const read = await gem("GET", `/v5/sessions/${body.token}`, { app: partner, token: body.token });
    expect(read.status).toBe(200);
    expect(((await read.json()) as Json).id).toBe(u.id);
  });

  it("the gem's own http:// login is refused (the interface requires HTTPS), with a vcode the gem reads", async () => {
    const u = await createUser();
    const res = await gem("POST", "/v5/sessions", {
      app: partner,
      scheme: "http",
      body: { username: u.user.username, password: u.password, persist: false },
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as Json).vcode).toBe(5403);
  });

  it("hostile: wrong password 401/7403; missing password, wrong type and unreadable JSON are 400 naming the field", async () => {
    const u = await createUser();
    const wrong = await gem("POST", "/v5/sessions", {
      app: partner,
      body: { username: u.user.username, password: "nope", persist: false },
    });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as Json).vcode).toBe(7403);
    await expectFieldError(
      await gem("POST", "/v5/sessions", { app: partner, body: { username: u.user.username, persist: false } }),
      400,
      "password",
    );
    await expectFieldError(
      await gem("POST", "/v5/sessions", { app: partner, body: { username: [u.user.username], password: "x" } }),
      400,
      "username",
    );
    // Session.authenticate never sends "{}", but a create with no body hash does: nothing to log in with.
    await expectFieldError(await gem("POST", "/v5/sessions", { app: partner }), 400, "username");
    const unreadable = await api("/v5/sessions.json", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"username":',
    });
    await expectFieldError(unreadable, 400, "body");
  });
});

describe("catalogue reads (Container, Series, Episode, Video, Genre) with the user's token", () => {
  it("Container.fetch(id:), ids: and Series.fetch answer the container object", async () => {
    const one = await gem("GET", `/v4/containers/${series.wireId}`, { app: partner, token: alice.token });
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({ id: series.wireId, type: "series", titles: { en: "Gem Series" }, flags: expect.any(Object) });
    // ids=1c,2c: Addressable escapes the comma.
    const bulk = await gemList(
      await gem("GET", "/v4/containers", { app: partner, token: alice.token, params: { ids: `${series.wireId},999999c` } }),
    );
    expect(bulk.response.map((c) => c.id)).toEqual([series.wireId]);
    const listed = await gemList(await gem("GET", "/v4/series", { app: partner, params: { per_page: 50, sort: "views_recent" } }));
    expect(listed.response.every((c) => c.type === "series")).toBe(true);
  });

  it("Episode.fetch(container_id:), Video.fetch(container_id:) and Video.fetch(id:)", async () => {
    const episodes = await gemList(await gem("GET", `/v4/containers/${series.wireId}/episodes`, { app: partner, token: alice.token }));
    expect(episodes.response.map((v) => v.id).sort()).toEqual([ep1.wireId, ep2.wireId].sort());
    const videos = await gemList(await gem("GET", `/v4/containers/${series.wireId}/videos`, { app: partner }));
    expect(videos.response).toHaveLength(2);
    const video = await gem("GET", `/v4/videos/${ep1.wireId}`, { app: partner, token: alice.token });
    expect(video.status).toBe(200);
    expect(await video.json()).toMatchObject({ id: ep1.wireId, type: "episode", number: 1, container: { id: series.wireId } });
  });

  it("Genre.fetch(resource: 'containers') is a bare array of {id, name}", async () => {
    const res = await gem("GET", "/v4/containers/genres", { app: partner });
    expect(res.status).toBe(200);
    const genres = (await res.json()) as Json[];
    expect(genres[0]).toMatchObject({ id: expect.stringMatching(/g$/), name: { en: expect.any(String) } });
  });

  it("Search.fetch(term:) reads the response array: the containers and videos whose titles hold the term", async () => {
    const found = await gemList(await gem("GET", "/v4/search", { app: partner, token: alice.token, params: { term: "gem" } }));
    expect(found.response.map((item) => item.id)).toEqual([series.wireId, ep1.wireId]);
    expect(found.response[0]).toMatchObject({ type: "series", titles: { en: "Gem Series" } });
  });
});

describe("Viki::List and Viki::Title (staff)", () => {
  it("List.create({}, {titles}) 201, List.update({id:}, {videos}) 202, List.fetch(id:) unwraps response", async () => {
    const made = await gem("POST", "/v4/lists", { app: partner, token: staff.token, body: { titles: { en: "Gem picks" } } });
    expect(made.status).toBe(201);
    const list = (await made.json()) as Json;
    expect(list).toMatchObject({ id: expect.stringMatching(/^\d+l$/), titles: { en: "Gem picks" } });
    const edit = await gem("PUT", `/v4/lists/${list.id}`, { app: partner, token: staff.token, body: { videos: [ep1.wireId] } });
    expect(edit.status).toBe(202);
    expect(((await edit.json()) as Json).job.id).toEqual(expect.any(String));
    await gemList(await gem("GET", "/v4/lists/1l", { app: partner }));
    await expectFieldError(
      await gem("POST", "/v4/lists", { app: partner, token: staff.token, body: { titles: "Gem picks" } }),
      400,
      "titles",
    );
  });

  it("Title.create({container_id:}, {title, language_code}) 201 {ok}, Title.destroy 204; missing title is 400", async () => {
    const made = await gem("POST", `/v4/containers/${series.wireId}/titles`, {
      app: partner,
      token: staff.token,
      body: { title: "젬 시리즈", language_code: "ko" },
    });
    expect(made.status).toBe(201);
    expect(await made.json()).toEqual({ ok: true });
    const video = await gem("POST", `/v4/videos/${ep2.wireId}/titles`, {
      app: partner,
      token: staff.token,
      body: { title: "Two", language_code: "ko" },
    });
    expect(video.status).toBe(201);
    expect((await gem("DELETE", `/v4/containers/${series.wireId}/titles/ko`, { app: partner, token: staff.token })).status).toBe(204);
    const description = await gem("POST", `/v4/containers/${series.wireId}/descriptions`, {
      app: partner,
      token: staff.token,
      body: { description: "설명", language_code: "ko" },
    });
    expect(description.status).toBe(201);
    expect((await gem("DELETE", `/v4/containers/${series.wireId}/descriptions/ko`, { app: partner, token: staff.token })).status).toBe(204);
    await expectFieldError(
      await gem("POST", `/v4/containers/${series.wireId}/titles`, { app: partner, token: staff.token, body: { language_code: "ko" } }),
      400,
      "title",
    );
  });
});

describe("Viki::Subtitle (official application), Translation and Caption", () => {
  it("Subtitle.fetch(video_id:, language:) asks for .srt: the official app gets SubRip, others 403", async () => {
    const res = await gem("GET", `/v4/videos/${ep1.wireId}/subtitles/en`, { app: official, format: "srt" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("00:00:00,000 --> 00:00:00,900");
    expect((await gem("GET", `/v4/videos/${ep1.wireId}/subtitles/en`, { app: partner, format: "srt" })).status).toBe(403);
  });

  it("Translation.fetch(origin_language:, target_language:) lists translations into the target", async () => {
    const page = await gemList(
      await gem("GET", "/v4/translations", { app: partner, params: { origin_language: "ko", target_language: "en" } }),
    );
    expect(page.response.map((t) => t.id)).toEqual(expect.arrayContaining([subs.at("en", 0).wireId, subs.at("en", 1).wireId]));
    expect(page.response.every((t) => t.language === "en")).toBe(true);
    const spanish = await gemList(
      await gem("GET", "/v4/translations", {
        app: partner,
        params: { origin_language: "ko", target_language: "es", video_id: ep1.wireId },
      }),
    );
    expect(spanish.response.map((t) => t.text)).toEqual(["es 0"]);
  });

  it("Translation.rating / report put their fields in the query and send {} as the body", async () => {
    const target = subs.at("en", 0).wireId;
    const like = await gem("POST", `/v4/translations/${target}/like`, {
      app: partner,
      token: bob.token,
      params: { origin_subtitle_id: subs.at("ko", 0).wireId },
    });
    expect(like.status).toBe(200);
    expect(await like.json()).toMatchObject({ id: target, likes: 1, vote: 1 });
    const dislike = await gem("POST", `/v4/translations/${target}/dislike`, {
      app: partner,
      token: alice.token,
      params: { origin_subtitle_id: subs.at("ko", 0).wireId, suggested_content: "better" },
    });
    expect(await dislike.json()).toMatchObject({ dislikes: 1, vote: -1 });
    const report = await gem("POST", `/v4/translations/${subs.at("ko", 1).wireId}/report`, { app: partner, token: bob.token });
    expect(report.status).toBe(201);
    expect(await report.json()).toEqual({ ok: true });
    expect((await gem("GET", "/v4/translations/languages", { app: partner })).status).toBe(200);
  });

  it("Caption.random(origin_language:, target_language:) and Caption.create with its fields in the query", async () => {
    const random = await gem("GET", "/v4/captions/random", { app: partner, params: { origin_language: "ko", target_language: "es" } });
    expect(random.status).toBe(200);
    const caption = (await random.json()) as Json;
    expect(caption).toMatchObject({ language: "ko", target_language: "es", text: expect.any(String) });
    const made = await gem("POST", "/v4/captions", {
      app: partner,
      token: alice.token,
      params: { origin_subtitle_id: caption.id, language: "es", content: "nueva línea (1)" },
    });
    expect(made.status).toBe(201);
    expect(await made.json()).toMatchObject({ origin_subtitle_id: caption.id, language: "es", content: "nueva línea (1)" });
    await expectFieldError(
      await gem("POST", "/v4/captions", { app: partner, token: alice.token, params: { origin_subtitle_id: caption.id, language: "es" } }),
      400,
      "content",
    );
    expect((await gem("GET", "/v4/captions/languages", { app: partner })).status).toBe(200);
  });
});

describe("Viki::Contribution, SubtitleCompletion, SubtitleHistory", () => {
  it("Contribution.fetch(container_id:) / (user_id:) are bare arrays; count answers {count}", async () => {
    const ofContainer = await gem("GET", `/v4/containers/${series.wireId}/contributions`, { app: partner });
    expect(ofContainer.status).toBe(200);
    expect(Array.isArray(await ofContainer.json())).toBe(true);
    const ofUser = await gem("GET", `/v4/users/${alice.id}/contributions`, { app: partner, token: alice.token });
    expect(ofUser.status).toBe(200);
    expect(Array.isArray(await ofUser.json())).toBe(true);
    const count = await gem("GET", `/v4/users/${alice.id}/contributions/count`, { app: partner, token: alice.token });
    expect(await count.json()).toEqual({ count: expect.any(Number) });
  });

  it("SubtitleCompletion.fetch(video_ids:) and SubtitleHistory.fetch(user_id:) GET what the interface POSTs: served", async () => {
    const completions = await gem("GET", "/v4/subtitle_completions", {
      app: official,
      params: { video_ids: `${ep1.wireId},${ep2.wireId}` },
    });
    expect(completions.status).toBe(200);
    const byId = (await completions.json()) as Record<string, Record<string, number>>;
    expect(Object.keys(byId).sort()).toEqual([ep1.wireId, ep2.wireId].sort());
    const posted = await gem("POST", "/v4/subtitle_completions", { app: official, body: { video_ids: [ep1.wireId, ep2.wireId] } });
    expect(byId).toEqual(await posted.json());
    const histories = await gem("GET", `/v4/users/${alice.id}/subtitle_histories`, { app: official, token: alice.token });
    expect(histories.status).toBe(200);
    expect(await histories.json()).toMatchObject({ more: expect.any(Boolean), response: expect.any(Array) });
    // Still for official applications only.
    expect((await gem("GET", "/v4/subtitle_completions", { app: partner, params: { video_ids: ep1.wireId } })).status).toBe(403);
  });
});

describe("Viki::TimedComment", () => {
  it("create({id:, language:}, {time, comment}) 201, fetch is a bare array, destroy 204; bad time is 400", async () => {
    const made = await gem("POST", `/v4/videos/${ep1.wireId}/timed_comments/fr`, {
      app: partner,
      token: alice.token,
      body: { time: 116000, comment: "Bravo" },
    });
    expect(made.status).toBe(201);
    const comment = (await made.json()) as Json;
    expect(comment).toMatchObject({
      id: expect.stringMatching(/tc$/),
      time: 116000,
      comment: "Bravo",
      value: "Bravo",
      user: { id: alice.id },
    });
    const list = await gem("GET", `/v4/videos/${ep1.wireId}/timed_comments/fr`, { app: partner });
    expect(list.status).toBe(200);
    expect(((await list.json()) as Json[]).map((c) => c.id)).toContain(comment.id);
    expect(
      (await gem("DELETE", `/v4/videos/${ep1.wireId}/timed_comments/${comment.id}`, { app: partner, token: alice.token })).status,
    ).toBe(204);
    await expectFieldError(
      await gem("POST", `/v4/videos/${ep1.wireId}/timed_comments/fr`, {
        app: partner,
        token: alice.token,
        body: { time: "soon", comment: "x" },
      }),
      400,
      "time",
    );
  });
});

describe("Viki::Thread, Message and Alert", () => {
  it("start, count unread, read, reply (content in the query), mark read, delete", async () => {
    const started = await gem("POST", `/v4/users/${alice.id}/threads`, {
      app: partner,
      token: alice.token,
      body: { to: bob.id, content: "Hello Bob" },
    });
    expect(started.status).toBe(201);
    const thread = (await started.json()) as Json;
    const unread = await gem("GET", `/v4/users/${bob.id}/threads`, {
      app: partner,
      token: bob.token,
      params: { type: "inbox", unread: "true", only_count: "true" },
    });
    expect(await unread.json()).toEqual({ count: expect.any(Number) });
    const alerts = await gem("GET", `/v4/users/${bob.id}/alerts`, {
      app: partner,
      token: bob.token,
      params: { unread: "true", only_count: "true" },
    });
    expect(alerts.status).toBe(200);
    expect(((await alerts.json()) as Json).count).toEqual(expect.any(Number));
    const read = await gem("GET", `/v4/users/${bob.id}/threads/${thread.id}`, {
      app: partner,
      token: bob.token,
      params: { type: "inbox" },
    });
    expect(read.status).toBe(200);
    expect(((await read.json()) as Json).messages[0]).toMatchObject({ content: "Hello Bob" });
    const reply = await gem("POST", `/v4/users/${bob.id}/threads/${thread.id}/messages`, {
      app: partner,
      token: bob.token,
      params: { content: "Hi Alice" },
    });
    expect(reply.status).toBe(201);
    expect(await reply.json()).toMatchObject({ content: "Hi Alice" });
    const mark = await gem("PUT", `/v4/users/${bob.id}/threads/${thread.id}`, {
      app: partner,
      token: bob.token,
      params: { unread: "false" },
    });
    expect(mark.status).toBe(200);
    expect((await gem("DELETE", `/v4/users/${bob.id}/threads/${thread.id}`, { app: partner, token: bob.token })).status).toBe(204);
    await expectFieldError(
      await gem("POST", `/v4/users/${alice.id}/threads`, { app: partner, token: alice.token, body: { content: "to nobody" } }),
      400,
      "to",
    );
  });
});

describe("Viki::Subscription (official application) and markers", () => {
  it("create({user_id:}, {resource_id}) 201, fetch unwraps response, destroy({user_id:, id:}) 204", async () => {
    const user = alice;
    const made = await gem("POST", `/v4/users/${user.id}/subscriptions`, {
      app: official,
      token: user.token,
      body: { resource_id: series.wireId },
    });
    expect(made.status).toBe(201);
    expect(await made.json()).toMatchObject({ id: series.wireId });
    const page = await gemList(await gem("GET", `/v4/users/${user.id}/subscriptions`, { app: official, token: user.token }));
    expect(page.response.map((s) => s.id)).toContain(series.wireId);
    expect((await gem("DELETE", `/v4/users/${user.id}/subscriptions/${series.wireId}`, { app: official, token: user.token })).status).toBe(
      204,
    );
    expect((await gem("GET", `/v4/users/${user.id}/subscriptions`, { app: partner, token: user.token })).status).toBe(403);
    await expectFieldError(
      await gem("POST", `/v4/users/${user.id}/subscriptions`, { app: official, token: user.token, body: { resource_id: {} } }),
      400,
      "resource_id",
    );
  });

  it("markers, built the gem's way (no gem class): add 201, list, delete 204", async () => {
    const made = await gem("POST", `/v4/users/${bob.id}/markers`, { app: partner, token: bob.token, body: { resource_id: ep1.wireId } });
    expect(made.status).toBe(201);
    const page = await gemList(await gem("GET", `/v4/users/${bob.id}/markers`, { app: partner, token: bob.token }));
    expect(page.response.map((m) => m.id)).toContain(ep1.wireId);
    expect((await gem("DELETE", `/v4/users/${bob.id}/markers/${ep1.wireId}`, { app: partner, token: bob.token })).status).toBe(204);
  });
});

describe("Viki::Notification", () => {
  it("create(container_id:, content:) goes to /v4/notifications.json with both in the query: 202 job", async () => {
    const res = await gem("POST", "/v4/notifications", {
      app: partner,
      token: manager.token,
      params: { container_id: series.wireId, content: "Hi followers" },
    });
    expect(res.status).toBe(202);
    expect(((await res.json()) as Json).job).toMatchObject({ type: "notification-fanout" });
    await expectFieldError(
      await gem("POST", "/v4/notifications", { app: partner, token: manager.token, params: { container_id: series.wireId } }),
      400,
      "content",
    );
  });

  it("fetch list, unread_count, fetch(id:), update unread=false, destroy", async () => {
    const [row] = await db()
      .insert(notifications)
      .values({ userId: bob.user.id, containerId: series.id, senderId: manager.user.id, content: "New episode" })
      .returning();
    const id = `${row.id}n`;
    const page = await gemList(await gem("GET", `/v4/users/${bob.id}/notifications`, { app: partner, token: bob.token }));
    expect(page.response.map((n) => n.id)).toContain(id);
    const count = await gem("GET", `/v4/users/${bob.id}/notifications`, {
      app: partner,
      token: bob.token,
      params: { unread: "true", only_count: "true" },
    });
    expect(((await count.json()) as Json).count).toBeGreaterThanOrEqual(1);
    const one = await gem("GET", `/v4/users/${bob.id}/notifications/${id}`, { app: partner, token: bob.token });
    expect(await one.json()).toMatchObject({ id, content: "New episode", unread: true });
    const mark = await gem("PUT", `/v4/users/${bob.id}/notifications/${id}`, {
      app: partner,
      token: bob.token,
      params: { unread: "false" },
    });
    expect(mark.status).toBe(200);
    expect(((await mark.json()) as Json).unread).toBe(false);
    expect((await gem("DELETE", `/v4/users/${bob.id}/notifications/${id}`, { app: partner, token: bob.token })).status).toBe(204);
  });
});
