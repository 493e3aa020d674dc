import type { DB } from "../db/client";
import { findContainersByIds } from "../db/queries/catalogue";
import type { CONTAINER_TYPES } from "../db/schema";
import { tryParseId } from "../lib/ids";
import type { Application } from "../types";
import type { ContainerRow } from "../views/catalogue";

export interface ListingFilters {
  type?: (typeof CONTAINER_TYPES)[number];
  genre?: number;
  origin_country?: string;
  subtitle_completion?: string;
  family_friendly?: boolean;
  hosted?: boolean;
  licensed?: boolean;
}

/**
 * The facets (see `container_facets`) a listed container must carry. Everyone sees only public (hosted and
 * licensed) containers, whose facets are plain (`genre:6`); `hosted=0` / `licensed=0` ask for fan channels
 * instead (`unhosted` / `unlicensed`, with `x:`-prefixed facets), but only from an application with unhosted
 * access: for any other caller they are silently ignored (migration 0012).
 */
export function listingFacets(q: ListingFilters, application: Application | undefined): string[] {
  const fanChannels = application?.unhostedAccess === true;
  const unhosted = fanChannels && q.hosted === false;
  const unlicensed = fanChannels && q.licensed === false;
  const prefix = unhosted || unlicensed ? "x:" : "";
  const filters: string[] = [];
  if (q.type) filters.push(`type:${q.type}`);
  if (q.genre !== undefined) filters.push(`genre:${q.genre}`);
  if (q.origin_country) filters.push(`country:${q.origin_country}`);
  if (q.subtitle_completion) filters.push(`sub:${q.subtitle_completion}`);
  if (q.family_friendly) filters.push("family");
  const facets = filters.map((f) => prefix + f);
  if (unhosted) facets.push("unhosted");
  if (unlicensed) facets.push("unlicensed");
  if (!facets.length) facets.push("public");
  return facets;
}

/** Containers by id in the given order (one `IN` read); missing ids are skipped. */
export async function containersInOrder(db: DB, ids: number[]): Promise<ContainerRow[]> {
  const rows = await findContainersByIds(db, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * `ids=`: the requested containers in request order. Malformed, duplicate, missing and non-normal-state ids
 * (and, on a pseudo-type path, containers of another type) are dropped without an error.
 */
export async function bulkContainers(db: DB, tokens: string[], type?: ContainerRow["type"]) {
  const ids = [...new Set(tokens.map((t) => tryParseId(t, "c")).filter((id): id is number => id !== null))];
  const rows = await containersInOrder(db, ids);
  return rows.filter((r) => r.state === "normal" && (!type || r.type === type));
}
