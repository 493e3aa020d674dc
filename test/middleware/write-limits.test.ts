import { describe, expect, it } from "vitest";
import { writeKindOf } from "../../src/middleware/write-limits";
import { api, createUser, errorBody, signedInUser } from "../helpers";

describe("per-user write limits", () => {
  it("accepts 10 new threads a minute from one user, then 429 with Retry-After and the error envelope", async () => {
    const sender = await signedInUser();
    const to = await createUser();
    const start = () =>
      api(`/v4/users/${sender.id}/threads.json?token=${sender.token}`, { method: "POST", json: { to: to.id, content: "hi" } });
    for (let i = 0; i < 10; i++) expect((await start()).status, `thread ${i + 1}`).toBe(201);
    const refused = await start();
    expect(refused.status).toBe(429);
    // When the 60 s window ends.
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(await errorBody(refused)).toEqual({ error: "rate limited", vcode: 5429 });
    // Another user is not affected, and reads are never counted.
    const other = await signedInUser();
    expect(
      (await api(`/v4/users/${other.id}/threads.json?token=${other.token}`, { method: "POST", json: { to: to.id, content: "hi" } })).status,
    ).toBe(201);
    expect((await api(`/v4/users/${sender.id}/threads.json?token=${sender.token}`)).status).toBe(200);
  });

  it("names a kind for every limited write and none for reads", () => {
    const cases: Array<[string, string, string | undefined]> = [
      ["POST", "/v4/users/1u/threads", "threads"],
      ["POST", "/v4/users/1u/threads/3t/messages", "messages"],
      ["POST", "/v4/videos/1v/timed_comments/en", "timedComments"],
      ["POST", "/v4/translations/9s/like", "votes"],
      ["POST", "/v4/tranlslations/9s/dislike", "votes"],
      ["POST", "/v4/translations/9s/report", "reports"],
      ["POST", "/v4/captions", "suggestions"],
      ["POST", "/v4/videos/1v/subtitles/import_srt", "imports"],
      ["POST", "/v4/containers", "catalogue"],
      ["PUT", "/v4/containers/1c", "catalogue"],
      ["DELETE", "/v4/videos/1v", "catalogue"],
      ["POST", "/v4/containers/1c/videos", "catalogue"],
      ["POST", "/v4/videos/1v/titles", "catalogue"],
      ["DELETE", "/v4/containers/1c/descriptions/en", "catalogue"],
      ["POST", "/v4/lists", "catalogue"],
      ["PUT", "/v4/lists/1l", "catalogue"],
      ["POST", "/v4/notifications", "catalogue"],
      ["POST", "/v4/users/1u/notifications", "catalogue"],
      ["GET", "/v4/users/1u/threads", undefined],
      ["GET", "/v4/containers/1c", undefined],
      ["DELETE", "/v4/videos/1v/timed_comments/12tc", undefined],
      ["POST", "/v4/users/1u/markers", undefined],
    ];
    for (const [method, path, kind] of cases) expect(writeKindOf(method, path), `${method} ${path}`).toBe(kind);
  });
});
