import { createMiddleware } from "hono/factory";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../types";

/**
 * Per-user write limits (issue 12; docs/api.md, "Write limits"): Workers Rate Limiting bindings, one per kind of write,
 * keyed by the user (webhook pings and redeliveries, which call receivers: by the signed application), counted per
 * Cloudflare location like the login limits. One table, matched on the routing path (`.json` stripped), so no route
 * can forget its limit. Reads, and writes without their user or signed application (answered 401 by the route), are
 * not counted. The binding does not say when its window ends, so Retry-After is the window.
 */
export const WRITE_RETRY_AFTER_SECONDS = 60;

type WriteKind = keyof typeof BINDING;

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
} as const satisfies Record<string, keyof Env>;

const TRANSLATION = "/v4/(?:translations|tranlslations)/[^/]+";
const CONTAINER_OR_VIDEO = "/v4/(?:containers|videos)/[^/]+";

/** [methods, routing path, kind]; the first match counts. */
const LIMITED: Array<[string[], RegExp, WriteKind]> = [
  [["POST"], /^\/v4\/users\/[^/]+\/threads$/, "threads"],
  [["POST"], /^\/v4\/users\/[^/]+\/threads\/[^/]+\/messages$/, "messages"],
  [["POST"], /^\/v4\/videos\/[^/]+\/timed_comments\/[^/]+$/, "timedComments"],
  [["POST"], new RegExp(`^${TRANSLATION}/(?:like|dislike)$`), "votes"],
  [["POST"], new RegExp(`^${TRANSLATION}/report$`), "reports"],
  [["POST"], /^\/v4\/captions$/, "suggestions"],
  [["POST"], /^\/v4\/videos\/[^/]+\/subtitles\/import_srt$/, "imports"],
  [["POST", "PUT", "DELETE"], /^\/v4\/(?:containers|lists)$|^\/v4\/containers\/[^/]+\/videos$/, "catalogue"],
  [["PUT", "DELETE"], new RegExp(`^${CONTAINER_OR_VIDEO}$|^/v4/lists/[^/]+$`), "catalogue"],
  [["POST", "DELETE"], new RegExp(`^${CONTAINER_OR_VIDEO}/(?:titles|descriptions)(?:/[^/]+)?$`), "catalogue"],
  [["POST"], /^\/v4\/(?:users\/[^/]+\/)?notifications$/, "catalogue"],
  [["POST"], /^\/v4\/webhooks\/[^/]+\/(?:ping|deliveries\/[^/]+\/redeliver)$/, "webhooks"],
];

/** Kinds counted per signed application rather than per user: webhook requests an application sends as itself. */
const BY_APPLICATION = new Set<WriteKind>(["webhooks"]);

export function writeKindOf(method: string, routingPath: string): WriteKind | undefined {
  return LIMITED.find(([methods, re]) => methods.includes(method) && re.test(routingPath))?.[2];
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
