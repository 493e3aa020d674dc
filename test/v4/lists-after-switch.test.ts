// Lists and totals across shards after a move's switch, while the source still holds the container's rows (its delete
// is under way, or its job died): the source leaves the container out until its cleanup is gone, so every row is
// listed and counted once (docs/decisions.md, "Subtitles on the shards").
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import {
  clearDerived,
  containerRowCounts,
  containerRowsAfter,
  DELETE_ORDER,
  deleteRows,
  insertRows,
} from "../../src/db/queries/shard-rows";
import { SHARD_TABLES } from "../../src/db/shard-schema";
import { api, createApplication, signedInUser, okJson } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { createHistories, createSubtitles } from "../helpers/localisation";
import { shardDbs, shardOf } from "../helpers/shards";

type Item = { id: string };
type Page = { more: boolean; response: Item[]; count?: number };
type User = Awaited<ReturnType<typeof signedInUser>>;

let app: string;
let official: string;
let alice: User;
let a: { id: number; wireId: string };
let b: { id: number; wireId: string };
let ids: { en: string[]; all: string[] };
let histories: number[];
let moved: { a: string; b: string };

const historiesOf = async (user: User, query = "") => {
  const res = await api(`/v4/users/${user.user.id}u/subtitle_histories.json?app=${official}&token=${user.token}${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Page & { response: Array<{ id: number | string }> };
};
const sorted = (xs: string[]) => [...xs].sort();

beforeAll(async () => {
  app = (await createApplication()).wireId;
  official = (await createApplication({ official: true })).wireId;
  alice = await signedInUser();
  a = await createContainer({ originLanguage: "ko" });
  b = await createContainer({ originLanguage: "ko" });
  const va = await createVideo(a.id, { number: 1 });
  const vb = await createVideo(b.id, { number: 1 });
  const sa = await createSubtitles(va.id, 2, { ko: 2, en: 2, fr: 2 });
  const sb = await createSubtitles(vb.id, 2, { ko: 2, en: 2 });
  const wire = (language?: string) =>
    [...sa.subtitles, ...sb.subtitles].filter((s) => (language ? s.language === language : s.language !== "ko")).map((s) => `${s.id}s`);
  ids = { en: wire("en"), all: wire() };
  moved = { a: sa.at("en", 0).wireId, b: sb.at("en", 0).wireId };
  const rows = await createHistories([
    { userId: alice.user.id, videoId: va.id, containerId: a.id, language: "en" },
    { userId: alice.user.id, videoId: va.id, containerId: a.id, language: "fr" },
    { userId: alice.user.id, videoId: va.id, containerId: a.id, language: "en", kind: "segment" },
    { userId: alice.user.id, videoId: vb.id, containerId: b.id, language: "en" },
    { userId: alice.user.id, videoId: vb.id, containerId: b.id, language: "en" },
  ]);
  histories = rows.map((h) => h.id);

  // The move of a to b's shard has switched: a's rows on both shards, the directory naming the target, and the
  // source's delete still pending in the cleanup outbox, as the switch leaves it.
  const source = await shardOf(a.id);
  const target = await shardOf(b.id);
  expect(source.shard).not.toBe(target.shard);
  for (const table of SHARD_TABLES) await insertRows(target.db, table, await containerRowsAfter(source.db, table, a.id, 0, 1000));
  expect((await containerRowCounts(target.db, a.id)).subtitles).toBe(6);
  // The switch alone: its trigger writes the source's cleanup (src/db/triggers/shards.sql).
  await env.DB.prepare("UPDATE shard_directory SET shard = ?1, moving_to = NULL WHERE container_id = ?2").bind(target.shard, a.id).run();
  const pending = await env.DB.prepare("SELECT shard FROM shard_cleanups WHERE container_id = ? AND video_id IS NULL").bind(a.id).all();
  expect(pending.results).toEqual([{ shard: source.shard }]);
});

describe("after a move's switch, before the source's rows are gone", () => {
  it("lists the newest translations once each, and counts them once", async () => {
    const body = (await okJson("/v4/translations.json", { app: app, query: { with_paging: "true", per_page: "25" } })) as Page;
    expect(sorted(body.response.map((t) => t.id))).toEqual(sorted(ids.all));
    expect(body.count).toBe(6);
  });

  it("lists a language's translations once each, and counts them once", async () => {
    const body = (await okJson("/v4/translations.json", { app: app, query: { to: "en", with_paging: "true" } })) as Page;
    expect(sorted(body.response.map((t) => t.id))).toEqual(sorted(ids.en));
    expect(body.count).toBe(4);
  });

  it("sums the language totals once", async () => {
    expect(await okJson("/v4/translations/languages.json", { app: app })).toEqual([
      { language: "en", count: 4 },
      { language: "fr", count: 2 },
    ]);
    expect(await okJson("/v4/captions/languages.json", { app: app })).toEqual([{ language: "ko", count: 4 }]);
  });

  it("lists and counts a user's histories once", async () => {
    const body = await historiesOf(alice, "&with_paging=true");
    expect(body.response.map((h) => Number(String(h.id).replace(/\D+$/, ""))).sort()).toEqual([...histories].sort());
    expect(body.count).toBe(5);
  });

  it("lists and counts a user's contributions once", async () => {
    const list = (await okJson(`/v4/users/${alice.user.id}u/contributions.json`, { app: app })) as Array<{
      container: { id: string };
      segments: number;
      subtitles: number;
    }>;
    expect(list.map((c) => [c.container.id, c.segments, c.subtitles]).sort()).toEqual(
      [
        [a.wireId, 1, 2],
        [b.wireId, 0, 2],
      ].sort(),
    );
    expect(await okJson(`/v4/users/${alice.user.id}u/contributions/count.json`, { app: app })).toEqual({ count: 5 });
  });
});

describe("a row named by its id after its container moved", () => {
  const queries = (res: Response) => Number(/d1-queries;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "")?.[1]);

  it("is found on the shard it moved to once the source's rows are gone, at one lookup more than on its issuer", async () => {
    // The move's delete ends: a's rows leave the source (the test shard the directory no longer names), and its cleanup.
    const target = await shardOf(a.id);
    const other = shardDbs()[target.shard === 1 ? 1 : 0];
    for (const table of DELETE_ORDER) while ((await deleteRows(other, table, a.id, null, 1000)) > 0);
    await clearDerived(other, a.id);
    await env.DB.prepare("DELETE FROM shard_cleanups WHERE container_id = ?").bind(a.id).run();
    const like = (wireId: string) => api(`/v4/translations/${wireId}/like.json?app=${app}&token=${alice.token}`, { method: "POST" });
    const onIssuer = await like(moved.b);
    expect(onIssuer.status).toBe(200);
    const elsewhere = await like(moved.a);
    expect(elsewhere.status).toBe(200);
    expect(await elsewhere.json()).toMatchObject({ id: moved.a, likes: 1 });
    expect(queries(elsewhere)).toBe(queries(onIssuer) + 1);
  });
});
