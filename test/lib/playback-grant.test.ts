// The playback grant (src/lib/playback-grant.ts; docs/decisions.md, "Playback grants"): what it binds, each refusal
// with its own reason, and that it stays inside yt-dlp's unencoded URL alphabet.
import { describe, expect, it } from "vitest";
import { GRANT_TTL_SECONDS, issueGrant, verifyGrant } from "../../src/lib/playback-grant";

const SECRET = "test-v3-token-secret-0123456789abcdef";
const NOW = 1_800_000_000;
const TOKEN = "A".repeat(43);
const subject = { videoId: 12, applicationId: 3, viewerToken: TOKEN, region: "kr" };
const presented = { videoId: 12, region: "kr", caller: { applicationId: 3, viewerToken: TOKEN } };

describe("a playback grant", () => {
  it("is URL-safe, expires after the TTL and verifies for what it was issued to", async () => {
    const { grant, expiresAt } = await issueGrant(SECRET, subject, NOW);
    expect(grant).toMatch(/^[a-z0-9.-]+$/);
    expect(grant).not.toContain(TOKEN);
    expect(grant).not.toContain("mpdhd");
    expect(expiresAt).toBe(NOW + GRANT_TTL_SECONDS);
    expect(await verifyGrant(SECRET, grant, presented, NOW + 60)).toEqual({
      ok: true,
      claims: { videoId: 12, applicationId: 3, expiresAt },
    });
    // The manifest URL names no application or viewer: only video, region and expiry are checked there.
    expect((await verifyGrant(SECRET, grant, { videoId: 12, region: "KR" }, NOW)).ok).toBe(true);
  });

  it("refuses each mismatch with its own reason", async () => {
    const { grant } = await issueGrant(SECRET, subject, NOW);
    const refused = async (p: Parameters<typeof verifyGrant>[2], at = NOW) => {
      const check = await verifyGrant(SECRET, grant, p, at);
      return check.ok ? "accepted" : check.reason;
    };
    expect(await refused(presented, NOW + GRANT_TTL_SECONDS)).toBe("expired");
    expect(await refused({ ...presented, videoId: 13 })).toBe("video");
    expect(await refused({ ...presented, caller: { applicationId: 4, viewerToken: TOKEN } })).toBe("application");
    expect(await refused({ ...presented, caller: { applicationId: null, viewerToken: TOKEN } })).toBe("application");
    expect(await refused({ ...presented, caller: { applicationId: 3, viewerToken: "B".repeat(43) } })).toBe("viewer");
    expect(await refused({ ...presented, caller: { applicationId: 3 } })).toBe("viewer");
    expect(await refused({ ...presented, region: "fr" })).toBe("region");
    expect(await refused({ ...presented, region: undefined })).toBe("region");
  });

  it("an anonymous grant with no region binds to exactly that", async () => {
    const { grant } = await issueGrant(SECRET, { videoId: 12, applicationId: 3 }, NOW);
    expect((await verifyGrant(SECRET, grant, { videoId: 12, caller: { applicationId: 3 } }, NOW)).ok).toBe(true);
    const withToken = await verifyGrant(SECRET, grant, { videoId: 12, caller: { applicationId: 3, viewerToken: TOKEN } }, NOW);
    expect(withToken).toEqual({ ok: false, reason: "viewer" });
    expect(await verifyGrant(SECRET, grant, { videoId: 12, region: "us", caller: { applicationId: 3 } }, NOW)).toEqual({
      ok: false,
      reason: "region",
    });
  });

  it("is bad when altered, malformed or signed with another key, before any other reason", async () => {
    const { grant } = await issueGrant(SECRET, subject, NOW);
    const parts = grant.split(".");
    const altered = [
      [parts[0], "13", ...parts.slice(2)].join("."), // another video, old MAC
      [...parts.slice(0, 4), String(NOW + 10 * GRANT_TTL_SECONDS), ...parts.slice(5)].join("."), // a later expiry
      [...parts.slice(0, 3), "us", ...parts.slice(4)].join("."), // another region
      grant.slice(0, -1) + (grant.endsWith("0") ? "1" : "0"), // the MAC itself
    ];
    for (const bad of [...altered, "", "None", "1", `${grant}.x`, grant.toUpperCase(), "pg1." + "1".repeat(400)]) {
      expect(await verifyGrant(SECRET, bad, presented, NOW), bad.slice(0, 40)).toEqual({ ok: false, reason: "bad" });
    }
    expect(await verifyGrant("another-secret-0123456789abcdef0123", grant, presented, NOW)).toEqual({ ok: false, reason: "bad" });
    // An expired grant for another video: the MAC holds, so expiry speaks first.
    expect(await verifyGrant(SECRET, grant, { ...presented, videoId: 99 }, NOW + GRANT_TTL_SECONDS + 1)).toEqual({
      ok: false,
      reason: "expired",
    });
  });
});
