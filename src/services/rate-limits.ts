import { ApiError } from "../lib/errors";
import { type QuotaState, type RateLimitPolicy, exhaustedHeaders } from "../lib/rate-limit-headers";

/**
 * The one place a request is counted against a rate-limit policy (docs/decisions.md, "Rate limits"): the
 * `RateLimitCounter` Durable Object of the policy and key (src/durable/rate-limit-counter.ts) counts it in the policy's
 * window. `report` hears the state of every counted policy (depsOf sends it to the answer's `RateLimit` header); an
 * exhausted policy is a 429 whose Retry-After and `RateLimit` say when its window ends.
 */
export interface QuotaDeps {
  env: Pick<Env, "RATE_LIMITS">;
  report?: (state: QuotaState) => void;
}

export async function takeQuota(
  { env, report }: QuotaDeps,
  policy: RateLimitPolicy,
  key: string,
  /** Every policy the request counts against, for the 429's `RateLimit-Policy`. */
  all: readonly RateLimitPolicy[] = [policy],
): Promise<QuotaState> {
  const counter = env.RATE_LIMITS.get(env.RATE_LIMITS.idFromName(`${policy.name}\n${key}`));
  const { allowed, remaining, reset } = await counter.count(policy.quota, policy.window);
  const state = { policy, remaining, reset };
  if (!allowed) throw ApiError.rateLimited(reset, exhaustedHeaders(state, all));
  report?.(state);
  return state;
}
