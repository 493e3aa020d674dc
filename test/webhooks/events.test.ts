// docs/decisions.md, "Events are rows written with the change; deliveries are rows made by a trigger": catalogue
// events are recorded in the same D1 batch as the write that causes them, and fan out to the subscribed endpoints of
// official applications only.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { webhookEndpoints } from "../../src/db/schema";
import { WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES } from "../../src/domain/webhook-events";
import { deleteContainer, putText } from "../../src/services/catalogue-writes";
import { api, createApplication, db, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { insertSegments, waitForJob } from "../helpers/subtitles";
import { shardOf } from "../helpers/shards";
import { allocateShardIdsStatement, firstAllocatedId } from "../../src/db/queries/shard-rows";
import { subtitles } from "../../src/db/shard-schema";
import { sql } from "drizzle-orm";
import { addEndpoint, countingDeps, deliveredTo, eventsWhere, onlyEvent } from "./events-helpers";

type Signed = Awaited<ReturnType<typeof signedInUser>>;
let staff: Signed;
/** Every catalogue event: the types of the catalogue heard by official applications. */
const CATALOGUE_EVENTS = WEBHOOK_EVENT_TYPES.filter((t) => WEBHOOK_EVENTS[t].audience === "official");
/** An official application subscribed to every catalogue event, and one to container.deleted only. */
let everything: typeof webhookEndpoints.$inferSelect;
let deletions: typeof webhookEndpoints.$inferSelect;

beforeAll(async () => {
  staff = await signedInUser({ staff: true });
  const [official, other, partner] = await Promise.all([
    createApplication({ official: true }),
    createApplication({ official: true }),
    createApplication(),
  ]);
  everything = await addEndpoint(official.id, CATALOGUE_EVENTS);
  deletions = await addEndpoint(other.id, ["container.deleted"]);
  // The endpoints API refuses catalogue events to non-official applications; the fan-out must not rely on it.
  await addEndpoint(partner.id, CATALOGUE_EVENTS);
});

describe("container.updated", () => {
  it("a PUT of the container records one event, delivered to subscribed official endpoints only", async () => {
    const c = await createContainer();
    const res = await api(`/v4/containers/${c.wireId}.json`, {
      method: "PUT",
      token: staff.token,
      json: { flags: { on_air: true }, release_date: "2020-01-02" },
    });
    expect(res.status).toBe(200);
    const { event, data } = await onlyEvent("container.updated", { container_id: c.wireId });
    expect(data).toEqual({ container_id: c.wireId, url: `${env.API_ORIGIN}/v4/containers/${c.wireId}.json` });
    expect(await deliveredTo(event.id)).toEqual([everything.id]);
  });

  it("a PUT that changes nothing writes nothing and records nothing", async () => {
    const c = await createContainer();
    expect((await api(`/v4/containers/${c.wireId}.json`, { method: "PUT", token: staff.token, json: {} })).status).toBe(200);
    expect(await eventsWhere("container.updated", { container_id: c.wireId })).toEqual([]);
  });

  it("titles and descriptions of a container: one event per write; of a video: none", async () => {
    const c = await createContainer();
    const v = await createVideo(c.id);
    const base = `/v4/containers/${c.wireId}`;
    expect(
      (await api(`${base}/titles.json`, { method: "POST", token: staff.token, json: { language_code: "fr", title: "Bonjour" } })).status,
    ).toBeLessThan(300);
    expect(
      (await api(`${base}/descriptions.json`, { method: "POST", token: staff.token, json: { language_code: "fr", description: "Texte" } }))
        .status,
    ).toBeLessThan(300);
    expect((await api(`${base}/titles/fr.json`, { method: "DELETE", token: staff.token })).status).toBeLessThan(300);
    const events = await eventsWhere("container.updated", { container_id: c.wireId });
    expect(events).toHaveLength(3);
    for (const e of events) expect(await deliveredTo(e.id)).toEqual([everything.id]);

    // A missing text is a 404 that changed nothing: no event.
    expect((await api(`${base}/descriptions/de.json`, { method: "DELETE", token: staff.token })).status).toBe(404);
    expect(await eventsWhere("container.updated", { container_id: c.wireId })).toHaveLength(3);
    expect(
      (
        await api(`/v4/videos/${v.wireId}/titles.json`, {
          method: "POST",
          token: staff.token,
          json: { language_code: "fr", title: "Épisode" },
        })
      ).status,
    ).toBeLessThan(300);
    expect(await eventsWhere("container.updated", { container_id: c.wireId })).toHaveLength(3);
  });

  it("is in the write's transaction: a batch that fails records no event, one that succeeds pumps the queue", async () => {
    const c = await createContainer();
    const { deps, pumped } = countingDeps();
    // titles.text is NOT NULL: the upsert fails inside the batch, after the event statement was queued with it.
    await expect(putText(deps, "title", { kind: "c", id: c.id }, "fr", null as unknown as string)).rejects.toThrow();
    expect(await eventsWhere("container.updated", { container_id: c.wireId })).toEqual([]);
    expect(pumped).toEqual([]);

    await putText(deps, "title", { kind: "c", id: c.id }, "fr", "Salut");
    expect(await eventsWhere("container.updated", { container_id: c.wireId })).toHaveLength(1);
    expect(pumped).toEqual([{ kind: "webhook-deliveries" }]);
  });
});

describe("container.deleted", () => {
  it("a small container deleted in its request: one event, to both subscribed official endpoints", async () => {
    const c = await createContainer();
    expect((await api(`/v4/containers/${c.wireId}.json`, { method: "DELETE", token: staff.token })).status).toBe(204);
    const { event, data } = await onlyEvent("container.deleted", { container_id: c.wireId });
    expect(data).toEqual({ container_id: c.wireId });
    expect(await deliveredTo(event.id)).toEqual([everything.id, deletions.id].sort((a, b) => a - b));
  });

  it("a large container: hidden is not deleted (no event); the job's last step records it once", async () => {
    const large = async () => {
      const c = await createContainer();
      const v = await createVideo(c.id);
      // More rows than a request deletes (CONTAINER_DELETE_SYNC_ROWS = 500), on the container's shard.
      // (D1 binds at most 100 values a statement: a segment takes 7, so 12 at a time.)
      for (let i = 0; i < 600; i += 12) {
        await insertSegments(
          v.id,
          Array.from({ length: 12 }, (_, k) => [(i + k) * 2000, (i + k) * 2000 + 1500] as [number, number]),
        );
      }
      return c;
    };
    const hidden = await large();
    const { deps } = countingDeps();
    expect(await deleteContainer(deps, hidden.id)).toBe("hidden");
    expect(await eventsWhere("container.deleted", { container_id: hidden.wireId })).toEqual([]);

    const c = await large();
    const res = await api(`/v4/containers/${c.wireId}.json`, { method: "DELETE", token: staff.token });
    expect(res.status).toBe(202);
    const { job } = (await res.json()) as { job: { id: string } };
    expect((await waitForJob(job.id, staff.token)).status).toBe("succeeded");
    const { event } = await onlyEvent("container.deleted", { container_id: c.wireId });
    expect(await deliveredTo(event.id)).toEqual([everything.id, deletions.id].sort((a, b) => a - b));
    // No container.updated for the hiding: it is part of the delete.
    expect(await eventsWhere("container.updated", { container_id: c.wireId })).toEqual([]);
  });
});

describe("subtitles.updated when a video is deleted", () => {
  it("one event per language the video had text in (cause deletion), none for a video without text", async () => {
    const c = await createContainer();
    const v = await createVideo(c.id);
    const bare = await createVideo(c.id);
    const [s1, s2] = await insertSegments(v.id, [
      [1000, 2000],
      [3000, 4000],
    ]);
    // On the container's shard (docs/decisions.md, "Subtitles on the shards"): the delete reads the languages there.
    const { shard, db: shardDb } = await shardOf(c.id);
    const texts: Array<[number, string, string]> = [
      [s1.id, "en", "Hi"],
      [s2.id, "en", "Bye"],
      [s1.id, "pt-br", "Oi"],
      [s2.id, "fr", "  "],
    ];
    await shardDb.batch([
      allocateShardIdsStatement(shardDb, shard, texts.length),
      shardDb.insert(subtitles).values(
        texts.map(([segmentId, language, text], k) => ({
          id: sql`${firstAllocatedId(shard, texts.length)} + ${k}`,
          containerId: c.id,
          segmentId,
          videoId: v.id,
          language,
          text,
        })) as never,
      ),
    ]);
    expect((await api(`/v4/videos/${v.wireId}.json`, { method: "DELETE", token: staff.token })).status).toBe(204);
    const events = await eventsWhere("subtitles.updated", { video_id: v.wireId });
    expect(events.map((e) => e.data.language).sort()).toEqual(["en", "pt-br"]);
    const { event, data } = await onlyEvent("subtitles.updated", { video_id: v.wireId, language: "pt-br" });
    expect(data).toEqual({
      video_id: v.wireId,
      container_id: c.wireId,
      language: "pt-br",
      cause: "deletion",
      video_url: `${env.API_ORIGIN}/v4/videos/${v.wireId}.json`,
      subtitles_url: `${env.API_ORIGIN}/v4/videos/${v.wireId}/subtitles/pt-br.srt`,
    });
    expect(await deliveredTo(event.id)).toEqual([everything.id]);

    expect((await api(`/v4/videos/${bare.wireId}.json`, { method: "DELETE", token: staff.token })).status).toBe(204);
    expect(await eventsWhere("subtitles.updated", { video_id: bare.wireId })).toEqual([]);
  });
});

it("rows the events cost: one per event plus one per delivery (no index entries on catalogue events)", async () => {
  const c = await createContainer();
  const { deps } = countingDeps();
  const before = await db()
    .$client.prepare("SELECT (SELECT count(*) FROM webhook_events) + (SELECT count(*) FROM webhook_deliveries) AS n")
    .first<{ n: number }>();
  await putText(deps, "description", { kind: "c", id: c.id }, "en", "Once more");
  const after = await db()
    .$client.prepare("SELECT (SELECT count(*) FROM webhook_events) + (SELECT count(*) FROM webhook_deliveries) AS n")
    .first<{ n: number }>();
  expect(after!.n - before!.n).toBe(2);
});
