import { createMiddleware } from "hono/factory";
import { ApiError } from "../lib/errors";
import { RATELIMIT_POLICY_HEADER, type RateLimitPolicy, exhaustedHeaders, policyField } from "../lib/rate-limit-headers";
import type { WriteKind } from "../lib/route-properties";
import { propertiesOf } from "../lib/route-registry";
import type { AppEnv } from "../types";

/**
 * Per-user write limits (docs/decisions.md, "Write limits"; docs/api.md, "Write limits"): Workers Rate Limiting
 * bindings, one per kind of write, keyed by the user (webhook pings and redeliveries, which call receivers: by the
 * signed application), counted per Cloudflare location like the login limits. Each write route declares its kind, or
 * why it has none (`writeLimit`, src/lib/route-properties.ts); test/lib/route-properties.test.ts fails for a write that
 * says neither. Reads, and writes without their user or signed application (answered 401 by the route), are not
 * counted. The binding does not say when its window ends, so Retry-After is the window. A counted request answers
 * its policy in `RateLimit-Policy`, and a 429 adds `RateLimit` with nothing remaining (src/lib/rate-limit-headers.ts:
 * the binding cannot tell the remaining count otherwise).
 */
export const WRITE_RETRY_AFTER_SECONDS = 60;

/**
 * Each kind's binding and its limit as wrangler.toml configures it (`[[ratelimits]]`, the same in every environment):
 * the binding cannot be asked for its configuration, so the quota is repeated here for `RateLimit-Policy`, and
 * test/middleware/rate-limit-headers.test.ts fails when the two differ.
 */
export const WRITE_LIMITS = {
  threads: { binding: "WRITE_THREADS", quota: 10 },
  messages: { binding: "WRITE_MESSAGES", quota: 30 },
  timedComments: { binding: "WRITE_TIMED_COMMENTS", quota: 30 },
  votes: { binding: "WRITE_VOTES", quota: 60 },
  reports: { binding: "WRITE_REPORTS", quota: 10 },
  suggestions: { binding: "WRITE_SUGGESTIONS", quota: 30 },
  imports: { binding: "WRITE_IMPORTS", quota: 60 },
  catalogue: { binding: "WRITE_CATALOGUE", quota: 120 },
  webhooks: { binding: "WRITE_WEBHOOKS", quota: 30 },
} as const satisfies Record<WriteKind, { binding: keyof Env; quota: number }>;

/** The policy a kind answers in `RateLimit-Policy`: `"writes-<kind>";q=<quota>;w=60`. */
export const writePolicy = (kind: WriteKind): RateLimitPolicy => ({
  name: `writes-${kind}`,
  quota: WRITE_LIMITS[kind].quota,
  window: WRITE_RETRY_AFTER_SECONDS,
});

/** Kinds counted per signed application rather than per user: webhook requests an application sends as itself. */
const BY_APPLICATION = new Set<WriteKind>(["webhooks"]);

/** The limit the route at `routingPath` declares (src/lib/route-properties.ts); none for reads and unlimited writes. */
export function writeKindOf(method: string, routingPath: string): WriteKind | undefined {
  return propertiesOf(method, routingPath).writeLimit ?? undefined;
}

export const limitWrites = createMiddleware<AppEnv>(async (c, next) => {
  const kind = writeKindOf(c.req.method, c.req.path);
  const user = c.get("user");
  const application = c.get("appSigned") ? c.get("application") : undefined;
  const key = !kind ? undefined : BY_APPLICATION.has(kind) ? application && `app:${application.id}` : user && `user:${user.id}`;
  if (!kind || !key) return next();
  const policy = writePolicy(kind);
  // Set on the context, so the handler's answer and any error rendered for this request carry it.
  c.header(RATELIMIT_POLICY_HEADER, policyField([policy]));
  const { success } = await c.env[WRITE_LIMITS[kind].binding].limit({ key });
  if (!success) throw ApiError.rateLimited(WRITE_RETRY_AFTER_SECONDS, exhaustedHeaders(policy));
  return next();
});
