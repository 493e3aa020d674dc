import { log } from "../../lib/log";
import { z } from "zod";
import { ApiError, VCODE } from "../../lib/errors";
import { jsonSyntaxErrorAt } from "../../lib/json-syntax";

/**
 * External credentials and their configuration. Everything here is read from environment vars/secrets,
 * validated with zod on first use and cached per value, so a bad value costs one parse per isolate.
 * A missing value turns the login path off (400 "not enabled"); an invalid one makes it answer 503 with a
 * clear message (the zod problems go to the log, never to the client as a stack trace).
 */
export type ExternalKind = "social" | "idp" | "retailer" | "store";
export type OidcKind = "social" | "idp";

/** The body field (v5) of each kind; v3's `social_access_token` is the social kind. */
const CREDENTIAL_FIELD = {
  social: "social_token",
  idp: "idp_token",
  retailer: "retailer_params",
  store: "store_token",
} as const satisfies Record<ExternalKind, string>;

/** Clock tolerance for every expiry/not-before check of external credentials. */
export const CLOCK_TOLERANCE_SECONDS = 60;

/** Provider, retailer names: lower case, used as the prefix of the stored link (`google:<sub>`). */
export const NAME = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, "lower-case letters, digits, _ and -, at most 32");

/** A public JWK; jose checks the key material itself when it imports it. */
export const Jwk = z.looseObject({ kty: z.enum(["RSA", "EC", "OKP"]), kid: z.string().optional() });
const Jwks = z.strictObject({ keys: z.array(Jwk).min(1).max(20) });

const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "EdDSA"] as const;
const oneOrMore = z.union([z.string().min(1).max(500), z.array(z.string().min(1).max(500)).min(1).max(10)]);

const Provider = z
  .strictObject({
    name: NAME,
    issuer: oneOrMore,
    audience: oneOrMore,
    jwks_url: z
      .url({ protocol: /^https$/ })
      .max(2000)
      .optional(),
    jwks: Jwks.optional(),
    algorithms: z.array(z.enum(ALGORITHMS)).min(1).optional(),
  })
  .refine((p) => (p.jwks_url === undefined) !== (p.jwks === undefined), "give exactly one of jwks_url and jwks");
export type OidcProvider = z.infer<typeof Provider>;

const uniqueNames = (list: OidcProvider[], ctx: z.RefinementCtx, kind: string) => {
  const names = new Set<string>();
  const issuers = new Set<string>();
  list.forEach((p, i) => {
    if (names.has(p.name)) ctx.addIssue({ code: "custom", path: [kind, i, "name"], message: "duplicate name" });
    names.add(p.name);
    for (const iss of issuerList(p)) {
      if (issuers.has(iss)) ctx.addIssue({ code: "custom", path: [kind, i, "issuer"], message: "issuer listed twice" });
      issuers.add(iss);
    }
  });
};

const IdentityProviders = z
  .strictObject({
    social: z.array(Provider).max(20).default([]),
    idp: z.array(Provider).max(20).default([]),
  })
  .superRefine((cfg, ctx) => {
    uniqueNames(cfg.social, ctx, "social");
    uniqueNames(cfg.idp, ctx, "idp");
  });

export const issuerList = (p: OidcProvider) => (Array.isArray(p.issuer) ? p.issuer : [p.issuer]);

const parsed = new Map<string, { raw: unknown; value?: unknown; error?: ApiError }>();

/**
 * The validated value of a JSON configuration var (a JSON string, or an object when wrangler.toml gives a
 * table), or null when it is not set. `field` names the login path in the 503 message.
 *
 * The log line names the var and where it is wrong, never its text: V8's JSON.parse message quotes the text around
 * the error (part of a secret, for RETAILER_SECRETS), so unreadable JSON is logged as a fixed message with the
 * position only. zod's messages name the expected shape, not the value; for a `secret` var the object keys in a
 * problem's path are given by their position too, as a secret pasted in the key's place would otherwise be logged.
 */
export function readJsonConfig<T>(
  varName: string,
  raw: unknown,
  schema: z.ZodType<T>,
  field: string,
  opts: { secret?: boolean } = {},
): T | null {
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) return null;
  const hit = parsed.get(varName);
  if (hit && hit.raw === raw) {
    if (hit.error) throw hit.error;
    return hit.value as T;
  }
  let problem: string;
  let value: unknown = raw;
  let readable = true;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      readable = false;
    }
  }
  if (readable) {
    const result = schema.safeParse(value);
    if (result.success) {
      parsed.set(varName, { raw, value: result.data });
      return result.data;
    }
    const where = (path: PropertyKey[]) => (opts.secret ? pathByPosition(value, path) : path.map(String).join(".")) || "(root)";
    problem = result.error.issues.map((i) => `${where(i.path)}: ${i.message}`).join("; ");
  } else {
    const at = jsonSyntaxErrorAt(raw as string);
    problem = `${varName} is not valid JSON${at === undefined ? "" : ` (syntax error at position ${at})`}`;
  }
  log("error", { event: "config", config: varName, problem });
  const error = ApiError.unavailable(`${field} logins are misconfigured on this server (${varName} is invalid)`);
  parsed.set(varName, { raw, error });
  throw error;
}

/** A problem's path with each object key replaced by its position among its object's keys (`#1.#2`). */
function pathByPosition(value: unknown, path: PropertyKey[]): string {
  let at = value;
  return path
    .map((segment) => {
      const container = at;
      at = container !== null && typeof container === "object" ? (container as Record<PropertyKey, unknown>)[segment] : undefined;
      if (Array.isArray(container) || typeof segment !== "string") return String(segment);
      const index = container !== null && typeof container === "object" ? Object.keys(container).indexOf(segment) : -1;
      return index < 0 ? "#?" : `#${index + 1}`;
    })
    .join(".");
}

/** The configured providers of one kind; none configured means the login path is off (400). */
export function oidcProviders(env: Env, kind: OidcKind): OidcProvider[] {
  const field = CREDENTIAL_FIELD[kind];
  const config = readJsonConfig("IDENTITY_PROVIDERS", env.IDENTITY_PROVIDERS, IdentityProviders, field);
  const list = config?.[kind] ?? [];
  if (!list.length) throw notEnabled(kind);
  return list;
}

export const notEnabled = (kind: ExternalKind) =>
  ApiError.field(CREDENTIAL_FIELD[kind], `${CREDENTIAL_FIELD[kind]} logins are not enabled on this server`);

/** A credential that fails verification: 401 with the bad-login vcode and the reason (it reveals no account). */
export const invalidCredential = (kind: ExternalKind, reason: string) =>
  new ApiError(VCODE.badLogin, `invalid ${CREDENTIAL_FIELD[kind]}: ${reason}`);
