import { derivedHmacKey, hmacHex } from "./derived-keys";
import { timingSafeEqual } from "./encoding";

/**
 * The playback grant (`stream_id`; docs/decisions.md, "Playback grants"): a short-lived capability the playback streams
 * answer issues, bound to the video, the application, the viewer and the region, and checked by the manifest and
 * viewer-subtitle routes without reading D1. An HMAC over its own fields, keyed by a key derived from
 * `V3_TOKEN_SECRET` with HKDF (info `playback-grant v1`), so no new secret is needed and the v3 tokens' key itself
 * never signs anything else.
 *
 * Form: `pg1.<video>.<application>.<region|->.<expires>.<viewer|->.<mac>`: decimal ids, the lower-case region, unix
 * seconds, a 24-hex-digit tag of the session token (HMAC, so the grant reveals nothing of it) and a 32-hex-digit MAC.
 * Only `[a-z0-9.-]`: yt-dlp appends it to URLs unencoded, and hex cannot spell the `mpdhd` it rewrites in manifest URLs.
 */

/** How long a grant lasts: a long film watched with pauses, not a day. */
export const GRANT_TTL_SECONDS = 6 * 60 * 60;

const VERSION = "pg1";
const HKDF_INFO = "playback-grant v1";
const MAC_HEX = 32;
const VIEWER_HEX = 24;
const GRANT_RE = /^pg1\.([1-9][0-9]{0,14})\.([1-9][0-9]{0,14})\.([a-z0-9]{1,8}|-)\.([1-9][0-9]{0,11})\.([0-9a-f]{24}|-)\.([0-9a-f]{32})$/;

/** Why a grant is refused, each its own answer (the 403 names it). */
export const GRANT_REFUSALS = ["bad", "expired", "video", "application", "viewer", "region"] as const;
type GrantRefusal = (typeof GRANT_REFUSALS)[number];

export const GRANT_REFUSAL_TEXT: Record<GrantRefusal, string> = {
  bad: "not a playback grant of this service (malformed or altered)",
  expired: "the playback grant has expired: ask for the playback streams again",
  video: "the playback grant is for another video",
  application: "the playback grant was issued to another application",
  viewer: "the playback grant was issued to another viewer (session token)",
  region: "the playback grant was issued for another region",
};

/** Who a grant is issued to. `viewerToken`: the session token sent, when it has a session token's shape. */
interface GrantSubject {
  videoId: number;
  applicationId: number;
  viewerToken?: string;
  region?: string;
}

/** What a request presents with a grant. `caller` absent: the manifest URL names no application or viewer. */
export interface GrantPresented {
  videoId: number;
  region?: string;
  caller?: { applicationId: number | null; viewerToken?: string };
}

interface GrantClaims {
  videoId: number;
  applicationId: number;
  expiresAt: number;
}

type GrantCheck = { ok: true; claims: GrantClaims } | { ok: false; reason: GrantRefusal };

/** The grant's HMAC key, derived from `secret` for grants alone. */
const grantKey = (secret: string) => derivedHmacKey(secret, HKDF_INFO);

/** A region as the grant spells it: lower-case letters and digits, `-` for none (or for anything else). */
const regionPart = (region?: string) => {
  const r = region?.toLowerCase();
  return r && /^[a-z0-9]{1,8}$/.test(r) ? r : "-";
};

const viewerPart = async (key: CryptoKey, token?: string) => (token ? hmacHex(key, `viewer\n${token}`, VIEWER_HEX) : "-");

/** A grant for `subject`, valid GRANT_TTL_SECONDS from `now`. `secret` is V3_TOKEN_SECRET (non-empty). */
export async function issueGrant(secret: string, subject: GrantSubject, now = Math.floor(Date.now() / 1000)) {
  const key = await grantKey(secret);
  const expiresAt = now + GRANT_TTL_SECONDS;
  const viewer = await viewerPart(key, subject.viewerToken);
  const payload = [VERSION, subject.videoId, subject.applicationId, regionPart(subject.region), expiresAt, viewer].join(".");
  return { grant: `${payload}.${await hmacHex(key, payload, MAC_HEX)}`, expiresAt };
}

/**
 * Checks a grant against what the request presents, in order: its MAC (so an altered field is `bad`, never another
 * reason), expiry, video, application, viewer, region. No I/O but the key's derivation, once per isolate.
 */
export async function verifyGrant(
  secret: string,
  grant: string,
  presented: GrantPresented,
  now = Math.floor(Date.now() / 1000),
): Promise<GrantCheck> {
  const m = grant.length <= 160 ? GRANT_RE.exec(grant) : null;
  if (!m || !secret) return { ok: false, reason: "bad" };
  const [, video, application, region, expires, viewer, mac] = m;
  const key = await grantKey(secret);
  if (!timingSafeEqual(await hmacHex(key, grant.slice(0, -(MAC_HEX + 1)), MAC_HEX), mac)) return { ok: false, reason: "bad" };
  const claims = { videoId: Number(video), applicationId: Number(application), expiresAt: Number(expires) };
  if (claims.expiresAt <= now) return { ok: false, reason: "expired" };
  if (claims.videoId !== presented.videoId) return { ok: false, reason: "video" };
  const caller = presented.caller;
  if (caller && caller.applicationId !== claims.applicationId) return { ok: false, reason: "application" };
  if (caller && !timingSafeEqual(await viewerPart(key, caller.viewerToken), viewer)) return { ok: false, reason: "viewer" };
  if (regionPart(presented.region) !== region) return { ok: false, reason: "region" };
  return { ok: true, claims };
}
