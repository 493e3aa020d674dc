import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { findApplication } from "../db/queries/applications";
import { claimSignature } from "../db/queries/signatures";
import { ApiError, VCODE } from "../lib/errors";
import { tryParseId } from "../lib/ids";
import {
  SIGNATURE_MAX_SKEW_SECONDS,
  SIGNATURE_VERSION_PARAM,
  type SignatureVersion,
  matchingSecret,
  signedMessageBytes,
  validSecrets,
} from "../lib/signature";
import type { AppEnv, Application } from "../types";
import { missingUser } from "./session";

/**
 * Resolves `app=<id>a` and, when the request is signed (`sig`/`t` query or `signature`/`timestamp`
 * headers), verifies the signature with the application's secret. Unsigned requests pass: public reads
 * need no signature, and routes that need an application say so with `requireApp`/`requireOfficialApp`.
 */
export const resolveApplication = createMiddleware<AppEnv>(async (c, next) => {
  // Resolved once per request: the /v5 aliases are under both the sessions' middleware and their own.
  if (c.get("application") || c.get("ignoredApp") !== undefined) return next();
  // The last of a repeated app=, as for every scalar parameter (docs/decisions.md, "Real clients: a tolerant wire contract").
  const rawApp = c.req.queries("app")?.at(-1);
  // A grant names its application and was checked when issued (docs/decisions.md, "Playback grants").
  if (rawApp !== undefined && c.get("route")?.route.properties.grantOnly) return next();
  const querySig = c.req.query("sig");
  const headerSig = c.req.header("signature");
  const signed = querySig !== undefined || headerSig !== undefined;

  if (rawApp === undefined) {
    if (signed) throw ApiError.field("app", "a signed request must name its application with app=");
    return next();
  }
  const appId = tryParseId(rawApp, "a");
  const application = appId === null ? undefined : await findApplication(c.get("db"), appId);
  if (!application) {
    if (signed) throw unknownApplication(rawApp);
    // Unsigned and unknown (yt-dlp names its own app id): as if no app= had been sent. Routes that need an
    // application still refuse it in requireApp/requireOfficialApp.
    c.set("ignoredApp", rawApp);
    await next();
    if (c.res.status !== 401) c.res.headers.set(APP_IGNORED_HEADER, "unknown");
    return;
  }

  if (signed) {
    const timestamp = querySig !== undefined ? c.req.query("t") : c.req.header("timestamp");
    const now = Math.floor(Date.now() / 1000);
    const t = Number(timestamp);
    if (!timestamp || !Number.isInteger(t)) {
      throw ApiError.field(querySig !== undefined ? "t" : "timestamp", "a signed request needs a unix timestamp");
    }
    if (Math.abs(now - t) > SIGNATURE_MAX_SKEW_SECONDS) {
      throw new ApiError(VCODE.staleTimestamp, "stale timestamp", { extra: { current_timestamp: now } });
    }
    const version = signatureVersion(c.req.query(SIGNATURE_VERSION_PARAM));
    // Read as bytes (Hono caches them) and signed as bytes, so a raw upload reaches its handler byte for byte and a
    // BOM, UTF-16 or CRLF file verifies, whatever its encoding.
    const body = c.req.method === "GET" || c.req.method === "HEAD" ? new Uint8Array() : new Uint8Array(await c.req.arrayBuffer());
    const message = signedMessageBytes(c.req.url, body, querySig === undefined ? timestamp : undefined, { version, method: c.req.method });
    const value = (querySig ?? headerSig)!;
    // During a rotation's overlap the previous secret signs too (docs/decisions.md, "Secret rotation").
    const matched = await matchingSecret(validSecrets(application, now), message, value);
    if (matched < 0) throw new ApiError(VCODE.invalidSignature, "invalid signature");
    c.set("appSigned", true);
    c.set("signature", { version, value: value.toLowerCase(), timestamp: t, ...(matched > 0 ? { previousSecret: true } : {}) });
  }
  c.set("application", application);
  return next();
});

/** `sig_v`: absent or `1` is the published clients' scheme, `2` signs the method too; anything else is a 400. */
function signatureVersion(raw: string | undefined): SignatureVersion {
  if (raw === undefined || raw === "1") return 1;
  if (raw === "2") return 2;
  throw ApiError.field(SIGNATURE_VERSION_PARAM, "the signing version is 1 (or absent) or 2");
}

/** The application the request proved with its signature; none for an unsigned `app=`, which is public. */
export const signedApplication = (c: Context<AppEnv>): Application | undefined => (c.get("appSigned") ? c.get("application") : undefined);

/** Says that the unsigned `app=` of the request names no known application and was not used. */
const APP_IGNORED_HEADER = "x-app-ignored";

const unknownApplication = (rawApp: string) =>
  new ApiError(VCODE.invalidSignature, `unknown application '${rawApp}'`, {
    details: [{ field: "app", message: "no application has this id: sign with a registered application's id and secret" }],
  });

export const requireApp = createMiddleware<AppEnv>(async (c, next) => {
  const ignored = c.get("ignoredApp");
  if (ignored !== undefined) throw unknownApplication(ignored);
  if (!c.get("application")) throw ApiError.field("app", "this route needs app=<application id>");
  return next();
});

/** Subscriptions, subtitles, completions and histories are for official applications only. */
export const requireOfficialApp = createMiddleware<AppEnv>(async (c, next) => {
  const ignored = c.get("ignoredApp");
  if (ignored !== undefined) throw unknownApplication(ignored);
  const application = c.get("application");
  if (!application) throw ApiError.field("app", "this route needs app=<application id> of an official application");
  if (!application.official) throw ApiError.forbidden("this route is restricted to official applications");
  // `app=` is public (it is in every client's URLs), so naming the official application proves nothing: only its
  // signature does.
  if (!c.get("appSigned")) {
    throw new ApiError(VCODE.invalidSignature, "official applications must sign this request", {
      details: [{ field: "sig", message: 'sign with sig and t, or the signature and timestamp headers (docs/api.md, "Signed requests")' }],
    });
  }
  return next();
});

/**
 * An application acting as itself (its webhook endpoints): any application, official or not, proven by its
 * signature, since `app=` alone is public. No user token is involved, so the signature is the only credential and a
 * write must not be replayable (docs/decisions.md, "Signed requests and replay"): it signs its method (`sig_v=2`), so
 * a captured GET cannot be sent as a DELETE, and each signature is accepted once within its timestamp window.
 * Reads keep the published clients' scheme: repeating a GET changes nothing.
 */
export const requireSignedApp = createMiddleware<AppEnv>(async (c, next) => {
  const ignored = c.get("ignoredApp");
  if (ignored !== undefined) throw unknownApplication(ignored);
  const application = c.get("application");
  if (!application) throw ApiError.field("app", "this route needs app=<application id> and a signature");
  const signature = c.get("signature");
  if (!c.get("appSigned") || !signature) {
    throw new ApiError(VCODE.invalidSignature, "an application must sign this request", {
      details: [{ field: "sig", message: 'sign with sig and t, or the signature and timestamp headers (docs/api.md, "Signed requests")' }],
    });
  }
  if (c.req.method !== "GET" && c.req.method !== "HEAD") {
    if (signature.version !== 2) {
      throw new ApiError(VCODE.invalidSignature, "a write signed by an application alone must sign its method", {
        details: [
          { field: SIGNATURE_VERSION_PARAM, message: 'add sig_v=2 to the query and sign the method too (docs/api.md, "Signed requests")' },
        ],
      });
    }
    // Keyed by application and signature; kept until the timestamp window closes, after which the request is stale.
    const key = `${application.id}:${signature.value}`;
    if (!(await claimSignature(c.get("db"), key, signature.timestamp + SIGNATURE_MAX_SKEW_SECONDS))) {
      throw new ApiError(VCODE.invalidSignature, "this signature was already used: sign every request anew", {
        details: [{ field: "sig", message: "two identical writes in one second need a nonce=<random> query parameter to differ" }],
      });
    }
  }
  return next();
});

/**
 * A user's session, or else a signed official application acting without one (the translation memory: translators are
 * users, and an official tool may ask for its own). Neither a token nor `app=`: 401 as for a user route; an `app=`
 * without a user: what `requireOfficialApp` answers (401 unsigned or unknown, 403 not official).
 */
export const requireUserOrOfficialApp = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get("user")) return next();
  if (!c.get("application") && c.get("ignoredApp") === undefined) throw missingUser(c);
  return requireOfficialApp(c, next);
});
