import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { COUNT_LIMIT } from "../../lib/paging";
import type { DB } from "../client";
import { VIDEO_STATES, VIDEO_TYPES, videos } from "../schema";

interface ContainerVideosQuery {
  containerId: number;
  state: (typeof VIDEO_STATES)[number];
  type?: (typeof VIDEO_TYPES)[number];
  number?: number;
}

/**
 * Served by index videos_container_state_type_number (with a type) or videos_container_state_number
 * (without): one range scan in number order, ties by id.
 */
function where(q: ContainerVideosQuery) {
  const parts: SQL[] = [eq(videos.containerId, q.containerId), eq(videos.state, q.state)];
  if (q.type) parts.push(eq(videos.type, q.type));
  if (q.number !== undefined) parts.push(eq(videos.number, q.number));
  return and(...parts)!;
}

type PageQuery = ContainerVideosQuery & { direction: "asc" | "desc"; offset: number; limit: number };

/** One page of a container's videos by number (`limit` is per_page + 1). Batchable. */
export function containerVideosQuery(db: DB, q: PageQuery) {
  const dir = q.direction === "desc" ? desc : asc;
  return db.select().from(videos).where(where(q)).orderBy(dir(videos.number), dir(videos.id)).limit(q.limit).offset(q.offset);
}

/** The total for `with_paging`, up to the paging ceiling's `COUNT_LIMIT` rows (batchable; one row `{n}`). */
export const countContainerVideosQuery = (db: DB, q: ContainerVideosQuery) =>
  db.select({ n: count() }).from(
    db
      .select({ one: sql`1`.as("one") })
      .from(videos)
      .where(where(q))
      .limit(COUNT_LIMIT)
      .as("capped"),
  );
