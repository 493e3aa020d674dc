import type { ListRow } from "../db/queries/lists";
import { formatId } from "../lib/ids";
import { isoTime } from "../lib/time";
import type { ViewContext } from "../lib/view-context";
import type { ListEntry, ListSource } from "../services/lists";
import { containerView, videoView } from "./catalogue";

/**
 * The list object (docs/spec/wire.md, "Lists"): `videos` holds the ids of every item, containers (`12c`) and videos (`40v`),
 * in list order.
 */
export function listView(list: ListRow, titles: Record<string, string>, itemIds: string[], origin: string) {
  const id = formatId(list.id, "l");
  return {
    id,
    titles,
    videos: itemIds,
    created_at: isoTime(list.createdAt),
    updated_at: isoTime(list.updatedAt),
    url: { api: `${origin}/v4/lists/${id}.json` },
  };
}

/**
 * `details` beside a list page's `response` (the real service sent list metadata there). `source` says
 * whether staff curate the items or the catalogue flags derive them; a derived list changes with every
 * flag, so it has no `updated_at` of its own.
 */
export function listDetailsView(list: ListRow, titles: Record<string, string>, source: ListSource, origin: string) {
  const id = formatId(list.id, "l");
  return {
    id,
    titles,
    source,
    editable: source === "curated",
    created_at: isoTime(list.createdAt),
    updated_at: source === "curated" ? isoTime(list.updatedAt) : null,
    url: { api: `${origin}/v4/lists/${id}.json` },
  };
}

/** A list item is the full container or video object; the id suffix and `type` tell the kinds apart. */
export function listItemView(entry: ListEntry, ctx: ViewContext) {
  return entry.kind === "c" ? containerView(entry.container, ctx) : videoView(entry.video, entry.container, ctx);
}
