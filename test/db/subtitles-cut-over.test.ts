// The cut-over of migration 0032 (docs/decisions.md, "Subtitles on the shards"): the containers that have subtitle rows
// in the catalogue when it runs are marked not copied; the others start on their shard at once.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { catalogueTrack, subtitlesCopied } from "../helpers/catalogue-family";

/** The migration's marking statement, as D1 applies it (the statement after the column is added). */
function markingStatement() {
  const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0032_"));
  const statement = migration?.queries.find((q) => q.includes("UPDATE `shard_directory`"));
  if (!statement) throw new Error("migration 0032 has no marking statement");
  return statement;
}

describe("migration 0032: which containers wait for their copy", () => {
  it("marks a container whose videos have catalogue segments or histories, and no other", async () => {
    const { user: author } = await createUser();
    const [withTrack, withHistory, empty, noVideos] = [
      await createContainer(),
      await createContainer(),
      await createContainer(),
      await createContainer(),
    ];
    await catalogueTrack(await createVideo(withTrack.id), "en", 3, author.id);
    const video = await createVideo(withHistory.id);
    await createVideo(empty.id);
    await env.DB.prepare(
      "INSERT INTO subtitle_histories (kind, user_id, video_id, container_id, language, version, count) VALUES ('subtitle', ?, ?, ?, 'en', 1, 1)",
    )
      .bind(author.id, video.id, withHistory.id)
      .run();
    const ids = [withTrack.id, withHistory.id, empty.id, noVideos.id];
    for (const id of ids) expect(await subtitlesCopied(id), "created since the switch").toBe(1);

    await env.DB.prepare(markingStatement()).run();

    expect(await Promise.all(ids.map(subtitlesCopied))).toEqual([0, 0, 1, 1]);
  });
});
