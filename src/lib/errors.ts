/** One error type for every v4/v5 failure; `renderError` in app.ts turns it into the body of docs/spec/wire.md, "Errors". */
export interface FieldProblem {
  field: string;
  message: string;
}

export const VCODE = {
  invalidSignature: 4,
  staleTimestamp: 5,
  invalidSession: 11,
  /** v3 bodies carry the HTTP status itself: a missing or invalid access token. */
  v3Unauthorized: 401,
  /** v3: an expired access token (request a new one and repeat). */
  v3Expired: 403,
  notFound: 404,
  methodNotAllowed: 405,
  internal: 500,
  tokenRequired: 4500,
  invalidInput: 5002,
  forbidden: 5403,
  conflict: 5409,
  tooLarge: 5413,
  rateLimited: 5429,
  unavailable: 5503,
  badLogin: 7403,
} as const;
type Vcode = (typeof VCODE)[keyof typeof VCODE];

/** The one table from error code to HTTP status, so a call site names only the code (docs/spec/wire.md, "Errors"). */
const STATUS_OF: Record<Vcode, number> = {
  [VCODE.invalidSignature]: 401,
  [VCODE.staleTimestamp]: 401,
  [VCODE.invalidSession]: 401,
  [VCODE.v3Unauthorized]: 401,
  [VCODE.v3Expired]: 403,
  [VCODE.notFound]: 404,
  [VCODE.methodNotAllowed]: 405,
  [VCODE.internal]: 500,
  [VCODE.tokenRequired]: 401,
  [VCODE.invalidInput]: 400,
  [VCODE.forbidden]: 403,
  [VCODE.conflict]: 409,
  [VCODE.tooLarge]: 413,
  [VCODE.rateLimited]: 429,
  [VCODE.unavailable]: 503,
  [VCODE.badLogin]: 401,
};

interface ApiErrorOptions {
  details?: FieldProblem[];
  /** Extra top-level body fields, e.g. `current_timestamp` on a stale signature. */
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Only where the interface gives a code another status (vcode 11 is 404 on GET /v5/sessions/<token>). */
  status?: number;
}

export class ApiError extends Error {
  readonly status: number;
  readonly details?: FieldProblem[];
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(
    readonly vcode: Vcode,
    message: string,
    options: ApiErrorOptions = {},
  ) {
    super(message);
    this.status = options.status ?? STATUS_OF[vcode];
    this.details = options.details;
    this.extra = options.extra;
    this.headers = options.headers;
  }

  /** An error Hono raised itself (a status with no code of ours): the status doubles as the code. */
  static http(status: number, message: string) {
    const known = (Object.values(VCODE) as number[]).includes(status) ? (status as Vcode) : VCODE.internal;
    return new ApiError(known, message, { status });
  }
  static notFound(message = "not found") {
    return new ApiError(VCODE.notFound, message);
  }
  /** A 404 whose `details` name the body field, so a client can tell which id was not found. */
  static notFoundField(field: string, message: string) {
    return new ApiError(VCODE.notFound, `${field}: ${message}`, { details: [{ field, message }] });
  }
  static invalid(details: FieldProblem[], message?: string) {
    const summary = message ?? details.map((d) => `${d.field}: ${d.message}`).join("; ");
    return new ApiError(VCODE.invalidInput, summary || "invalid input", { details });
  }
  static field(field: string, message: string) {
    return ApiError.invalid([{ field, message }]);
  }
  static forbidden(message = "forbidden") {
    return new ApiError(VCODE.forbidden, message);
  }
  static tokenRequired() {
    return new ApiError(VCODE.tokenRequired, "user token required");
  }
  static invalidSession(status?: number) {
    return new ApiError(VCODE.invalidSession, "invalid or expired session token", { status });
  }
  static conflict(message: string) {
    return new ApiError(VCODE.conflict, message);
  }
  /** The server cannot serve this request as configured (e.g. a misconfigured login provider). */
  static unavailable(message: string) {
    return new ApiError(VCODE.unavailable, message);
  }
  static tooLarge(limitBytes: number) {
    return new ApiError(VCODE.tooLarge, `request body too large (limit ${limitBytes} bytes)`);
  }
  /** A 429; `headers` adds to Retry-After (the RateLimit fields of src/lib/rate-limit-headers.ts). */
  static rateLimited(retryAfterSeconds: number, headers: Record<string, string> = {}) {
    return new ApiError(VCODE.rateLimited, "rate limited", { headers: { "retry-after": String(retryAfterSeconds), ...headers } });
  }

  toBody(requestId: string) {
    return {
      error: this.message,
      vcode: this.vcode,
      ...(this.details ? { details: this.details } : {}),
      ...this.extra,
      request_id: requestId,
    };
  }
}

/** OAuth 2.0 token endpoint errors keep the RFC 6749 body: `{error, error_description}`. */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401 | 429 | 503,
    readonly code: "invalid_request" | "invalid_client" | "invalid_grant" | "unsupported_grant_type" | "temporarily_unavailable",
    readonly description: string,
    readonly headers?: Record<string, string>,
  ) {
    super(description);
  }
}
