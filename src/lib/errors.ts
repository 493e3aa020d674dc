/** One error type for every v4/v5 failure; `renderError` in app.ts turns it into the WIRE.md body. */
export interface FieldProblem {
  field: string;
  message: string;
}

export const VCODE = {
  invalidSignature: 4,
  staleTimestamp: 5,
  invalidSession: 11,
  notFound: 404,
  methodNotAllowed: 405,
  tokenRequired: 4500,
  invalidInput: 5002,
  forbidden: 5403,
  conflict: 5409,
  tooLarge: 5413,
  rateLimited: 5429,
  unavailable: 5503,
  badLogin: 7403,
} as const;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly vcode: number,
    message: string,
    readonly details?: FieldProblem[],
    /** Extra top-level body fields, e.g. `current_timestamp` on a stale signature. */
    readonly extra?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  static notFound(message = "not found") {
    return new ApiError(404, VCODE.notFound, message);
  }
  static invalid(details: FieldProblem[], message?: string) {
    const summary = message ?? details.map((d) => `${d.field}: ${d.message}`).join("; ");
    return new ApiError(400, VCODE.invalidInput, summary || "invalid input", details);
  }
  static field(field: string, message: string) {
    return ApiError.invalid([{ field, message }]);
  }
  static forbidden(message = "forbidden") {
    return new ApiError(403, VCODE.forbidden, message);
  }
  static tokenRequired() {
    return new ApiError(401, VCODE.tokenRequired, "user token required");
  }
  static invalidSession(status = 401) {
    return new ApiError(status, VCODE.invalidSession, "invalid or expired session token");
  }
  static conflict(message: string) {
    return new ApiError(409, VCODE.conflict, message);
  }
  /** The server cannot serve this request as configured (e.g. a misconfigured login provider). */
  static unavailable(message: string) {
    return new ApiError(503, VCODE.unavailable, message);
  }
  static tooLarge(limitBytes: number) {
    return new ApiError(413, VCODE.tooLarge, `request body too large (limit ${limitBytes} bytes)`);
  }
  static rateLimited(retryAfterSeconds: number) {
    return new ApiError(429, VCODE.rateLimited, "rate limited", undefined, undefined, {
      "retry-after": String(retryAfterSeconds),
    });
  }

  toBody() {
    return {
      error: this.message,
      vcode: this.vcode,
      ...(this.details ? { details: this.details } : {}),
      ...this.extra,
    };
  }
}

/** OAuth 2.0 token endpoint errors keep the RFC 6749 body: `{error, error_description}`. */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401 | 429 | 503,
    readonly code:
      | "invalid_request"
      | "invalid_client"
      | "invalid_grant"
      | "unsupported_grant_type"
      | "temporarily_unavailable",
    readonly description: string,
    readonly headers?: Record<string, string>,
  ) {
    super(description);
  }
}
