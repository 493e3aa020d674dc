import { expect } from "vitest";
import { hmacSha1Hex } from "../../src/lib/signature";
import { api } from "../helpers";

/**
 * Requests built byte for byte the way the published clients build them (docs/clients.md). Nothing here
 * is the clients' code: each function restates what the client puts on the wire.
 */

export type Json = any;
export const now = () => Math.floor(Date.now() / 1000);

/** Addressable's component encoding: everything but ALPHA / DIGIT / "-" / "." / "_" / "~" is escaped. */
export const rubyEscape = (v: string) => encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export interface GemApp {
  wireId: string;
  secret: string;
}

export interface GemCall {
  /** The configured application (`Viki.app_id` and its salt). */
  app: GemApp;
  /** `Viki.user_token`: merged into every query when set and non-empty. */
  token?: string;
  /** url_options left after the path tokens were substituted (they become the query). */
  params?: Record<string, string | number | boolean>;
  /** The body hash of create/update/patch; `{}` when the caller gives none. Absent on fetch/destroy. */
  body?: Record<string, unknown>;
  /** The path's extension: `json` unless the class declares another default (subtitles: `srt`). */
  format?: string;
  /** The gem builds `http://` URLs unless the class says `use_ssl`; tests pass `https` where the server needs it. */
  scheme?: "http" | "https";
}

/**
 * The v4 gem (viki-api-gem 2.2.x): `<version><path>.<format>` with url_options, `app` and `token` as query
 * values sorted by name (Addressable `query_values=`), then signed: `&t=<unix s>` appended, `sig` = HMAC-SHA1
 * over path + query + the Oj-dumped body, appended as `&sig=`. Every request carries `User-Agent: viki` and
 * `Content-Type: application/json`, with or without a body.
 */
export async function gem(method: "GET" | "POST" | "PUT" | "DELETE", path: string, call: GemCall) {
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(call.params ?? {})) values[k] = String(v);
  values.app = call.app.wireId;
  if (call.token) values.token = call.token;
  const query = Object.keys(values)
    .sort()
    .map((k) => `${rubyEscape(k)}=${rubyEscape(values[k])}`)
    .join("&");
  const unsigned = `${path}.${call.format ?? "json"}?${query}&t=${now()}`;
  const body = method === "POST" || method === "PUT" ? JSON.stringify(call.body ?? {}) : undefined;
  const sig = await hmacSha1Hex(call.app.secret, `${unsigned}${body ?? ""}`);
  const url = `${call.scheme ?? "https"}://api.test${unsigned}&sig=${sig}`;
  return api(url, { method, body, headers: { "user-agent": "viki", "content-type": "application/json" } });
}

/** Python's `json.dumps` with its default separators (", " and ": "), as yt-dlp sends bodies. */
export const pyJson = (value: Record<string, unknown>) =>
  `{${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(", ")}}`;

/** Headers yt-dlp's downloader adds to every request (its std_headers), besides the extractor's own. */
export const YTDLP_STD_HEADERS = {
  "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-language": "en-us,en;q=0.5",
  "sec-fetch-mode": "navigate",
};

/** The v4/v5 error body; `field` must be named in `details`. */
export async function expectFieldError(res: Response, status: number, ...fields: string[]) {
  expect(res.status, `expected ${status} naming ${fields.join("/")}`).toBe(status);
  const body = (await res.json()) as { error: string; vcode: number; details?: { field: string; message: string }[] };
  expect(body.error).toEqual(expect.any(String));
  expect(body.vcode).toEqual(expect.any(Number));
  const named = (body.details ?? []).map((d) => d.field);
  expect(
    named.some((f) => fields.includes(f)),
    `details ${JSON.stringify(body.details)} should name ${fields.join(" or ")}`,
  ).toBe(true);
  return body;
}

/** The list shape the gem's Fetcher unwraps: `response` array and a boolean `more`. */
export async function gemList(res: Response) {
  expect(res.status).toBe(200);
  const body = (await res.json()) as { more: boolean; response: Json[]; count?: number };
  expect(typeof body.more).toBe("boolean");
  expect(Array.isArray(body.response)).toBe(true);
  return body;
}
