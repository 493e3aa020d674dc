import { findContainer } from "../db/queries/catalogue";
import { countContainerVideos, listContainerVideos } from "../db/queries/container-videos";
import type { CONTAINER_TYPES, VIDEO_STATES, VIDEO_TYPES } from "../db/schema";
import { ApiError } from "../lib/errors";
import type { Paging } from "../lib/paging";
import type { User } from "../types";
import { caller, requireManager, requireVisibleContainer } from "./access";
import type { Deps } from "./deps";

export interface ContainerVideosFilter {
  state?: (typeof VIDEO_STATES)[number];
  type?: (typeof VIDEO_TYPES)[number];
  number?: number;
  direction?: "asc" | "desc";
}

/** Who asks: the user, if any, and the 401 to throw when pending or blocked videos are asked for without one. */
export interface Viewer {
  user: User | undefined;
  signInError: () => Error;
}

/**
 * One page of a container's videos by number. The checks run in the order the contract promises: a missing
 * container (or, on a pseudo-type path, one of another type) and one hidden from the viewer are 404; pending
 * and blocked videos need a signed-in viewer (401) who manages the container (403). One `caller` serves both
 * checks, so the manager lookup is read once.
 */
export async function containerVideosPage(
  { db }: Deps,
  viewer: Viewer,
  containerId: number,
  filter: ContainerVideosFilter,
  p: Paging,
  containerType?: (typeof CONTAINER_TYPES)[number],
) {
  const container = await findContainer(db, containerId);
  if (!container || (containerType && container.type !== containerType)) throw ApiError.notFound();
  const who = caller(db, viewer.user);
  await requireVisibleContainer(who, container);
  const state = filter.state ?? "normal";
  if (state !== "normal") {
    if (!viewer.user) throw viewer.signInError();
    await requireManager(who, { container }, "only the container's managers and staff see pending and blocked videos");
  }
  const query = { containerId: container.id, state, type: filter.type, number: filter.number };
  const rows = await listContainerVideos(db, { ...query, direction: filter.direction ?? "asc", offset: p.offset, limit: p.limit });
  return { container, rows, count: () => countContainerVideos(db, query) };
}
