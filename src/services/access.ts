/**
 * Who may see and who may manage a container or a video. This is the only place a row's state is read as
 * a visibility rule; routes, services and job consumers ask here (SQL that filters `state = 'normal'`
 * inside a query is a query, not a check, and stays with its query).
 *
 * - Public: a container in the normal state; a video when it and its container are both normal.
 * - Managers: staff, and the users listed as the container's managers, see and edit its hidden rows too.
 * - Writes answer 404 to a caller who cannot see the object and 403 to one who can see but not manage it,
 *   so a write reveals nothing a read would not.
 */
import type { DB } from "../db/client";
import { isContainerManager } from "../db/queries/catalogue";
import { ApiError } from "../lib/errors";
import { formatId } from "../lib/ids";
import type { User } from "../types";

/** Anything with a state: a row, or a projection of one (`{ state: r.containerState }`). */
interface Stated {
  state: string;
}
/** A container as these rules need it: its id (to look up managers) and state. */
interface StatedContainer extends Stated {
  id: number;
}

/** The public rule, without a caller: a container alone, or a video together with its container. */
export function isVisible(container: Stated, video?: Stated): boolean {
  return container.state === "normal" && (video === undefined || video.state === "normal");
}

/** Staff see and edit everything; a container's managers see and edit their own containers. */
/** Who manages a container: staff, or a user its managers list names (`listed`, read by the caller). */
export const managesContainer = (user: Pick<User, "staff">, listed: boolean) => user.staff || listed;

export async function canManageContainer(db: DB, user: User | undefined, containerId: number) {
  if (!user) return false;
  // Staff need no lookup.
  return managesContainer(user, !user.staff && (await isContainerManager(db, containerId, user.id)));
}

/** Listed managers only, staff not implied: who may speak for a container (notifications to its subscribers). */
export async function isListedManager(db: DB, user: User | undefined, containerId: number) {
  return user ? isContainerManager(db, containerId, user.id) : false;
}

/**
 * The caller of one request or job step. Manager lookups are memoised per container for the caller's
 * lifetime, so a handler that asks twice (or a loop over rows of the same container) reads D1 once; make
 * a new one per call, since a write may change the managers.
 */
interface Caller {
  readonly db: DB;
  readonly user: User | undefined;
  manages(containerId: number): Promise<boolean>;
}

export function caller(db: DB, user: User | undefined, known?: ReadonlyMap<number, boolean>): Caller {
  // `known`: answers a batch already read (the manager row travelled with the data), so they cost no lookup.
  const memo = new Map<number, Promise<boolean>>([...(known ?? [])].map(([id, yes]) => [id, Promise.resolve(yes)]));
  return {
    db,
    user,
    manages(containerId) {
      let answer = memo.get(containerId);
      if (!answer) memo.set(containerId, (answer = canManageContainer(db, user, containerId)));
      return answer;
    },
  };
}

/** Public, or hidden but the caller manages it. Public rows cost no lookup. */
export async function canSeeContainer(who: Caller, container: StatedContainer) {
  return isVisible(container) || who.manages(container.id);
}

export async function canSeeVideo(who: Caller, found: { video: Stated; container: StatedContainer }) {
  return isVisible(found.container, found.video) || who.manages(found.container.id);
}

/** The container when the caller may see it; missing or hidden from them is the same 404. */
export async function requireVisibleContainer<C extends StatedContainer>(who: Caller, container: C | undefined): Promise<C> {
  if (!container || !(await canSeeContainer(who, container))) throw ApiError.notFound();
  return container;
}

/** A video and its container (as `findVideoWithContainer` returns them) when the caller may see the video. */
export async function requireVisibleVideo<F extends { video: Stated; container: StatedContainer }>(
  who: Caller,
  found: F | undefined,
): Promise<F> {
  if (!found || !(await canSeeVideo(who, found))) throw ApiError.notFound();
  return found;
}

const NOT_MANAGER = "only staff and the container's managers may do this";

/**
 * A container (or a video, with `video`) the caller may manage. Otherwise: 404 when it is missing or hidden
 * from them, 403 (`message`) when they can see it.
 */
export async function requireManager<F extends { container: StatedContainer; video?: Stated }>(
  who: Caller,
  found: F | undefined,
  message = NOT_MANAGER,
): Promise<F> {
  if (!found) throw ApiError.notFound();
  if (await who.manages(found.container.id)) return found;
  throw isVisible(found.container, found.video) ? ApiError.forbidden(message) : ApiError.notFound();
}

/**
 * Why a job that writes a video's subtitles may not run for its creator now, or undefined when it may. A job acts for
 * the user who queued it, so each delivery asks again what a request asks (`caller(...).manages`: staff, or a listed
 * manager of the container): rights lost since the job was queued, a staff flag taken away or an account deleted stop
 * it, and so on a staff retry, which runs the job for its creator, never with the retrier's rights (docs/decisions.md,
 * "Jobs"). The job reads the creator's row and their manager row in its first batch (`trackJobStart`).
 */
export function jobCreatorRefusal(
  creator: Pick<User, "id" | "staff"> | undefined,
  containerId: number,
  listed: boolean,
): string | undefined {
  if (!creator) return "its creator's account no longer exists";
  if (managesContainer(creator, listed)) return undefined;
  return `${formatId(creator.id, "u")} no longer manages container ${formatId(containerId, "c")} (staff or a listed manager), and the job acts for them`;
}
