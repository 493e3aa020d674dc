/**
 * Log lines never carry a credential (docs/api.md, "API conventions"). The interface puts session tokens in paths
 * (`/v5/sessions/<token>.json`) and in `token=`, so anything logged that may hold a URL goes through here first.
 */
const REDACTED = "[redacted]";

/**
 * Query parameters that carry a credential anywhere in the API: v4/v5 `token`, v3 OAuth (`client_secret`, `password`,
 * `social_access_token`), the v5 credential fields (never read from the query, but a client may still send them there),
 * request signatures.
 */
const SECRET_PARAMS = new Set([
  "token",
  "access_token",
  "refresh_token",
  "password",
  "client_secret",
  "social_access_token",
  "social_token",
  "idp_token",
  "retailer_params",
  "store_token",
  "sig",
  "signature",
]);

// The token segment up to an optional .json/.xml suffix; percent-encoded slashes stay inside the segment.
const SESSION_PATH = /(\/v5\/sessions\/)([^/?#\s"']+?)(\.(?:json|xml))?(?=[/?#\s"']|$)/gi;
// Every query parameter; its name is compared decoded, as the server reads it (`pass%77ord=` is `password=`).
const QUERY_PARAM = /([?&])([^=&#\s"']*)=[^&#\s"']*/g;

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " ")).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/**
 * Redacts session tokens in paths and credential query parameters. Works on a path, a full URL, or any text holding
 * URLs (an error message, a stack), so a caller never has to know which it has.
 */
export function redactUrl(text: string): string {
  return text
    .replace(SESSION_PATH, `$1${REDACTED}$3`)
    .replace(QUERY_PARAM, (param: string, sep: string, name: string) =>
      SECRET_PARAMS.has(decodedName(name)) ? `${sep}${name}=${REDACTED}` : param,
    );
}
