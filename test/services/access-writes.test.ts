// The authorization matrix of the write routes outside /v4/users/<id>/ (docs/decisions.md,
// "Official applications must sign"), part 1: catalogue writes, lists and notifications sent to subscribers. Part 2
// (access-writes-localisation.test.ts) has the official-application routes, translations, captions, timed
// comments, sessions and /oauth/token; the user-scoped routes are in access-matrix.test.ts. The first test
// fails when /openapi.json has a write in none of them.
import { api, createApplication, createUser, signedInUser, type Target } from "../helpers";
import { addVideoTexts, createContainer, createVideo } from "../helpers/catalogue";
import { minimal } from "../helpers/container-writes";
import { describe, expect, test, type Signed } from "../helpers/fixtures";
import { waitForJob } from "../helpers/jobs";
import { coveredWrites, documentedWrites, expectRefused, expectStatus, normaliseOp } from "../helpers/write-authz";

describe("every write operation of /openapi.json is in an authorization test", () => {
  test("none is missing, and every op named here exists", async () => {
    const documented = await documentedWrites();
    const { declared, normalised } = coveredWrites();
    expect(documented.length).toBeGreaterThan(40);
    expect(
      documented.filter((op) => !normalised.has(normaliseOp(op))),
      "write operations no authorization test covers",
    ).toEqual([]);
    expect(
      declared.filter((op) => !documented.includes(op)),
      "ops named in the tests but not in /openapi.json",
    ).toEqual([]);
  });
});

/** A fresh container (managed by `manager`) with a video, both with a `ko` title and description; `hidden` says which is pending. */
async function scene(manager: Signed, hidden?: "container" | "video") {
  const container = await createContainer({
    title: `Authz ${crypto.randomUUID()}`,
    titles: { ko: "제목" },
    descriptions: { en: "About", ko: "설명" },
    managers: [manager.user.id],
    state: hidden === "container" ? "pending" : "normal",
  });
  const video = await createVideo(container.id, { title: "Episode 1", number: 1, state: hidden === "video" ? "pending" : "normal" });
  await addVideoTexts(video.id);
  return { container: container.wireId, video: video.wireId };
}
type Scene = Awaited<ReturnType<typeof scene>>;

interface WriteRoute {
  /** The operation as /openapi.json names it. */
  op: string;
  ok: number;
  /** Only staff (the container's managers are refused 403). */
  staffOnly?: boolean;
  /** What "hidden" means for this route's object; routes without one name no container. */
  hides?: "container" | "video";
  /** The request on a fresh scene (each caller gets its own, as a DELETE succeeds once). */
  target: (s: Scene) => Target;
}

const text = (field: "title" | "description") => ({ language_code: "fr", [field]: `fr ${field}` });
const ROUTES: WriteRoute[] = [
  { op: "POST /v4/containers.json", ok: 201, staffOnly: true, target: () => ({ path: "/v4/containers.json", json: minimal() }) },
  {
    op: "PUT /v4/containers/{container_id}.json",
    ok: 200,
    hides: "container",
    target: (s) => ({ path: `/v4/containers/${s.container}.json`, json: { flags: { on_air: true } } }),
  },
  {
    op: "DELETE /v4/containers/{container_id}.json",
    ok: 204,
    staffOnly: true,
    hides: "container",
    target: (s) => ({ path: `/v4/containers/${s.container}.json` }),
  },
  {
    op: "POST /v4/containers/{container_id}/videos.json",
    ok: 201,
    hides: "container",
    target: (s) => ({
      path: `/v4/containers/${s.container}/videos.json`,
      json: { type: "episode", number: 2, titles: { en: "Episode 2" } },
    }),
  },
  {
    op: "PUT /v4/videos/{video_id}.json",
    ok: 200,
    hides: "video",
    target: (s) => ({ path: `/v4/videos/${s.video}.json`, json: { number: 7 } }),
  },
  { op: "DELETE /v4/videos/{video_id}.json", ok: 204, hides: "video", target: (s) => ({ path: `/v4/videos/${s.video}.json` }) },
  {
    op: "POST /v4/containers/{container_id}/titles.json",
    ok: 201,
    hides: "container",
    target: (s) => ({ path: `/v4/containers/${s.container}/titles.json`, json: text("title") }),
  },
  {
    op: "DELETE /v4/containers/{container_id}/titles/{language_code}.json",
    ok: 204,
    hides: "container",
    target: (s) => ({ path: `/v4/containers/${s.container}/titles/ko.json` }),
  },
  {
    op: "POST /v4/containers/{container_id}/descriptions.json",
    ok: 201,
    hides: "container",
    target: (s) => ({ path: `/v4/containers/${s.container}/descriptions.json`, json: text("description") }),
  },
  {
    op: "DELETE /v4/containers/{container_id}/descriptions/{language_code}.json",
    ok: 204,
    hides: "container",
    target: (s) => ({ path: `/v4/containers/${s.container}/descriptions/ko.json` }),
  },
  {
    op: "POST /v4/videos/{video_id}/titles.json",
    ok: 201,
    hides: "video",
    target: (s) => ({ path: `/v4/videos/${s.video}/titles.json`, json: text("title") }),
  },
  {
    op: "DELETE /v4/videos/{video_id}/titles/{language_code}.json",
    ok: 204,
    hides: "video",
    target: (s) => ({ path: `/v4/videos/${s.video}/titles/ko.json` }),
  },
  {
    op: "POST /v4/videos/{video_id}/descriptions.json",
    ok: 201,
    hides: "video",
    target: (s) => ({ path: `/v4/videos/${s.video}/descriptions.json`, json: text("description") }),
  },
  {
    op: "DELETE /v4/videos/{video_id}/descriptions/{language_code}.json",
    ok: 204,
    hides: "video",
    target: (s) => ({ path: `/v4/videos/${s.video}/descriptions/ko.json` }),
  },
  {
    op: "POST /v4/lists.json",
    ok: 201,
    staffOnly: true,
    target: () => ({ path: "/v4/lists.json", json: { titles: { en: `List ${crypto.randomUUID()}` } } }),
  },
  {
    op: "PUT /v4/lists/{list_id}.json",
    ok: 202,
    staffOnly: true,
    target: (s) => ({ path: "/v4/lists/1l.json", json: { videos: [s.video, s.container] } }),
  },
];

describe('catalogue writes and lists (docs/api.md, "Catalogue writes" and "Lists")', () => {
  for (const route of ROUTES) {
    const rule = route.staffOnly ? "staff only" : "staff and the container's managers";
    test(`${route.op}: ${rule}`, async ({ user: manager, otherUser: other, staff }) => {
      const fresh = async (hidden?: "container" | "video") => route.target(await scene(manager, hidden));
      const method = route.op.split(" ")[0];
      await expectRefused(await api(await fresh(), { method }), "no token", 401, 4500);
      await expectRefused(await api(await fresh(), { method, token: other.token }), "a user who manages nothing", 403, 5403);
      if (route.hides && route.staffOnly) {
        // Staff-only routes refuse everyone else before any lookup, so a hidden (or missing) object is 403 too and
        // reveals nothing; README's general "cannot even see: 404" is about routes open to managers.
        await expectRefused(
          await api(await fresh(route.hides), { method, token: other.token }),
          `that user, ${route.hides} hidden`,
          403,
          5403,
        );
        await expectRefused(await api(await fresh(), { method, token: manager.token }), "the container's manager", 403, 5403);
      } else if (route.hides) {
        await expectRefused(
          await api(await fresh(route.hides), { method, token: other.token }),
          `that user, ${route.hides} hidden`,
          404,
          404,
        );
        await expectStatus(await api(await fresh(), { method, token: manager.token }), "the container's manager", route.ok);
        await expectStatus(
          await api(await fresh(route.hides), { method, token: manager.token }),
          `the manager, ${route.hides} hidden`,
          route.ok,
        );
      }
      const res = await api(await fresh(), { method, token: staff.token });
      await expectStatus(res, "staff", route.ok);
      // A queued list edit is seen through, so no job of this file is left running into the next one.
      if (route.ok === 202)
        expect((await waitForJob(((await res.json()) as { job: { id: string } }).job.id, staff.token)).status).toBe("succeeded");
    });
  }

  test("a manager's PUT that sends a staff-only field is refused as a whole (403, the message names it)", async ({
    user: manager,
    staff,
  }) => {
    const s = await scene(manager);
    const res = await api(
      { path: `/v4/containers/${s.container}.json`, json: { flags: { on_air: true, hosted: false } } },
      { method: "PUT", token: manager.token },
    );
    const refused = res.clone();
    await expectRefused(res, "manager sends flags.hosted", 403, 5403);
    expect(((await refused.json()) as { error: string }).error).toMatch(/hosted/);
    const after = (await (await api({ path: `/v4/containers/${s.container}.json` })).json()) as { flags: { on_air: boolean } };
    expect(after.flags.on_air, "the allowed field of the refused PUT was not written either").toBe(false);
    const staffRes = await api(
      { path: `/v4/containers/${s.container}.json`, json: { flags: { hosted: false } } },
      { method: "PUT", token: staff.token },
    );
    await expectStatus(staffRes, "staff sends flags.hosted", 200);
  });
});

const SEND = { op: "POST /v4/users/{user_id}/notifications.json" };
const SEND_ALIAS = { op: "POST /v4/notifications.json" };

describe("notifications to a container's subscribers: its listed managers only, staff included refused", () => {
  const body = { content: "Episode 2 is up" };
  const notify = (path: string, container: string) => ({ path, query: { container_id: container }, json: body });
  const accepted = async (res: Response, what: string, token: string) => {
    await expectStatus(res, what, 202);
    expect((await waitForJob(((await res.json()) as { job: { id: string } }).job.id, token)).status, what).toBe("succeeded");
  };

  test(`${SEND.op} (the path's user)`, async ({ user: manager, otherUser: other, staff }) => {
    const { container } = await scene(manager);
    const own = (u: Signed) => notify(`/v4/users/${u.id}/notifications.json`, container);
    await expectRefused(await api(own(manager), { method: "POST" }), "no token", 401, 4500);
    await expectRefused(await api(own(manager), { method: "POST", token: other.token }), "another user's path", 403, 5403);
    await expectRefused(await api(own(manager), { method: "POST", token: staff.token }), "staff on the manager's path", 403, 5403);
    await expectRefused(await api(own(other), { method: "POST", token: other.token }), "a user who does not manage it", 403, 5403);
    await expectRefused(await api(own(staff), { method: "POST", token: staff.token }), "staff who do not manage it", 403, 5403);
    await expectRefused(
      await api(notify(`/v4/users/${manager.id}/notifications.json`, "999999999c"), { method: "POST", token: manager.token }),
      "no such container",
      404,
      404,
    );
    await accepted(await api(own(manager), { method: "POST", token: manager.token }), "the manager", manager.token);
  });

  test(`${SEND_ALIAS.op} (the token's user)`, async ({ user: manager, otherUser: other, staff }) => {
    const { container } = await scene(manager);
    const alias = notify("/v4/notifications.json", container);
    await expectRefused(await api(alias, { method: "POST" }), "no token", 401, 4500);
    await expectRefused(await api(alias, { method: "POST", token: other.token }), "a user who does not manage it", 403, 5403);
    await expectRefused(await api(alias, { method: "POST", token: staff.token }), "staff who do not manage it", 403, 5403);
    await accepted(await api(alias, { method: "POST", token: manager.token }), "the manager", manager.token);
  });

  test("a staff member listed as a manager may send", async ({ user: manager }) => {
    const staffManager = await signedInUser({ staff: true });
    const { container } = await scene(staffManager);
    await accepted(
      await api(notify("/v4/notifications.json", container), { method: "POST", token: staffManager.token }),
      "staff who manage it",
      staffManager.token,
    );
    await expectRefused(
      await api(notify("/v4/notifications.json", container), { method: "POST", token: manager.token }),
      "a manager of other containers",
      403,
      5403,
    );
  });
});

const LOGIN = { op: "POST /v5/sessions.json" };
const RENEW = { op: "PUT /v5/sessions/{token}.json" };
const LOGOUT = { op: "DELETE /v5/sessions/{token}.json" };
const OAUTH = { op: "POST /oauth/token" };

// The session token in the path is the credential: a token= of someone else grants nothing (docs/api.md, "Sessions").
describe("sessions and /oauth/token: the credential sent is the only authority", () => {
  const session = (token: string) => ({ path: `/v5/sessions/${token}.json` });
  const userOf = async (token: string) => (await api(session(token))).status;
  const DEAD = "A".repeat(43);

  test(`${LOGIN.op}: a wrong password 401, the right one 201`, async () => {
    const bob = await signedInUser();
    const login = (password: string) =>
      api({ path: "/v5/sessions.json", json: { username: bob.user.username, password } }, { method: "POST" });
    await expectRefused(await login("wrong"), "wrong password", 401, 7403);
    const res = await login(bob.password);
    await expectStatus(res, "the right password", 201);
    expect(((await res.json()) as { user: { id: string } }).user.id).toBe(bob.id);
  });

  for (const [route, method, ok] of [
    [RENEW, "PUT", 201],
    [LOGOUT, "DELETE", 204],
  ] as const) {
    test(`${route.op}: an unknown token 404 (vcode 11) whoever asks; the token itself ${ok}`, async ({ otherUser: other }) => {
      const bob = await signedInUser();
      await expectRefused(await api(session(DEAD), { method }), "an unknown token", 404, 11);
      await expectRefused(
        await api(session(DEAD), { method, token: other.token }),
        "an unknown token, with another user's token=",
        404,
        11,
      );
      expect(await userOf(other.token), "the other user's session is untouched").toBe(200);
      const res = await api(session(bob.token), { method, token: other.token });
      await expectStatus(res, "bob's token (another user's token= alongside)", ok);
      if (ok === 201) expect(((await res.json()) as { user: { id: string } }).user.id, "the path token's user").toBe(bob.id);
      expect(await userOf(bob.token), "bob's old token is gone").toBe(404);
      expect(await userOf(other.token), "the other user's session still works").toBe(200);
    });
  }

  test(`${OAUTH.op}: no or wrong client credentials 401 invalid_client; a wrong password invalid_grant`, async () => {
    const client = await createApplication({ secret: "authz-client-secret" });
    const bob = await createUser();
    const token = (json: Record<string, string>) => api({ path: "/oauth/token", json }, { method: "POST" });
    const oauthError = async (res: Response, status: number, error: string) => {
      expect({ status: res.status, error: ((await res.json()) as { error: string }).error }).toEqual({ status, error });
    };
    const base = { grant_type: "client_credentials", client_id: client.wireId };
    await oauthError(await token({ grant_type: "client_credentials" }), 401, "invalid_client");
    await oauthError(await token({ ...base, client_secret: "wrong" }), 401, "invalid_client");
    await expectStatus(await token({ ...base, client_secret: "authz-client-secret" }), "client credentials", 200);
    const password = { ...base, grant_type: "password", client_secret: "authz-client-secret", username: bob.user.username };
    await oauthError(await token({ ...password, password: "wrong" }), 400, "invalid_grant");
    const res = await token({ ...password, password: bob.password });
    await expectStatus(res, "password grant", 200);
    expect(((await res.json()) as { user_id: number }).user_id).toBe(bob.user.id);
  });
});
