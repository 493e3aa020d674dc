/**
 * `If-None-Match` against a representation's ETag (RFC 9110 §13.1.2): weak comparison, so `W/"x"` matches `"x"`
 * (Cloudflare weakens a strong ETag when it compresses, and clients send back what they got), and `*` matches any
 * representation that exists. The edge cache answers 304 through this both for a stored copy and for an answer it
 * just marked public, so they agree.
 */
export function ifNoneMatchHits(ifNoneMatch: string | undefined | null, etag: string | undefined | null): boolean {
  if (!ifNoneMatch || !etag) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const opaque = stripWeak(etag.trim());
  return (ifNoneMatch.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => stripWeak(tag) === opaque);
}

const stripWeak = (tag: string) => (tag.startsWith("W/") ? tag.slice(2) : tag);
