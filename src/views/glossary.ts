import type { GlossaryTermRow } from "../db/schema";
import { formatId } from "../lib/ids";
import { isoTime } from "../lib/time";

/** A glossary term on the wire (docs/api.md, "Glossary"). */
export function glossaryTermView(t: GlossaryTermRow) {
  return {
    id: formatId(t.id, "k"),
    term: t.term,
    language: t.language,
    translations: t.translations,
    status: t.status,
    note: t.note,
    case_sensitive: t.caseSensitive,
    created_at: isoTime(t.createdAt)!,
    updated_at: isoTime(t.updatedAt)!,
  };
}
