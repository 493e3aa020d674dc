import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { containers } from "../../src/db/schema";
import { KV_KEYS } from "../../src/services/kv-cache";
import { api, db, errorBody, staffManagerOther, type User } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";

let staff: User;
let manager: User;
let other: User;

beforeAll(async () => {
  ({ staff, manager, other } = await staffManagerOther());
});

/** A fresh container (managed by `manager`) with one video: `base` is the path prefix of either. */
async function fixture(owner: "containers" | "videos") {
  const c = await createContainer({ title: "Original", managers: [manager.user.id] });
  const v = await createVideo(c.id, { title: "Original" });
  return { base: owner === "containers" ? `/v4/containers/${c.wireId}` : `/v4/videos/${v.wireId}`, container: c, video: v };
}
const read = async (base: string) => (await api(`${base}.json`, { token: staff.token })).json() as Promise<any>;

const KINDS = [
  { path: "titles", field: "title", map: "titles" },
  { path: "descriptions", field: "description", map: "descriptions" },
] as const;

for (const owner of ["containers", "videos"] as const) {
  for (const kind of KINDS) {
    const body = (language_code: string, text: string) => ({ language_code, [kind.field]: text });

    describe(`${kind.path} of ${owner}: happy path`, () => {
      it("creates, replaces and deletes one language, visible on the next read", async () => {
        const { base } = await fixture(owner);
        const created = await api(`${base}/${kind.path}.json`, { method: "POST", token: manager.token, json: body("ko", "첫째") });
        expect(created.status).toBe(201);
        expect(await created.json()).toEqual({ ok: true });
        expect((await read(base))[kind.map].ko).toBe("첫째");

        const replaced = await api(`${base}/${kind.path}.json`, { method: "POST", token: staff.token, json: body("KO", "  둘째 ") });
        expect(replaced.status).toBe(201);
        expect((await read(base))[kind.map].ko).toBe("둘째");

        const deleted = await api(`${base}/${kind.path}/ko.json`, { method: "DELETE", token: manager.token });
        expect(deleted.status).toBe(204);
        expect((await read(base))[kind.map]).not.toHaveProperty("ko");
        expect((await api(`${base}/${kind.path}/ko.json`, { method: "DELETE", token: manager.token })).status).toBe(404);
      });

      it("takes regional codes such as pt-br", async () => {
        const { base } = await fixture(owner);
        expect((await api(`${base}/${kind.path}.json`, { method: "POST", token: manager.token, json: body("pt-BR", "Olá") })).status).toBe(
          201,
        );
        expect((await read(base))[kind.map]["pt-br"]).toBe("Olá");
        expect((await api(`${base}/${kind.path}/pt-BR.json`, { method: "DELETE", token: manager.token })).status).toBe(204);
      });
    });

    describe(`${kind.path} of ${owner}: bad input`, () => {
      it("names the field: missing, wrong type, too long, bad language", async () => {
        const { base } = await fixture(owner);
        const limit = kind.field === "title" ? 200 : 5000;
        const cases: Array<[unknown, string]> = [
          [{ language_code: "ko" }, kind.field],
          [{ [kind.field]: "x" }, "language_code"],
          [{ language_code: "ko", extra: 1 }, kind.field],
          [{ language_code: "ko", [kind.field]: { text: "x" } }, kind.field],
          [body("ko", "x".repeat(limit + 1)), kind.field],
          [body("ko", "   "), kind.field],
          [body("korean", "x"), "language_code"],
        ];
        for (const [json, field] of cases) {
          const res = await api(`${base}/${kind.path}.json`, { method: "POST", token: staff.token, json });
          expect(res.status).toBe(400);
          const err = await errorBody(res);
          expect(err.vcode).toBe(5002);
          expect(err.details!.map((d) => d.field)).toContain(field);
        }
      });

      it("ignores an unknown field, naming it in x-ignored-fields, and reads a number as its text", async () => {
        const { base } = await fixture(owner);
        const res = await api(`${base}/${kind.path}.json`, { method: "POST", token: staff.token, json: { ...body("ko", "x"), extra: 1 } });
        expect(res.status).toBe(201);
        expect(res.headers.get("x-ignored-fields")).toBe("extra");
        const numeric = await api(`${base}/${kind.path}.json`, {
          method: "POST",
          token: staff.token,
          json: { language_code: "ko", [kind.field]: 5 },
        });
        expect(numeric.status).toBe(201);
        expect((await read(base))[kind.map].ko).toBe("5");
      });

      it("is 404 for a malformed language code or a missing owner", async () => {
        const { base } = await fixture(owner);
        expect((await api(`${base}/${kind.path}/k_o.json`, { method: "DELETE", token: staff.token })).status).toBe(404);
        const missing = owner === "containers" ? "/v4/containers/999999999c" : "/v4/videos/999999999v";
        expect((await api(`${missing}/${kind.path}.json`, { method: "POST", token: staff.token, json: body("ko", "x") })).status).toBe(404);
        expect((await api(`${missing}/${kind.path}/ko.json`, { method: "DELETE", token: staff.token })).status).toBe(404);
      });
    });

    describe(`${kind.path} of ${owner}: who may call them`, () => {
      it("is 401 without a token and 403 for another user; managers and staff may", async () => {
        const { base } = await fixture(owner);
        for (const [method, path, json] of [
          ["POST", `${base}/${kind.path}.json`, body("fr", "x")],
          ["DELETE", `${base}/${kind.path}/fr.json`, undefined],
        ] as const) {
          const none = await api(path, { method, json });
          expect(none.status).toBe(401);
          expect((await errorBody(none)).vcode).toBe(4500);
          const res = await api(path, { method, token: other.token, json });
          expect(res.status).toBe(403);
          expect((await errorBody(res)).vcode).toBe(5403);
        }
        expect((await api(`${base}/${kind.path}.json`, { method: "POST", token: manager.token, json: body("fr", "x") })).status).toBe(201);
        expect((await api(`${base}/${kind.path}.json`, { method: "POST", token: other.token, json: body("fr", "y") })).status).toBe(403);
        expect((await read(base))[kind.map].fr).toBe("x");
        expect((await api(`${base}/${kind.path}/fr.json`, { method: "DELETE", token: staff.token })).status).toBe(204);
      });
    });
  }
}

describe("the English title", () => {
  it("cannot be deleted from a container or a video (400 naming language_code), but can be replaced", async () => {
    for (const owner of ["containers", "videos"] as const) {
      const { base } = await fixture(owner);
      const res = await api(`${base}/titles/en.json`, { method: "DELETE", token: staff.token });
      expect(res.status).toBe(400);
      expect((await errorBody(res)).details).toEqual([{ field: "language_code", message: expect.stringContaining("English") }]);
      expect(
        (await api(`${base}/titles.json`, { method: "POST", token: manager.token, json: { language_code: "en", title: "Renamed" } }))
          .status,
      ).toBe(201);
      expect((await read(base)).titles.en).toBe("Renamed");
    }
  });

  it("drives the container's sort title", async () => {
    const { base, container } = await fixture("containers");
    await api(`${base}/titles.json`, { method: "POST", token: manager.token, json: { language_code: "en", title: "Zebra Crossing" } });
    const [row] = await db().select().from(containers).where(eq(containers.id, container.id));
    expect(row.sortTitle).toBe("zebra crossing");
  });

  it("is shown in the container summary of its videos", async () => {
    const { base, video } = await fixture("containers");
    await api(`${base}/titles.json`, { method: "POST", token: manager.token, json: { language_code: "de", title: "Deutsch" } });
    const res = await api(`/v4/videos/${video.wireId}.json`);
    expect(((await res.json()) as any).container.titles).toMatchObject({ en: "Original", de: "Deutsch" });
  });
});

describe("updated_at", () => {
  it("moves when a title or description is written or deleted, not on a 404", async () => {
    const { base, container } = await fixture("containers");
    const epoch = new Date(0);
    const stamp = async () => (await db().select().from(containers).where(eq(containers.id, container.id)))[0].updatedAt.getTime();
    const reset = () => db().update(containers).set({ updatedAt: epoch }).where(eq(containers.id, container.id));

    await reset();
    expect((await api(`${base}/descriptions/fr.json`, { method: "DELETE", token: manager.token })).status).toBe(404);
    expect(await stamp()).toBe(0);
    expect(
      (await api(`${base}/descriptions.json`, { method: "POST", token: manager.token, json: { language_code: "fr", description: "d" } }))
        .status,
    ).toBe(201);
    expect(await stamp()).toBeGreaterThan(0);
    await reset();
    expect((await api(`${base}/descriptions/fr.json`, { method: "DELETE", token: manager.token })).status).toBe(204);
    expect(await stamp()).toBeGreaterThan(0);
  });
});

describe("KV-cached listings", () => {
  const cached = () => env.CACHE.get(KV_KEYS.allContainers);
  const prime = () => env.CACHE.put(KV_KEYS.allContainers, JSON.stringify([{ id: "stale" }]));

  it("are invalidated by a container's title writes, not by descriptions or video titles", async () => {
    const { base, video } = await fixture("containers");
    await prime();
    expect(
      (await api(`${base}/descriptions.json`, { method: "POST", token: manager.token, json: { language_code: "en", description: "d" } }))
        .status,
    ).toBe(201);
    expect(
      (
        await api(`/v4/videos/${video.wireId}/titles.json`, {
          method: "POST",
          token: manager.token,
          json: { language_code: "ko", title: "t" },
        })
      ).status,
    ).toBe(201);
    expect(await cached()).not.toBeNull();

    expect(
      (await api(`${base}/titles.json`, { method: "POST", token: manager.token, json: { language_code: "ko", title: "새" } })).status,
    ).toBe(201);
    expect(await cached()).toBeNull();

    await prime();
    expect((await api(`${base}/titles/ko.json`, { method: "DELETE", token: manager.token })).status).toBe(204);
    expect(await cached()).toBeNull();

    await prime();
    expect((await api(`${base}/titles/ko.json`, { method: "DELETE", token: manager.token })).status).toBe(404);
    expect(
      (await api(`${base}/titles.json`, { method: "POST", token: other.token, json: { language_code: "ko", title: "x" } })).status,
    ).toBe(403);
    expect(await cached()).not.toBeNull();
  });
});
