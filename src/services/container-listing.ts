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
 * The facets (see `container_facets`) a listed container must carry. Everyone sees only `public` (hosted
 * and licensed) containers; `hosted=0` / `licensed=0` swap that for `unhosted` / `unlicensed`, but only for
 * an application with unhosted access: for any other caller they are silently ignored.
 */
export function listingFacets(q: ListingFilters, application: Application | undefined): string[] {
  const facets: string[] = [];
  const fanChannels = application?.unhostedAccess === true;
  const unhosted = fanChannels && q.hosted === false;
  const unlicensed = fanChannels && q.licensed === false;
  if (unhosted) facets.push("unhosted");
  if (unlicensed) facets.push("unlicensed");
  if (!unhosted && !unlicensed) facets.push("public");
  if (q.type) facets.push(`type:${q.type}`);
  if (q.genre !== undefined) facets.push(`genre:${q.genre}`);
  if (q.origin_country) facets.push(`country:${q.origin_country}`);
  if (q.subtitle_completion) facets.push(`sub:${q.subtitle_completion}`);
  if (q.family_friendly) facets.push("family");
  return facets;
}

/** Containers by id in the given order (one IN query by primary key); missing ids are skipped. */
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
