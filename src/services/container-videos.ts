import { containerManagerQuery, containerQuery } from "../db/queries/catalogue";
import { containerVideosQuery, countContainerVideosQuery } from "../db/queries/container-videos";
import { batchWith } from "../db/rider";
import type { CONTAINER_TYPES, ContainerRow, VIDEO_STATES, VIDEO_TYPES, VideoRow } from "../db/schema";
import { ApiError } from "../lib/errors";
import type { Paging } from "../lib/paging";
import type { User } from "../types";
import { caller, requireManager, requireVisibleContainer } from "./access";
import { type Deps, viewer as whoAsks } from "./deps";

interface ContainerVideosFilter {
  state?: (typeof VIDEO_STATES)[number];
  type?: (typeof VIDEO_TYPES)[number];
  number?: number;
  direction?: "asc" | "desc";
}

/** Who asks: the user, if any, and the 401 to throw when pending or blocked videos are asked for without one. */
interface Viewer {
  user: User | undefined;
  signInError: () => Error;
}

/**
 * One page of a container's videos by number. The checks run in the order the contract promises: a missing
 * container (or, on a pseudo-type path, one of another type) and one hidden from the viewer are 404; pending
 * and blocked videos need a signed-in viewer (401) who manages the container (403). One D1 batch reads the
 * container, the page, the total (`with_paging`) and, for a signed-in non-staff viewer, whether they manage it;
 * rows the checks then refuse are dropped unseen.
 */
export async function containerVideosPage(
  deps: Deps,
  viewer: Viewer,
  containerId: number,
  filter: ContainerVideosFilter,
  p: Paging,
  containerType?: (typeof CONTAINER_TYPES)[number],
) {
  const { db } = deps;
  const state = filter.state ?? "normal";
  const query = { containerId, state, type: filter.type, number: filter.number };
  const page = containerVideosQuery(db, { ...query, direction: filter.direction ?? "asc", offset: p.offset, limit: p.limit });
  // A user known before the read brings the manager row along; one whose session check rides in this batch is known
  // only after it, so a hidden container or a state filter asks for the manager row then (a second trip, rare).
  const early = viewer.user;
  const asksManager = early !== undefined && !early.staff;
  const extra = [
    ...(p.withPaging ? [countContainerVideosQuery(db, query)] : []),
    ...(asksManager ? [containerManagerQuery(db, containerId, early.id)] : []),
  ];
  const [found, rows, ...more] = (await batchWith(db, deps.session, [containerQuery(db, containerId), page, ...extra])) as [
    ContainerRow[],
    VideoRow[],
    ...unknown[][],
  ];
  const user = await whoAsks(deps, early);
  const total = p.withPaging ? ((more.shift() as Array<{ n: number }>)[0]?.n ?? 0) : 0;
  const known = asksManager ? new Map([[containerId, more.shift()!.length > 0]]) : undefined;
  const container = found[0];
  if (!container || (containerType && container.type !== containerType)) throw ApiError.notFound();
  const who = caller(db, user, known);
  await requireVisibleContainer(who, container);
  if (state !== "normal") {
    if (!user) throw viewer.signInError();
    await requireManager(who, { container }, "only the container's managers and staff see pending and blocked videos");
  }
  return { container, rows, count: async () => total };
}
