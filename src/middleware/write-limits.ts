import { createMiddleware } from "hono/factory";
import { RATELIMIT_POLICY_HEADER, type RateLimitPolicy, policyField } from "../lib/rate-limit-headers";
import type { WriteKind } from "../lib/route-properties";
import { routeOf } from "../lib/route-registry";
import { depsOf } from "../services/deps";
import { takeQuota } from "../services/rate-limits";
import type { AppEnv } from "../types";

/**
 * Per-user write limits (docs/decisions.md, "Write limits" and "Rate limits"; docs/api.md, "Write limits"): one
 * policy per kind of write, counted per user (webhook pings and redeliveries, which call receivers: per signed
 * application) in 60 s windows by src/services/rate-limits.ts. Each write route declares its kind, or why it has
 * none (`writeLimit`, src/lib/route-properties.ts); test/lib/route-properties.test.ts fails for a write that says
 * neither. Reads, and writes without their user or signed application (answered 401 by the route), are not counted.
 * A counted request answers its policy in `RateLimit-Policy` and its state in `RateLimit`, a 429 included.
 */
export const WRITE_WINDOW_SECONDS = 60;

/** Requests each kind allows per user (or application) and window. */
const WRITE_LIMITS = {
  threads: 10,
  messages: 30,
  timedComments: 30,
  votes: 60,
  reports: 10,
  suggestions: 30,
  imports: 60,
  catalogue: 120,
  webhooks: 30,
  lookups: 60,
} as const satisfies Record<WriteKind, number>;

/** The policy a kind answers in `RateLimit-Policy`: `"writes-<kind>";q=<quota>;w=60`. */
export const writePolicy = (kind: WriteKind): RateLimitPolicy => ({
  name: `writes-${kind}`,
  quota: WRITE_LIMITS[kind],
  window: WRITE_WINDOW_SECONDS,
});

/** Kinds counted per signed application rather than per user: webhook requests an application sends as itself. */
const BY_APPLICATION = new Set<WriteKind>(["webhooks"]);
/** Kinds counted per user, or per signed application when it sends one without a user (translation memory lookups). */
const BY_USER_ELSE_APPLICATION = new Set<WriteKind>(["lookups"]);

/** The limit the route at `routingPath` declares (src/lib/route-properties.ts); none for reads and unlimited writes. */
export function writeKindOf(method: string, routingPath: string): WriteKind | undefined {
  return routeOf(method, routingPath)?.route.properties.writeLimit ?? undefined;
}

export const limitWrites = createMiddleware<AppEnv>(async (c, next) => {
  const kind = c.get("route")?.route.properties.writeLimit ?? undefined;
  const user = c.get("user");
  const application = c.get("appSigned") ? c.get("application") : undefined;
  const byApplication = application && `app:${application.id}`;
  const byUser = user && `user:${user.id}`;
  const key = !kind
    ? undefined
    : BY_APPLICATION.has(kind)
      ? byApplication
      : BY_USER_ELSE_APPLICATION.has(kind)
        ? (byUser ?? byApplication)
        : byUser;
  if (!kind || !key) return next();
  const policy = writePolicy(kind);
  // Set on the context, so the handler's answer and any error rendered for this request carry it.
  c.header(RATELIMIT_POLICY_HEADER, policyField([policy]));
  await takeQuota(depsOf(c), policy, key);
  return next();
});
