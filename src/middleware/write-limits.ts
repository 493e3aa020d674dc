import { createMiddleware } from "hono/factory";
import { ApiError } from "../lib/errors";
import type { WriteKind } from "../lib/route-properties";
import { propertiesOf } from "../lib/route-registry";
import type { AppEnv } from "../types";

/**
 * Per-user write limits (docs/decisions.md, "Write limits"; docs/api.md, "Write limits"): Workers Rate Limiting
 * bindings, one per kind of write, keyed by the user (webhook pings and redeliveries, which call receivers: by the
 * signed application), counted per Cloudflare location like the login limits. Each write route declares its kind, or
 * why it has none (`writeLimit`, src/lib/route-properties.ts); test/lib/route-properties.test.ts fails for a write that
 * says neither. Reads, and writes without their user or signed application (answered 401 by the route), are not
 * counted. The binding does not say when its window ends, so Retry-After is the window.
 */
export const WRITE_RETRY_AFTER_SECONDS = 60;

const BINDING = {
  threads: "WRITE_THREADS",
  messages: "WRITE_MESSAGES",
  timedComments: "WRITE_TIMED_COMMENTS",
  votes: "WRITE_VOTES",
  reports: "WRITE_REPORTS",
  suggestions: "WRITE_SUGGESTIONS",
  imports: "WRITE_IMPORTS",
  catalogue: "WRITE_CATALOGUE",
  webhooks: "WRITE_WEBHOOKS",
} as const satisfies Record<WriteKind, keyof Env>;

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
  if (kind && key) {
    const { success } = await c.env[BINDING[kind]].limit({ key });
    if (!success) throw ApiError.rateLimited(WRITE_RETRY_AFTER_SECONDS);
  }
  return next();
});
