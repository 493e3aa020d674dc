// The contract step of the subtitle cut-over (migrations/0039_drop_catalogue_subtitle_family.sql; docs/decisions.md,
// "Subtitles on the shards: the contract step"): applied to a catalogue migrated up to the migration before it, it
// refuses while a container's subtitles are not copied or a copy job is unfinished, leaving the database as it was, and
// otherwise drops the catalogue's subtitle family, its triggers and the copy's mark.
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { SUBTITLE_FAMILY_TABLES } from "../../src/db/shard-schema";
import { dropSchema } from "../helpers/schema";

/** The catalogue's copy of the family: the shards' tables of the same names, and the counts it kept of them. */
const FAMILY = [...SUBTITLE_FAMILY_TABLES, "contributions", "language_counts", "container_language_counts"];
const CONTRACT = env.TEST_MIGRATIONS.findIndex((m) => m.name.startsWith("0039_"));
const mentionsFamily = new RegExp(`\\b(${FAMILY.join("|")})\\b`);

const db = env.DB;
const names = async (type: string) =>
  (await db.prepare("SELECT name, sql FROM sqlite_master WHERE type = ?").bind(type).all<{ name: string; sql: string }>()).results;
const familyTables = async () => (await names("table")).map((t) => t.name).filter((n) => FAMILY.includes(n));
const familyTriggers = async () => (await names("trigger")).filter((t) => mentionsFamily.test(t.sql)).map((t) => t.name);
const directoryColumns = async () =>
  (await db.prepare("SELECT name FROM pragma_table_info('shard_directory')").all<{ name: string }>()).results.map((c) => c.name);
const applied = async () =>
  (await db.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>()).results.map((m) => m.name);

/** Everything the database holds that the refused migration must leave alone: tables, triggers, the mark, rows. */
async function state() {
  return {
    tables: await familyTables(),
    triggers: (await familyTriggers()).sort(),
    columns: await directoryColumns(),
    migrations: await applied(),
    subtitles: (await db.prepare("SELECT count(*) AS n FROM subtitles").first<{ n: number }>())!.n,
    guard: await db.prepare("SELECT name FROM sqlite_master WHERE name = 'subtitle_contract_guard'").first(),
  };
}

let container: number;

beforeAll(async () => {
  expect(CONTRACT, "migration 0039 is among the test migrations").toBeGreaterThan(0);
  await dropSchema(db);
  await applyD1Migrations(db, env.TEST_MIGRATIONS.slice(0, CONTRACT));
  // A container from before the shards held subtitles: a track in the catalogue's tables, not copied yet.
  const row = await db
    .prepare("INSERT INTO containers (type, origin_language) VALUES ('series', 'ko') RETURNING id")
    .first<{ id: number }>();
  container = row!.id;
  await db.batch([
    db.prepare("INSERT INTO videos (container_id, type, number) VALUES (?, 'episode', 1)").bind(container),
    db.prepare("INSERT INTO segments (video_id, start_ms, end_ms) SELECT id, 0, 900 FROM videos WHERE container_id = ?").bind(container),
    db
      .prepare(
        "INSERT INTO subtitles (segment_id, video_id, language, text) SELECT s.id, s.video_id, 'en', 'hello' FROM segments s JOIN videos v ON v.id = s.video_id WHERE v.container_id = ?",
      )
      .bind(container),
    db.prepare("UPDATE shard_directory SET subtitles_copied = 0 WHERE container_id = ?").bind(container),
  ]);
});

describe("migration 0039: the catalogue's subtitle family goes once every container is copied", () => {
  it("the catalogue before it: the family's 10 tables, its 15 triggers and the mark", async () => {
    expect((await familyTables()).sort()).toEqual([...FAMILY].sort());
    expect(await familyTriggers()).toHaveLength(15);
    expect(await directoryColumns()).toContain("subtitles_copied");
  });

  it("refuses while a container is not copied, naming the check, and leaves everything as it was", async () => {
    const before = await state();
    expect(before).toMatchObject({ subtitles: 1, guard: null });
    await expect(applyD1Migrations(db, env.TEST_MIGRATIONS)).rejects.toThrow(/CHECK constraint failed: every_container_copied_first/);
    expect(await state()).toEqual(before);
    expect(before.migrations).not.toContain(env.TEST_MIGRATIONS[CONTRACT].name);
  });

  it("refuses while a copy job is queued or running, though every container is copied", async () => {
    await db.prepare("UPDATE shard_directory SET subtitles_copied = 1 WHERE container_id = ?").bind(container).run();
    const job = await db
      .prepare(
        "INSERT INTO jobs (type, status, params) VALUES ('subtitle-family-copy', 'running', json_object('containerId', ?)) RETURNING id",
      )
      .bind(container)
      .first<{ id: number }>();
    const before = await state();
    await expect(applyD1Migrations(db, env.TEST_MIGRATIONS)).rejects.toThrow(/CHECK constraint failed: no_copy_job_queued_or_running/);
    expect(await state()).toEqual(before);
    await db.prepare("UPDATE jobs SET status = 'succeeded' WHERE id = ?").bind(job!.id).run();
  });

  it("runs once every container is copied: no family table, no trigger reading one, no mark; completions stay", async () => {
    await applyD1Migrations(db, env.TEST_MIGRATIONS);
    expect(await familyTables()).toEqual([]);
    expect(await familyTriggers()).toEqual([]);
    expect(await directoryColumns()).toEqual(["container_id", "shard", "moving_to", "move_started_at"]);
    expect((await applied()).at(-1)).toBe(env.TEST_MIGRATIONS.at(-1)!.name);
    expect(await db.prepare("SELECT name FROM sqlite_master WHERE name = 'subtitle_contract_guard'").first()).toBeNull();
    expect(await db.prepare("SELECT count(*) AS n FROM subtitle_completions").first("n")).toBe(0);
    // The container and its directory row are untouched, and a container made now is placed as before.
    expect(await db.prepare("SELECT count(*) AS n FROM shard_directory WHERE container_id = ?").bind(container).first("n")).toBe(1);
    const made = await db.prepare("INSERT INTO containers (type) VALUES ('film') RETURNING id").first<{ id: number }>();
    expect(await db.prepare("SELECT shard FROM shard_directory WHERE container_id = ?").bind(made!.id).first("shard")).toBeGreaterThan(0);
  });
});
