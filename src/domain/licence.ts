/**
 * Whether a container's videos may be watched here: the one licence rule (docs/decisions.md, "Playback grants"). The
 * video and container objects show its `blocking` flags (src/views/catalogue.ts) and the playback streams answer refuses
 * by it (src/services/playback-streams.ts), so the two never disagree. Pure: the caller reads the rows.
 */

/** The flags the video and container objects show, as yt-dlp reads them. No paywall exists here: always false. */
interface Blocking {
  geo: boolean;
  paywall: boolean;
  upcoming: boolean;
}

/** What the catalogue knows of a container, as the rule needs it. */
interface Licensed {
  upcoming: boolean;
  adult: boolean;
  licensed: boolean;
  /** Regions with a licence (`containers.doc.regions`, from the `licenses` table); empty: not geo-restricted. */
  regions: readonly string[];
  /**
   * Asked only when the request names its platform: whether a licence covers that platform in the viewer's region
   * (in any region when the region is unknown).
   */
  platformLicensed?: boolean;
}

/** Who asks, as far as the rule cares: the viewer's region and, for playback, the application. */
interface LicenceViewer {
  /** Lower-case country of the request (Cloudflare's `cf.country`); unknown (local, `XX`): not geo-blocked. */
  region?: string;
  /**
   * The signed application playback is for. Applications have no platform: a request names its own (`platform=`),
   * and a licence's platform is asked only then (`Licensed.platformLicensed`); `familyFriendly` keeps adult containers from it, `unhostedAccess` lets it play unlicensed ones (fan channels), as
   * it may list them. Absent on catalogue reads, whose `blocking` does not depend on the application.
   */
  application?: { familyFriendly: boolean; unhostedAccess: boolean };
}

/** Why playback is refused, in the order checked; the message of the 403 names the first. */
export const LICENCE_REFUSALS = ["upcoming", "geo", "platform", "unlicensed", "adult"] as const;
type LicenceRefusal = (typeof LICENCE_REFUSALS)[number];

interface LicenceDecision {
  blocking: Blocking;
  /** Any `blocking` flag set: what the objects show as `blocked`. */
  blocked: boolean;
  /** The first reason playback is refused, or null when it may play. */
  refusal: LicenceRefusal | null;
}

export function licenceDecision(container: Licensed, viewer: LicenceViewer): LicenceDecision {
  const region = viewer.region?.toLowerCase();
  const geo = Boolean(region && container.regions.length > 0 && !container.regions.includes(region));
  const blocking: Blocking = { geo, paywall: false, upcoming: container.upcoming };
  const app = viewer.application;
  const refused: Record<LicenceRefusal, boolean> = {
    upcoming: blocking.upcoming,
    geo,
    // Licences exist (the container is restricted) and none is for this platform here.
    platform: Boolean(app && container.regions.length > 0 && container.platformLicensed === false),
    unlicensed: Boolean(app && !container.licensed && !app.unhostedAccess),
    adult: Boolean(app?.familyFriendly && container.adult),
  };
  return {
    blocking,
    blocked: blocking.geo || blocking.upcoming || blocking.paywall,
    refusal: LICENCE_REFUSALS.find((reason) => refused[reason]) ?? null,
  };
}

/** What a refusal's message says, naming the reason. */
export const REFUSAL_TEXT: Record<LicenceRefusal, string> = {
  upcoming: "this video is not yet available (its container is upcoming)",
  geo: "this video is not licensed in your region",
  platform: "this video is not licensed on this platform in your region",
  unlicensed: "this video's container is not licensed, and this application has no unhosted access",
  adult: "this video's container is adult content, and this application is family-friendly",
};

/** A container row's licence facts (`doc.regions` is kept from the `licenses` table by triggers). */
export const licensedOf = (c: { upcoming: boolean; adult: boolean; licensed: boolean; doc: { regions: string[] } | null }): Licensed => ({
  upcoming: c.upcoming,
  adult: c.adult,
  licensed: c.licensed,
  regions: c.doc?.regions ?? [],
});

/**
 * The `watchable_in` filter of the searches: whether a container may be watched in `region` (none given: yes), by the
 * same rule as its objects' `blocking.geo`, so the filter and the flag agree.
 */
export const watchableIn = (c: Parameters<typeof licensedOf>[0], region: string | undefined) =>
  region === undefined || !licenceDecision(licensedOf(c), { region }).blocking.geo;
