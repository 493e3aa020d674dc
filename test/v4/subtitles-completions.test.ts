import { beforeAll, describe, expect, it } from "vitest";
import { subtitleCompletions } from "../../src/db/schema";
import { api, createApplication, db, errorBody, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";

let official: string;
let partner: string;
let manager: Awaited<ReturnType<typeof signedInUser>>;
let container: Awaited<ReturnType<typeof createContainer>>;
let hiddenContainer: Awaited<ReturnType<typeof createContainer>>;
let v1: string, v2: string, bare: string, pending: string, inHidden: string;

const pct = (kind: "c" | "v", id: number, values: Record<string, number>) =>
  Object.entries(values).map(([language, percent]) => ({ resourceKind: kind, resourceId: id, language, percent }));

beforeAll(async () => {
  official = (await createApplication({ official: true })).wireId;
  partner = (await createApplication()).wireId;
  manager = await signedInUser();
  container = await createContainer({ title: "Completions API", managers: [manager.user.id] });
  hiddenContainer = await createContainer({ title: "Completions hidden", state: "pending" });
  const a = await createVideo(container.id, { number: 2 });
  const b = await createVideo(container.id, { number: 1 });
  const c = await createVideo(container.id, { number: 3 });
  const p = await createVideo(container.id, { number: 4, state: "pending" });
  const h = await createVideo(hiddenContainer.id, { number: 1 });
  [v1, v2, bare, pending, inHidden] = [a.wireId, b.wireId, c.wireId, p.wireId, h.wireId];
  await db()
    .insert(subtitleCompletions)
    .values([
      ...pct("v", a.id, { en: 90, fr: 12 }),
      ...pct("v", b.id, { en: 100 }),
      ...pct("v", p.id, { ko: 50 }),
      ...pct("v", h.id, { en: 10 }),
      ...pct("c", container.id, { en: 95, fr: 6 }),
    ]);
});

describe("POST /v4/subtitle_completions.json", () => {
  it("is for official applications only", async () => {
    expect((await api("/v4/subtitle_completions.json", { method: "POST", json: { video_ids: [v1] } })).status).toBe(400);
    const res = await api(`/v4/subtitle_completions.json?app=${partner}`, { method: "POST", json: { video_ids: [v1] } });
    expect(res.status).toBe(403);
    expect((await errorBody(res)).vcode).toBe(5403);
  });

  it("answers completions by video id in the order asked; missing, malformed and hidden ids are left out", async () => {
    const res = await api("/v4/subtitle_completions.json", {
      method: "POST",
      app: official,
      json: { video_ids: [v2, "999999999v", v1, "nonsense", bare, pending, inHidden, v1] },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ [v2]: { en: 100 }, [v1]: { en: 90, fr: 12 }, [bare]: {} });
    expect(Object.keys(body as object)).toEqual([v2, v1, bare]);
    // The container's manager also sees its hidden videos.
    expect(
      await (
        await api("/v4/subtitle_completions.json", { method: "POST", app: official, json: { video_ids: [pending] }, token: manager.token })
      ).json(),
    ).toEqual({ [pending]: { ko: 50 } });
  });

  it("answers a container's normal videos by number, plus the container", async () => {
    const res = await api("/v4/subtitle_completions.json", { method: "POST", app: official, json: { container_id: container.wireId } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ [v2]: { en: 100 }, [v1]: { en: 90, fr: 12 }, [bare]: {}, container: { en: 95, fr: 6 } });
    expect(Object.keys(body as object)).toEqual([v2, v1, bare, "container"]);
  });

  it("404s a missing or hidden container", async () => {
    expect(
      (await api("/v4/subtitle_completions.json", { method: "POST", app: official, json: { container_id: "999999999c" } })).status,
    ).toBe(404);
    expect(
      (await api("/v4/subtitle_completions.json", { method: "POST", app: official, json: { container_id: hiddenContainer.wireId } }))
        .status,
    ).toBe(404);
  });

  it("takes exactly one of video_ids (1 to 100) and container_id", async () => {
    const cases: Array<[unknown, string]> = [
      [{}, "video_ids"],
      [{ video_ids: [v1], container_id: container.wireId }, "container_id"],
      [{ video_ids: [] }, "video_ids"],
      [{ video_ids: Array.from({ length: 101 }, (_, i) => `${i + 1}v`) }, "video_ids"],
      [{ video_ids: { id: v1 } }, "video_ids"],
      [{ video_ids: [true] }, "video_ids.0"],
      [{ container_id: "12v" }, "container_id"],
      [{ language: "en" }, "video_ids"],
    ];
    for (const [json, field] of cases) {
      const res = await api("/v4/subtitle_completions.json", { method: "POST", app: official, json });
      expect(res.status, JSON.stringify(json).slice(0, 60)).toBe(400);
      expect((await errorBody(res)).details?.map((d) => d.field)).toContain(field);
    }
    // An unknown field is ignored and named in x-ignored-fields; a lone id is read as a one-item array.
    const extra = await api("/v4/subtitle_completions.json", { method: "POST", app: official, json: { video_ids: v1, language: "en" } });
    expect(extra.status).toBe(200);
    expect(extra.headers.get("x-ignored-fields")).toBe("language");
    expect(await extra.json()).toEqual({ [v1]: { en: 90, fr: 12 } });
    expect(
      (
        await api("/v4/subtitle_completions.json", {
          method: "POST",
          app: official,
          json: { video_ids: Array.from({ length: 100 }, (_, i) => `${i + 1}v`) },
        })
      ).status,
    ).toBe(200);
  });
});
