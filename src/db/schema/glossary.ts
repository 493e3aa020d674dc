import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { GLOSSARY_STATUSES } from "../../domain/glossary-match";
import { containers } from "./catalogue";
import { createdAt, flag, updatedAt } from "./columns";

export { GLOSSARY_STATUSES };

/**
 * A series' glossary (docs/decisions.md, "Glossary"): the terms every episode's translators keep the same, in the
 * catalogue beside the container they belong to, and gone with it. `translations` is a JSON object, language → text.
 */
export const glossaryTerms = sqliteTable(
  "glossary_terms",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    containerId: integer("container_id")
      .notNull()
      .references(() => containers.id, { onDelete: "cascade" }),
    term: text("term").notNull(),
    language: text("language").notNull(),
    translations: text("translations", { mode: "json" }).$type<Record<string, string>>().notNull().default({}),
    status: text("status", { enum: GLOSSARY_STATUSES }).notNull().default("preferred"),
    note: text("note").notNull().default(""),
    caseSensitive: flag("case_sensitive"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // A series' page and its count (one read of the index, in id order).
    index("glossary_terms_container").on(t.containerId, t.id),
    // One entry per term and language in a series: a second one is a 409 naming `term`.
    uniqueIndex("glossary_terms_container_language_term").on(t.containerId, t.language, t.term),
  ],
);

export type GlossaryTermRow = typeof glossaryTerms.$inferSelect;
