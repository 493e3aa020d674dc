import { env } from "cloudflare:workers";
import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  containerFacets,
  containerGenres,
  containerManagers,
  descriptions,
  licenses,
  listItems,
  lists,
  markers,
  subscriptions,
  subtitleCompletions,
  titles,
  videos,
  shardCleanups,
} from "../../src/db/schema";
import { containerRowCounts } from "../../src/db/queries/shard-rows";
import { contributions, SHARD_TABLES, timedComments } from "../../src/db/shard-schema";
import { KV_KEYS } from "../../src/services/kv-cache";
import { api, db, errorBody, staffManagerOther, type User } from "../helpers";
import { createVideo } from "../helpers/catalogue";
import { createHistories, createSubtitles } from "../helpers/localisation";
import { addTimedComment, shardOf } from "../helpers/shards";
import { del, minimal, post, put, managedBy } from "../helpers/container-writes";

let staff: User;
let manager: User;
let other: User;

beforeAll(async () => {
  ({ staff, manager, other } = await staffManagerOther());
});

describe("DELETE /v4/containers/<id>.json", () => {
  it("is staff only: 401 without a token, 403 for another user and for a manager", async () => {
    const c = await managedBy(manager);
    const none = await del(c.wireId);
    expect(none.status).toBe(401);
    expect((await errorBody(none)).vcode).toBe(4500);
    for (const u of [other, manager]) {
      const res = await del(c.wireId, u.token);
      expect(res.status).toBe(403);
      expect((await errorBody(res)).vcode).toBe(5403);
    }
    expect((await api(`/v4/containers/${c.wireId}.json`)).status).toBe(200);
    expect((await del("999999999c", staff.token)).status).toBe(404);
  });

  it("deletes the container and leaves nothing dangling", async () => {
    const c = await managedBy(manager, { titles: { ko: "삭제" }, descriptions: { en: "Gone soon" }, genres: [6], regions: ["us"] });
    const v1 = await createVideo(c.id, { title: "One" });
    const v2 = await createVideo(c.id, { type: "trailer", state: "pending" });
    const vids = [v1.id, v2.id];
    const d = db();
    await d.insert(descriptions).values({ resourceKind: "v", resourceId: v1.id, language: "en", text: "Ep" });
    await d.insert(subtitleCompletions).values([
      { resourceKind: "c", resourceId: c.id, language: "en", percent: 80 },
      { resourceKind: "v", resourceId: v1.id, language: "en", percent: 80 },
    ]);
    const [list] = await d.insert(lists).values({}).returning();
    await d.insert(listItems).values([
      { listId: list.id, position: 1, resourceKind: "c", resourceId: c.id },
      { listId: list.id, position: 2, resourceKind: "v", resourceId: v1.id },
    ]);
    for (const [kind, id] of [
      ["c", c.id],
      ["v", v1.id],
    ] as const) {
      await d.insert(subscriptions).values({ userId: other.user.id, resourceKind: kind, resourceId: id });
      await d.insert(markers).values({ userId: other.user.id, resourceKind: kind, resourceId: id });
    }
    // The subtitle family and the timed comments are on the container's shard (docs/decisions.md, "Subtitles on the
    // shards").
    await createSubtitles(v1.id, 1, { en: ["Hi"] });
    await addTimedComment({ videoId: v1.id, language: "en", userId: other.user.id, timeMs: 10, comment: "!" });
    const shard = await shardOf(c.id);
    await createHistories([{ kind: "segment", userId: other.user.id, videoId: v1.id, containerId: c.id, language: "en" }]);

    const res = await del(c.wireId, staff.token);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect((await api(`/v4/containers/${c.wireId}.json`, { token: staff.token })).status).toBe(404);
    expect((await api(`/v4/videos/${v1.wireId}.json`, { token: staff.token })).status).toBe(404);

    const polymorphic = (t: typeof titles | typeof descriptions | typeof subtitleCompletions | typeof subscriptions | typeof markers) =>
      d
        .select()
        .from(t)
        .where(and(inArray(t.resourceKind, ["c", "v"]), inArray(t.resourceId, [c.id, ...vids])));
    for (const t of [titles, descriptions, subtitleCompletions, subscriptions, markers]) {
      // Rows of other resources may share an id with another kind; none may point at ours.
      const left = (await polymorphic(t)).filter((r) => (r.resourceKind === "c" ? r.resourceId === c.id : vids.includes(r.resourceId)));
      expect(left).toEqual([]);
    }
    expect(await d.select().from(listItems).where(eq(listItems.listId, list.id))).toEqual([]);
    expect(await d.select().from(videos).where(eq(videos.containerId, c.id))).toEqual([]);
    for (const [table, column] of [
      [containerGenres, containerGenres.containerId],
      [containerManagers, containerManagers.containerId],
      [licenses, licenses.containerId],
      [containerFacets, containerFacets.containerId],
    ] as const) {
      expect(await d.select().from(table).where(eq(column, c.id))).toEqual([]);
    }
    // Its shard rows went through the cleanup outbox, drained by the deleting request: none of its tables holds a row.
    expect(await containerRowCounts(shard.db, c.id)).toEqual(Object.fromEntries(SHARD_TABLES.map((t) => [t, 0])));
    expect(await shard.db.select().from(timedComments).where(inArray(timedComments.videoId, vids))).toEqual([]);
    expect(await shard.db.select().from(contributions).where(eq(contributions.containerId, c.id))).toEqual([]);
    expect(await d.select().from(shardCleanups)).toEqual([]);
  });
});

describe("KV-cached listings are invalidated by container writes", () => {
  const cached = () => env.CACHE.get(KV_KEYS.allContainers);
  const prime = () => env.CACHE.put(KV_KEYS.allContainers, JSON.stringify([{ id: "stale" }]));

  it("on create, delete, and a change of type or state, but not on other edits", async () => {
    await prime();
    const created = await post(staff.token, minimal());
    expect(created.status).toBe(201);
    expect(await cached()).toBeNull();
    const { id } = (await created.json()) as { id: string };

    await prime();
    expect((await put(id, staff.token, { flags: { on_air: true } })).status).toBe(200);
    expect(await cached()).not.toBeNull();
    expect((await put(id, staff.token, { state: "normal" })).status).toBe(200);
    expect(await cached()).not.toBeNull();
    expect((await put(id, staff.token, { state: "blocked" })).status).toBe(200);
    expect(await cached()).toBeNull();

    await prime();
    expect((await put(id, staff.token, { type: "news" })).status).toBe(200);
    expect(await cached()).toBeNull();

    await prime();
    expect((await del(id, staff.token)).status).toBe(204);
    expect(await cached()).toBeNull();
  });

  it("not on refused writes", async () => {
    const c = await managedBy(manager);
    await prime();
    expect((await put(c.wireId, manager.token, { state: "blocked" })).status).toBe(403);
    expect((await del(c.wireId, manager.token)).status).toBe(403);
    expect(await cached()).not.toBeNull();
  });
});
