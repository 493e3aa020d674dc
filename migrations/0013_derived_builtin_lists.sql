-- The built-in lists 2l (on air) and 6l (upcoming) are derived from the catalogue: a normal-state public
-- (hosted and licensed) container flagged `on_air` / `upcoming` is in them with no edit, and leaves when the
-- flag (or its state, or its publicity) goes. They are read at request time from these partial indexes, which
-- hold only the flagged rows in list order, so a page is one short index walk whatever the catalogue's size,
-- and a flag change shows on the next read with no trigger, job or list edit. (The terms of each WHERE are
-- repeated literally in the queries of src/db/queries/derived-lists.ts: SQLite only uses a partial index when
-- the query states its condition.) The flag leads each index, though constant in it, so the planner sees an
-- equality match that also gives the list order, and prefers it to containers_upcoming_release (upcoming, type,
-- release_date), which would need a sort and reads non-public rows.
CREATE INDEX `containers_on_air_list` ON `containers` (`on_air`, `views_recent`, `id`)
  WHERE on_air = 1 AND state = 'normal' AND hosted = 1 AND licensed = 1;
--> statement-breakpoint
CREATE INDEX `containers_upcoming_list` ON `containers` (`upcoming`, `release_date`, `id`)
  WHERE upcoming = 1 AND state = 'normal' AND hosted = 1 AND licensed = 1;
--> statement-breakpoint
-- Hand-kept items of 2l/6l no longer mean anything: the reads ignore them and PUT refuses these lists.
DELETE FROM list_items WHERE list_id IN (2, 6);
