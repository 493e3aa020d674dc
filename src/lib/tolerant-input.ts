import type { MiddlewareHandler } from "hono";
import type { z } from "zod";
import { ApiError } from "./errors";

/**
 * Tolerant reading of JSON request bodies (docs/api.md, "What the API tolerates"). Real clients are loose: the v4 gem sends
 * fields the server does not know (`persist`), yt-dlp posts JSON under urllib's form content type, the v4 gem's
 * caption creation puts its fields in the query string, form posts carry every value as a string. This middleware
 * runs before a route's validator and hands it one JSON object built from whatever the client sent; the route's zod
 * schema stays the single judge of what is valid, so a missing required field or an unreadable value is still a 400
 * naming the field.
 */

/** Sent back so a developer still sees a misspelt field that was ignored. */
export const IGNORED_FIELDS_HEADER = "x-ignored-fields";

const MAX_IGNORED_FIELDS_HEADER = 1024;

/**
 * The x-ignored-fields value for these names: a client chooses them, so anything outside printable ASCII (CR, LF, any
 * non-ASCII) and `%` itself are percent-encoded as UTF-8, and the list is cut at 1 KiB. It cannot throw, so the header is
 * computed before the handler commits anything (docs/decisions.md, "Real clients: a tolerant wire contract").
 */
export function ignoredFieldsValue(names: string[]): string {
  const encode = (name: string) =>
    name.replace(/[^\x20-\x24\x26-\x7e]/gu, (ch) =>
      [...new TextEncoder().encode(ch)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join(""),
    );
  let value = "";
  for (const name of names) {
    const next = value ? `${value}, ${encode(name)}` : encode(name);
    if (next.length > MAX_IGNORED_FIELDS_HEADER) return `${value}, ...`;
    value = next;
  }
  return value;
}

/**
 * Credentials are never taken from the query string (they would end up in access logs and browser history); a
 * client that puts one there gets the ordinary "required" 400 for the body field.
 */
const NEVER_FROM_QUERY = new Set(["password", "social_token", "idp_token", "retailer_params", "store_token", "client_secret"]);

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  catchall?: z.ZodType;
};
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under optional/nullable/default/pipe wrappers: what the value has to be read as. */
function baseOf(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let i = 0; i < 10; i++) {
    const def = defOf(s);
    if (def.innerType && ["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional"].includes(def.type)) {
      s = def.innerType;
    } else if (def.type === "pipe" && def.in) s = def.in;
    else break;
  }
  return s;
}

export const shapeOf = (schema: z.ZodType) => {
  const def = defOf(baseOf(schema));
  return def.type === "object" ? (def.shape ?? {}) : undefined;
};

const NUMBER = /^\s*-?\d+(\.\d+)?\s*$/;

/** Unambiguous scalars only: "12" for a number, "true"/"false"/1/0 for a boolean, a number for a string. */
function coerce(schema: z.ZodType, value: unknown): unknown {
  const base = baseOf(schema);
  const type = defOf(base).type;
  if (type === "number" || type === "int" || type === "bigint") {
    return typeof value === "string" && NUMBER.test(value) ? Number(value) : value;
  }
  if (type === "boolean") {
    if (value === 1 || (typeof value === "string" && /^(true|1)$/i.test(value.trim()))) return true;
    if (value === 0 || (typeof value === "string" && /^(false|0)$/i.test(value.trim()))) return false;
    return value;
  }
  if ((type === "string" || type === "enum" || type === "template_literal") && typeof value === "number" && Number.isFinite(value)) {
    return String(value);
  }
  if (type === "array") {
    const element = defOf(base).element;
    const items = Array.isArray(value) ? value : typeof value === "string" ? [value] : value;
    return Array.isArray(items) && element ? items.map((item) => coerce(element, item)) : items;
  }
  if (type === "object" && isPlainObject(value)) return normalise(base, value, [], "");
  return value;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Drops (and records) fields the schema does not know, coerces the rest. Records and unions are left alone. */
export function normalise(schema: z.ZodType, value: Record<string, unknown>, ignored: string[], prefix: string) {
  const shape = shapeOf(schema);
  if (!shape) return value;
  // An object with a catchall (`titles`: `en` plus any language) knows every key; its schema judges them.
  const catchall = defOf(baseOf(schema)).catchall;
  const rest = catchall && defOf(catchall).type !== "never" ? catchall : undefined;
  // Keys are the client's: `constructor` or `__proto__` must find no schema field and set no prototype.
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, v] of Object.entries(value)) {
    const field = Object.hasOwn(shape, key) ? shape[key] : rest;
    if (!field) {
      ignored.push(prefix + key);
      continue;
    }
    out[key] = isPlainObject(v) && shapeOf(field) ? normalise(field, v, ignored, `${prefix}${key}.`) : coerce(field, v);
  }
  return out;
}

/** `a=1&b=2`, with `v[]=1&v[]=2` or repeated keys as arrays and `titles[en]=x` as one level of object. */
function formFields(params: Iterable<[string, string | File]>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [rawKey, rawValue] of params) {
    if (typeof rawValue !== "string") continue;
    const m = /^([^[\]]+)\[([^[\]]*)\]$/.exec(rawKey);
    if (m && m[2] !== "") {
      const inner = (isPlainObject(out[m[1]]) ? out[m[1]] : (out[m[1]] = Object.create(null))) as Record<string, unknown>;
      inner[m[2]] = rawValue;
      continue;
    }
    const key = m ? m[1] : rawKey;
    const prev = out[key];
    if (m) out[key] = Array.isArray(prev) ? [...prev, rawValue] : [rawValue];
    else out[key] = prev === undefined ? rawValue : Array.isArray(prev) ? [...prev, rawValue] : [prev, rawValue];
  }
  return out;
}

const FORM_LIKE = /^[^=&\s{}[\]"]+=[^&]*(&[^=&\s]+=[^&]*)*$/;

/** What the client sent, as one value: JSON whatever the Content-Type says, else form fields; undefined when empty. */
export async function readBody(bytes: ArrayBuffer, contentType: string | undefined): Promise<unknown> {
  const type = (contentType ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) {
    try {
      const form = await new Request("http://body.invalid/", { method: "POST", headers: { "content-type": type }, body: bytes }).formData();
      return formFields(form.entries());
    } catch {
      throw ApiError.field("body", "the multipart body could not be read");
    }
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false })
      .decode(bytes)
      .replace(/^\uFEFF/, "")
      .trim();
  } catch {
    throw ApiError.field("body", "the body is not UTF-8 text");
  }
  if (text === "" || text === "null") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    if (type.startsWith("application/x-www-form-urlencoded") || FORM_LIKE.test(text)) {
      return formFields(new URLSearchParams(text).entries());
    }
    throw ApiError.field("body", "the body must be JSON (or form fields)");
  }
}

/**
 * The body fields of `shape` found in the query string, coerced; an array field takes repeated parameters or one
 * comma-separated value (`video_ids=1v,2v`, also in parentheses as in `ids=(1c,2c)`). Never credentials.
 */
export function queryFields(shape: Record<string, z.ZodType>, queries: (key: string) => string[] | undefined) {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    if (NEVER_FROM_QUERY.has(key)) continue;
    const all = queries(key);
    if (!all?.length) continue;
    const isArray = defOf(baseOf(field)).type === "array";
    const values =
      isArray && all.length === 1
        ? all[0]
            .replace(/^\((.*)\)$/, "$1")
            .split(",")
            .filter(Boolean)
        : all;
    out[key] = coerce(field, isArray || values.length > 1 ? values : values[0]);
  }
  return out;
}

/** The middleware for one route whose body is (or may be) a JSON object. */
function tolerantJsonBody(schema: z.ZodType, required: boolean, jsonOnly: boolean): MiddlewareHandler {
  const shape = shapeOf(schema) ?? {};
  return async (c, next) => {
    // A route that also takes raw files reads them byte for byte; only its JSON form is read tolerantly.
    if (!jsonOnly && !/^application\/([a-z0-9.+-]*\+)?json/i.test(c.req.header("content-type") ?? "")) return next();
    // Through Hono's body cache: the signature check may already have read the bytes.
    let value = await readBody(await c.req.arrayBuffer(), c.req.header("content-type"));
    const ignored: string[] = [];
    if (value === undefined || isPlainObject(value)) {
      const body = value === undefined ? {} : normalise(schema, value, ignored, "");
      let fromQuery = false;
      for (const [key, value] of Object.entries(queryFields(shape, (k) => c.req.queries(k)))) {
        if (body[key] !== undefined) continue;
        body[key] = value;
        fromQuery = true;
      }
      // An optional body that was not sent stays unsent, so the route sees exactly what it saw before.
      value = value === undefined && !fromQuery && !required ? undefined : body;
    }
    const headers = new Headers(c.req.raw.headers);
    if (value === undefined) headers.delete("content-type");
    else headers.set("content-type", "application/json");
    c.req.raw = new Request(c.req.raw.url, {
      method: c.req.raw.method,
      headers,
      body: value === undefined ? undefined : JSON.stringify(value),
    });
    // The validator reads the body through Hono's cache; forget anything an earlier middleware (the signature check) read.
    (c.req as unknown as { bodyCache: object }).bodyCache = {};
    const ignoredHeader = ignored.length ? ignoredFieldsValue(ignored) : undefined;
    await next();
    if (ignoredHeader) c.res.headers.set(IGNORED_FIELDS_HEADER, ignoredHeader);
  };
}

type RouteBody = { required?: boolean; content?: Record<string, { schema?: unknown }> } | undefined;

/** The tolerant middleware a route needs: for its query, and for its body if that is JSON only. */
export function tolerantMiddlewareFor(request: { query?: unknown; body?: RouteBody } | undefined): MiddlewareHandler[] {
  const out: MiddlewareHandler[] = [];
  if (request?.query) out.push(tolerantQuery(request.query as z.ZodType));
  const content = request?.body?.content;
  const schema = content?.["application/json"]?.schema;
  if (content && schema) {
    out.push(tolerantJsonBody(schema as z.ZodType, request.body?.required ?? false, Object.keys(content).length === 1));
  }
  return out;
}

/**
 * A scalar query parameter sent twice is read as its last value (a client appends its own `access_token` or `page` to
 * a URL that already has one) instead of a 400 for "expected string, received array".
 */
function tolerantQuery(schema: z.ZodType): MiddlewareHandler {
  const shape = shapeOf(schema) ?? {};
  const scalar = Object.keys(shape).filter((key) => defOf(baseOf(shape[key])).type !== "array");
  return async (c, next) => {
    const url = new URL(c.req.url);
    const repeated = scalar.filter((key) => url.searchParams.getAll(key).length > 1);
    if (repeated.length) {
      for (const key of repeated) url.searchParams.set(key, url.searchParams.getAll(key).at(-1)!);
      const hasBody = c.req.method !== "GET" && c.req.method !== "HEAD";
      const body = hasBody ? await c.req.arrayBuffer() : undefined;
      c.req.raw = new Request(url.toString(), { method: c.req.method, headers: c.req.raw.headers, body });
      (c.req as unknown as { bodyCache: object }).bodyCache = {};
    }
    return next();
  };
}
