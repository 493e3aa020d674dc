import { beforeAll, describe, expect, it } from "vitest";
import { api, createApplication, createUser, errorBody, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { v3Token } from "../helpers/v3";

/** docs/api.md, "What the API tolerates": what real clients send loosely is read; what cannot be read is a 400 naming the field. */

async function loginWith(body: BodyInit, contentType?: string, query = "") {
  const headers: Record<string, string> = contentType ? { "content-type": contentType } : {};
  return api(`/v5/sessions.json${query}`, { method: "POST", body, headers });
}

describe("tolerant request bodies", () => {
  it("ignores unknown fields and names them in x-ignored-fields (the v4 gem's persist)", async () => {
    const u = await createUser();
    const res = await loginWith(
      JSON.stringify({ username: u.user.username, password: u.password, persist: false, device: { os: "x" } }),
      "application/json",
    );
    expect(res.status).toBe(201);
    expect(res.headers.get("x-ignored-fields")).toBe("persist, device");
    expect(((await res.json()) as { token: string }).token).toMatch(/^[\w-]{43}$/);
  });

  it("reads a JSON body whatever its Content-Type says (yt-dlp posts JSON as form-urlencoded)", async () => {
    const u = await createUser();
    const json = JSON.stringify({ username: u.user.username, password: u.password });
    for (const type of ["application/x-www-form-urlencoded", "text/plain", undefined]) {
      const res = await loginWith(json, type, "?app=100005a");
      expect(res.status, String(type)).toBe(201);
      expect(res.headers.get("x-ignored-fields")).toBeNull();
    }
  });

  it("reads a real form body as flat fields, and multipart form data", async () => {
    const u = await createUser();
    const form = new URLSearchParams({ username: u.user.username, password: u.password }).toString();
    expect((await loginWith(form, "application/x-www-form-urlencoded")).status).toBe(201);
    const multipart = new FormData();
    multipart.set("username", u.user.username);
    multipart.set("password", u.password);
    expect((await api("/v5/sessions.json", { method: "POST", body: multipart })).status).toBe(201);
  });

  it("still names a missing required field, an unreadable body and a value of the wrong kind", async () => {
    const u = await createUser();
    let res = await loginWith(JSON.stringify({ username: u.user.username }), "application/json");
    expect(res.status).toBe(400);
    expect((await errorBody(res)).details).toEqual([{ field: "password", message: "required" }]);

    res = await loginWith('{"username": "x", "password":', "application/json");
    expect(res.status).toBe(400);
    expect((await errorBody(res)).details?.[0].field).toBe("body");

    res = await loginWith(JSON.stringify({ username: ["a"], password: { p: 1 } }), "application/json");
    expect(res.status).toBe(400);
    expect((await errorBody(res)).details?.map((d) => d.field).sort()).toEqual(["password", "username"]);

    res = await loginWith(JSON.stringify([1, 2]), "application/json");
    expect(res.status).toBe(400);
    expect((await errorBody(res)).details?.[0].field).toBe("body");
  });

  it("never reads a credential from the query string", async () => {
    const u = await createUser();
    const res = await loginWith("{}", "application/json", `?username=${u.user.username}&password=${u.password}`);
    expect(res.status).toBe(400);
    expect((await errorBody(res)).details).toEqual([{ field: "password", message: "required" }]);
  });

  it("takes a route's body fields from the query string when the body lacks them (the v4 gem's Caption.create)", async () => {
    const sender = await signedInUser();
    const to = await createUser();
    const res = await api(`/v4/users/${sender.id}/threads.json?token=${sender.token}&to=${to.id}&content=hello%20there`, {
      method: "POST",
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { last_message: { content: string } }).last_message.content).toBe("hello there");
    // The body wins over the query.
    const both = await api(`/v4/users/${sender.id}/threads.json?token=${sender.token}&content=from-query`, {
      method: "POST",
      json: { to: to.id, content: "from-body" },
    });
    expect(((await both.json()) as { last_message: { content: string } }).last_message.content).toBe("from-body");
  });

  it("coerces unambiguous scalars and refuses the rest naming the field", async () => {
    const user = await signedInUser();
    const container = await createContainer({ title: "Tolerant", regions: ["us"] });
    const video = await createVideo(container.id, { duration: 600 });
    const post = (body: unknown) =>
      api(`/v4/videos/${video.wireId}/timed_comments/en.json?token=${user.token}`, { method: "POST", json: body });
    const ok = await post({ time: "1500", comment: 42 });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ time: 1500, comment: "42" });
    const bad = await post({ time: "soon", comment: "x" });
    expect(bad.status).toBe(400);
    expect((await errorBody(bad)).details?.[0].field).toBe("time");
  });
});

describe("credentials on public reads", () => {
  let container: Awaited<ReturnType<typeof createContainer>>;
  beforeAll(async () => {
    container = await createContainer({ title: "Public read", regions: ["us"] });
  });

  it("answers a public read as anonymous when the token is malformed, unknown, dead or empty, and says so", async () => {
    const dead = await signedInUser();
    await api(`/v5/sessions/${dead.token}.json`, { method: "DELETE" });
    for (const [token, reason] of [
      ["None", "invalid"],
      ["A".repeat(43), "invalid"],
      [dead.token, "invalid"],
      ["", "empty"],
    ]) {
      const res = await api(`/v4/containers/${container.wireId}.json?app=100005a&token=${token}`);
      expect(res.status, token).toBe(200);
      expect(res.headers.get("x-token-ignored")).toBe(reason);
      expect(res.headers.get("x-app-ignored")).toBe("unknown");
    }
    const bearer = await api(`/v4/containers/${container.wireId}.json`, { headers: { authorization: "Bearer None" } });
    expect(bearer.status).toBe(200);
    expect(bearer.headers.get("x-token-ignored")).toBe("invalid");
  });

  it("keeps 401 on routes that need a user: vcode 11 for a dead token, 4500 for none", async () => {
    const u = await signedInUser();
    let res = await api(`/v4/users/${u.id}/threads.json?token=None`);
    expect(res.status).toBe(401);
    expect((await errorBody(res)).vcode).toBe(11);
    expect(res.headers.get("x-token-ignored")).toBeNull();
    res = await api(`/v4/users/${u.id}/threads.json?token=`);
    expect(res.status).toBe(401);
    expect((await errorBody(res)).vcode).toBe(4500);
  });

  it("refuses an unknown application where an application is needed, and a signed unknown one everywhere", async () => {
    const u = await signedInUser();
    let res = await api(`/v4/users/${u.id}/subscriptions.json?app=100005a&token=${u.token}`);
    expect(res.status).toBe(401);
    expect((await errorBody(res)).error).toBe("unknown application '100005a'");
    res = await api(`/v4/containers/${container.wireId}.json?app=100005a&t=${Math.floor(Date.now() / 1000)}&sig=00`);
    expect(res.status).toBe(401);
  });
});

describe("links carry no credentials; paging reads the same everywhere", () => {
  it("v4 with_paging links keep filters and paging but no token, sig or t", async () => {
    const u = await signedInUser();
    const app = await createApplication();
    for (let i = 0; i < 3; i++) await createContainer({ title: `Linked ${i}`, type: "film", regions: ["us"] });
    const res = await api(`/v4/films.json?app=${app.wireId}&token=${u.token}&per_page=1&page=2&with_paging=true&access_token=x`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { pagination: { previous: string; next: string } };
    for (const link of [body.pagination.previous, body.pagination.next]) {
      const url = new URL(link);
      expect([...url.searchParams.keys()].sort()).toEqual(["app", "page", "per_page", "with_paging"]);
    }
    expect(new URL(body.pagination.next).searchParams.get("page")).toBe("3");
  });

  it("v3 next links have no access_token; following one with the client's own token works once", async () => {
    const token = await v3Token();
    for (let i = 0; i < 2; i++) {
      const film = await createContainer({ title: `V3 film ${i}`, type: "film", regions: ["us"] });
      await createVideo(film.id, { type: "movie" });
    }
    const first = await api(`/v3/movies.json?per_page=1&access_token=${token}`);
    expect(first.status).toBe(200);
    const next = ((await first.json()) as { pagination: { next: string } }).pagination.next;
    expect(next).not.toBe("");
    expect(new URL(next).searchParams.has("access_token")).toBe(false);
    // An old-style link that already carries a token, plus the client's own: the last one is used, no 400.
    const again = await api(`${next}&access_token=stale&access_token=${token}`);
    expect(again.status).toBe(200);
  });

  it("unreadable or out-of-range page and per_page fall back to the default or the nearest bound", async () => {
    for (const q of ["page=abc", "page=0", "page=-3", "per_page=0", "per_page=abc", "per_page=500", "page=1&page=2"]) {
      const res = await api(`/v4/containers.json?${q}`);
      expect(res.status, q).toBe(200);
    }
    // Past the paging ceiling is no bound to fall back to but a page that is never served (docs/api.md, "API conventions").
    const deep = await api("/v4/containers.json?page=9999999");
    expect(deep.status).toBe(400);
    expect((await errorBody(deep)).details?.map((d) => d.field)).toEqual(["page"]);
    const res = await api("/v4/containers.json?per_page=500&with_paging=true");
    expect(
      new URL(((await res.json()) as { pagination: { next: string | null } }).pagination.next ?? "http://x/?per_page=500").searchParams.get(
        "per_page",
      ),
    ).toBe("500");
  });
});

describe("one rule for the same situation everywhere", () => {
  it("answers 405 with Allow for a method a path does not serve, 404 for a path nobody serves", async () => {
    let res = await api("/v4/jobs/1j.json", { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect((await errorBody(res)).vcode).toBe(405);
    res = await api("/v5/sessions.json", { method: "GET" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    res = await api("/v4/videos/1v/titles.json", { method: "PATCH", json: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect((await api("/v4/nothing-here.json", { method: "DELETE" })).status).toBe(404);
  });

  it("declares JSON as UTF-8", async () => {
    for (const path of ["/v4/containers.json", "/v4/containers/999999c.json", "/openapi.json"]) {
      expect((await api(path)).headers.get("content-type"), path).toBe("application/json; charset=utf-8");
    }
  });

  it("answers the signed v5 container and video reads yt-dlp makes as their v4 paths", async () => {
    const container = await createContainer({ title: "Five", regions: ["us"] });
    const video = await createVideo(container.id, { title: "Five one" });
    const v5 = await api(`/v5/containers/${container.wireId}.json`);
    expect(v5.status).toBe(200);
    expect(await v5.json()).toEqual(await (await api(`/v4/containers/${container.wireId}.json`)).json());
    expect(((await (await api(`/v5/videos/${video.wireId}.json`)).json()) as { id: string }).id).toBe(video.wireId);
    expect((await api(`/v5/containers/${container.wireId}.json`, { method: "DELETE" })).status).not.toBe(204);
  });
});

describe("POST reads the v4 gem fetches with GET", () => {
  it("serves subtitle completions and histories as GET with the fields in the query, same answers, same refusals", async () => {
    const official = await createApplication({ official: true });
    const user = await signedInUser();
    const container = await createContainer({ title: "Gem reads", regions: ["us"] });
    const video = await createVideo(container.id);
    const q = `app=${official.wireId}&token=${user.token}`;
    const post = await api(`/v4/subtitle_completions.json?${q}`, { method: "POST", json: { video_ids: [video.wireId, "2v"] } });
    const get = await api(`/v4/subtitle_completions.json?${q}&video_ids=${video.wireId},2v`);
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual(await post.json());
    expect((await api(`/v4/subtitle_completions.json?${q}&container_id=${container.wireId}`)).status).toBe(200);

    const neither = await api(`/v4/subtitle_completions.json?${q}`);
    expect(neither.status).toBe(400);
    expect((await errorBody(neither)).details?.map((d) => d.field)).toEqual(["video_ids", "container_id"]);
    // Still official applications only, as the POST.
    const partner = await createApplication();
    expect((await api(`/v4/subtitle_completions.json?app=${partner.wireId}&video_ids=1v`)).status).toBe(403);

    const histories = await api(`/v4/users/${user.id}/subtitle_histories.json?${q}&video_id=${video.wireId}&language=en`);
    expect(histories.status).toBe(200);
    expect(await histories.json()).toMatchObject({ more: false, response: [] });
    const badVideo = await api(`/v4/users/${user.id}/subtitle_histories.json?${q}&video_id=nope`);
    expect(badVideo.status).toBe(400);
  });
});
