import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { updatedAt } from "./columns";

/**
 * The subtitle family (segments, subtitles, histories, versions, votes, reports, caption suggestions and the counts
 * derived from them) lives on the shards: src/db/shard-schema/subtitles.ts and counts.ts (docs/decisions.md, "Shards:
 * the subtitle family"). Its value sets are kept here, where the catalogue's wire contracts and the shard schema both
 * read them. The catalogue keeps the completions, which documents and listings sort by.
 */

export const HISTORY_KINDS = ["segment", "subtitle"] as const;

export const REPORT_STATUSES = ["open", "resolved"] as const;
export const REPORT_ACTIONS = ["dismiss", "restore"] as const;

export const VERSION_CAUSES = ["import", "edit", "restore", "deletion"] as const;

/** Materialised completion percentages, kept by the completion consumer. Kind: v(ideo) or c(ontainer). */
export const subtitleCompletions = sqliteTable(
  "subtitle_completions",
  {
    resourceKind: text("resource_kind", { enum: ["c", "v"] }).notNull(),
    resourceId: integer("resource_id").notNull(),
    language: text("language").notNull(),
    percent: integer("percent").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.resourceKind, t.resourceId, t.language] }),
    index("subtitle_completions_language_percent").on(t.resourceKind, t.language, t.percent, t.resourceId),
    // Covering lookup for the derived-document triggers: without planner statistics SQLite otherwise picks
    // the language index above and scans every completion of the kind on each rebuild.
    index("subtitle_completions_resource").on(t.resourceKind, t.resourceId, t.language, t.percent),
  ],
);
