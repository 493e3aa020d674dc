/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers; docs/api.md, "Write limits";
 * docs/decisions.md, "Holding up outside"): `RateLimit-Policy` lists the quota policies that apply to a request
 * (`"name";q=<quota>;w=<window seconds>`), `RateLimit` the state of one (`"name";r=<remaining>;t=<seconds to reset>`).
 * Workers Rate Limiting bindings answer only "allowed or not", so the remaining quota is known only when it is 0:
 * `RateLimit` is sent on a 429 alone, with `t` the whole window (an upper bound, like Retry-After).
 */
export interface RateLimitPolicy {
  /** The policy's name as sent (a structured-field string). */
  name: string;
  /** Requests allowed per window. */
  quota: number;
  /** The window, in seconds. */
  window: number;
}

export const RATELIMIT_POLICY_HEADER = "ratelimit-policy";
export const RATELIMIT_HEADER = "ratelimit";

/** `RateLimit-Policy`: every policy the request counts against, as one structured-field list. */
export const policyField = (policies: readonly RateLimitPolicy[]) =>
  policies.map((p) => `"${p.name}";q=${p.quota};w=${p.window}`).join(", ");

/** `RateLimit` for an exhausted policy: nothing remains, and it resets within its window. */
export const exhaustedField = (policy: RateLimitPolicy) => `"${policy.name}";r=0;t=${policy.window}`;

/** The RateLimit headers of a 429 from `policy` (beside Retry-After): the policies and the exhausted one's state. */
export const exhaustedHeaders = (policy: RateLimitPolicy, all: readonly RateLimitPolicy[] = [policy]) => ({
  [RATELIMIT_POLICY_HEADER]: policyField(all),
  [RATELIMIT_HEADER]: exhaustedField(policy),
});
