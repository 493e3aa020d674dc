import { countUserHistories, listUserHistories, type HistoryFilter } from "../db/queries/histories";
import { findUserById } from "../db/queries/users";
import { ApiError } from "../lib/errors";
import type { User } from "../types";
import type { Deps } from "./deps";

export type { HistoryFilter };

/** A user's history is theirs and staff's: anyone else is 403; staff asking for an unknown user get a 404. */
export async function requireHistoryReader(deps: Deps, reader: User, userId: number) {
  if (reader.id === userId) return;
  if (!reader.staff) throw ApiError.forbidden("only the user themself or staff may read a user's history");
  if (!(await findUserById(deps.db, userId))) throw ApiError.notFound();
}

/** Up to `limit` history rows, newest first, and the filter's count for `with_paging`. */
export async function userHistoryPage(deps: Deps, filter: HistoryFilter, offset: number, limit: number) {
  const rows = await listUserHistories(deps.db, filter, offset, limit);
  return { rows, count: () => countUserHistories(deps.db, filter) };
}
