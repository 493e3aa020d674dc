import type { D1Stats, DB } from "./db/client";
import type { Rider } from "./db/rider";
import type { Shards } from "./db/shards";
import type { applications, users } from "./db/schema";
import type { MatchedRoute } from "./lib/route-registry";
import type { SignatureVersion } from "./lib/signature";

export type Application = typeof applications.$inferSelect;
export type User = typeof users.$inferSelect;

export type AppEnv = {
  Bindings: Env;
  Variables: {
    db: DB;
    /** The shard databases this request opens on first use (docs/decisions.md, "Shards"). */
    shards: Shards;
    d1Stats: D1Stats;
    requestId: string;
    /**
     * The route the request reaches and its path parameters, looked up once by `requestContext`
     * (src/middleware/context.ts); absent for a path no route serves. Every middleware reads its properties here.
     */
    route?: MatchedRoute;
    /** The error code of the answer, set where errors become responses (src/app.ts): a vcode, or an OAuth error. */
    errorCode?: number | string;
    /** The calling application, when the request names one with `app=`. */
    application?: Application;
    /** The user of the session token, when the request carries one. */
    user?: User;
    /**
     * A token-bearing read whose session check rides in its data batch (src/middleware/session.ts): `user` is set
     * once the check has run, and `user()` answers it from any layer that has the request's `deps`.
     */
    pendingSession?: Rider & { user(): Promise<User | undefined> };
    /** A user token was sent but not used (dead, malformed or empty): public reads answer as anonymous. */
    ignoredToken?: "invalid" | "empty";
    /** An unsigned request named an application the server does not know; public reads treat it as none. */
    ignoredApp?: string;
    /** The request carried a valid signature of `application`. */
    appSigned?: boolean;
    /**
     * The verified signature (src/middleware/application.ts): its version (2 signs the method too) and what the
     * replay check of signature-only writes records (docs/decisions.md, "Signed requests and replay").
     */
    signature?: {
      version: SignatureVersion;
      value: string;
      timestamp: number;
      /** Signed by the secret before the last rotation, still in its overlap: logged, so operators see who lags. */
      previousSecret?: boolean;
    };
    /** The edge cache found the request shareable (src/middleware/cache.ts): its answer is marked public. */
    edgeShared?: boolean;
    /** What the edge cache did, for Server-Timing: served fresh, served stale (refreshing), or computed and stored. */
    edgeCache?: "hit" | "stale" | "miss";
  };
};
