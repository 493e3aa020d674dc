/**
 * Log lines never carry a credential (docs/api.md, "API conventions"). The interface puts session tokens in paths
 * (`/v5/sessions/<token>.json`) and in `token=`, so anything logged that may hold a URL goes through here first.
 */
export const REDACTED = "[redacted]";

/** Query parameters that carry a credential anywhere in the API (v4/v5 `token`, v3 OAuth, request signatures). */
const SECRET_PARAMS = ["token", "access_token", "refresh_token", "password", "client_secret", "sig", "signature"];

// The token segment up to an optional .json/.xml suffix; percent-encoded slashes stay inside the segment.
const SESSION_PATH = /(\/v5\/sessions\/)([^/?#\s"']+?)(\.(?:json|xml))?(?=[/?#\s"']|$)/gi;
const SECRET_QUERY = new RegExp(`([?&](?:${SECRET_PARAMS.join("|")})=)[^&#\\s"']*`, "gi");

/**
 * Redacts session tokens in paths and credential query parameters. Works on a path, a full URL, or any text holding
 * URLs (an error message, a stack), so a caller never has to know which it has.
 */
export function redactUrl(text: string): string {
  return text.replace(SESSION_PATH, `$1${REDACTED}$3`).replace(SECRET_QUERY, `$1${REDACTED}`);
}
