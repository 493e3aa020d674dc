/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers; docs/api.md, "Write limits";
 * docs/decisions.md, "Rate limits"): `RateLimit-Policy` lists the quota policies that apply to a request
 * (`"name";q=<quota>;w=<window seconds>`), `RateLimit` the state of each one counted
 * (`"name";r=<remaining>;t=<seconds to reset>`).
 */
export interface RateLimitPolicy {
  /** The policy's name as sent (a structured-field string). */
  name: string;
  /** Requests allowed per window. */
  quota: number;
  /** The window, in seconds. */
  window: number;
}

/** A policy as one request left it: what remains and when the window ends. */
export interface QuotaState {
  policy: RateLimitPolicy;
  remaining: number;
  /** Seconds until the quota is whole again. */
  reset: number;
}

export const RATELIMIT_POLICY_HEADER = "ratelimit-policy";
export const RATELIMIT_HEADER = "ratelimit";

/** `RateLimit-Policy`: every policy the request counts against, as one structured-field list. */
export const policyField = (policies: readonly RateLimitPolicy[]) =>
  policies.map((p) => `"${p.name}";q=${p.quota};w=${p.window}`).join(", ");

/** One item of `RateLimit`. */
export const stateItem = (state: QuotaState) => `"${state.policy.name}";r=${state.remaining};t=${state.reset}`;

/** The headers of a 429 from `state`'s policy (beside Retry-After): the policies and the exhausted one's state. */
export const exhaustedHeaders = (state: QuotaState, all: readonly RateLimitPolicy[] = [state.policy]) => ({
  [RATELIMIT_POLICY_HEADER]: policyField(all),
  [RATELIMIT_HEADER]: stateItem(state),
});
