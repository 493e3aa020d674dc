import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * A move's state on the shard it leaves (docs/decisions.md, "Online moves"). While a container's row here says
 * `logging`, the triggers of src/db/shard-triggers/move-fences.sql record every change of its rows in `move_changes`,
 * which the move job replays on the target after its copy; while it says `fenced`, they refuse every write of its
 * rows, whoever read the placement when, except a delete run with `passing` set in its own batch (the move's drain,
 * a cleanup). The row stays, fenced, until the move has deleted the container's rows here.
 */
const MOVE_STATES = ["logging", "fenced"] as const;
export type MoveState = (typeof MOVE_STATES)[number];

/** The text a refused write fails with: the one error handler answers it with the move's 503. */
export const FENCE_REFUSAL = "container_moving";

export const moveFences = sqliteTable("move_fences", {
  containerId: integer("container_id").primaryKey(),
  state: text("state", { enum: MOVE_STATES }).notNull(),
  /** 1 only inside the batch of a delete that may pass the fence, which sets it and puts it back around its statement. */
  passing: integer("passing").notNull().default(0),
});

/** A row of a moving container that changed after its copy began: which table, and its key as a JSON array. */
export const moveChanges = sqliteTable(
  "move_changes",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    containerId: integer("container_id").notNull(),
    tableName: text("table_name").notNull(),
    rowKey: text("row_key").notNull(),
  },
  (t) => [index("move_changes_container").on(t.containerId, t.seq)],
);
