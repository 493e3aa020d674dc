import { ApiError } from "../lib/errors";
import type { LicenceFilter } from "../db/queries/v3";

/**
 * `watchable_in` / `platform` of the v3 listings (coming soon, genres, search): `platform` names a licensed
 * platform in the `watchable_in` region, so alone it is a 400. The result feeds `licensedSql` in every query,
 * so all three read licences the same way (one primary-key probe per candidate).
 */
export function licenceFilter(q: { watchable_in?: string; platform?: string }): LicenceFilter {
  if (q.platform && !q.watchable_in) throw ApiError.field("platform", "platform is only usable together with watchable_in");
  return { watchableIn: q.watchable_in, platform: q.platform };
}
