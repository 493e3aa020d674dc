import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { CONTAINER_STATES, VIDEO_STATES } from "../../domain/catalogue-types";

/**
 * What the shard's own rules read of the catalogue (docs/decisions.md, "Shards: the subtitle family"): the state and
 * origin language of each of its containers and their videos, and a video's place in its container. The catalogue is
 * the authority; these rows follow it through the shard_syncs outbox (src/services/shard-facts.ts), and a writer of
 * subtitles inserts its video's row if it is missing. With them, the shard's triggers keep the translation flag and
 * the language counts in the statement that changes a subtitle, as the catalogue's did, with no second database.
 *
 * `change_id` is the last catalogue change (a shard_fact_changes id) the row reflects: a sync writes only over an
 * older one, so two syncs that overlap never leave the older facts behind. A writer's own insert has 0.
 */

export const containerFacts = sqliteTable("container_facts", {
  containerId: integer("container_id").primaryKey(),
  state: text("state", { enum: CONTAINER_STATES }).notNull(),
  originLanguage: text("origin_language").notNull(),
  changeId: integer("change_id").notNull().default(0),
});

export const videoFacts = sqliteTable(
  "video_facts",
  {
    videoId: integer("video_id").primaryKey(),
    containerId: integer("container_id").notNull(),
    state: text("state", { enum: VIDEO_STATES }).notNull(),
    /** The video's own origin language ('' when it has the container's). */
    originLanguage: text("origin_language").notNull(),
    /** Its episode number, for a container's translations in episode order. */
    number: integer("number"),
    changeId: integer("change_id").notNull().default(0),
  },
  (t) => [index("video_facts_container_state_number").on(t.containerId, t.state, t.number)],
);
