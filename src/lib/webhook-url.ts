/**
 * Which receiver URLs a webhook endpoint may have (docs/decisions.md, "URLs are judged as written"). Pure, so the rule
 * is tested on its own with both settings of WEBHOOKS_ALLOW_LOOPBACK. It judges the URL as written: a public name that
 * resolves to a private address is not caught here, and Workers' outbound fetch cannot reach private networks anyway.
 * What it stops is the cheap abuse: receivers on this service itself, on the machine, or on an address literal of a
 * private network.
 */

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export interface WebhookUrlRules {
  /** WEBHOOKS_ALLOW_LOOPBACK === "true": local development and tests may use http(s) receivers on loopback. */
  allowLoopback: boolean;
  /** The origins of this service (the request's and API_ORIGIN): a receiver there would call the API itself. */
  selfOrigins: string[];
}

const RESERVED_SUFFIXES = [".localhost", ".local", ".internal"];

/** Host names as compared: lower case (the URL parser does it), brackets and a trailing dot dropped. */
const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");

function ipv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return m ? m.slice(1).map(Number) : null;
}

function privateIpv4([a, b]: number[]) {
  return a === 0 || a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
}

/** The eight 16-bit groups of an IPv6 literal as the URL parser writes it (compressed, hex, no embedded IPv4). */
function ipv6(host: string): number[] | null {
  if (!host.includes(":")) return null;
  const [head, tail] = host.split("::");
  const groups = (s: string | undefined) => (s ? s.split(":").map((g) => Number.parseInt(g, 16)) : []);
  const left = groups(head);
  const right = groups(tail);
  if (tail === undefined) return left.length === 8 ? left : null;
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function privateIpv6(g: number[]) {
  const zeroPrefix = g.slice(0, 5).every((x) => x === 0);
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible) reach the IPv4 address they embed.
  if (zeroPrefix && (g[5] === 0xffff || (g[5] === 0 && g[6] !== 0))) {
    return privateIpv4([g[6] >> 8, g[6] & 0xff]);
  }
  const unspecifiedOrLoopback = g.slice(0, 7).every((x) => x === 0) && (g[7] === 0 || g[7] === 1);
  return unspecifiedOrLoopback || (g[0] & 0xfe00) === 0xfc00 || (g[0] & 0xffc0) === 0xfe80;
}

/** The names and literals of this machine: the only receivers the loopback exception allows. */
function isLoopback(host: string) {
  const v4 = ipv4(host);
  if (v4) return v4[0] === 127;
  const v6 = ipv6(host);
  if (v6) return v6.slice(0, 7).every((x) => x === 0) && v6[7] === 1;
  return host === "localhost";
}

function isReserved(host: string) {
  const v4 = ipv4(host);
  if (v4) return privateIpv4(v4);
  const v6 = ipv6(host);
  if (v6) return privateIpv6(v6);
  return host === "localhost" || RESERVED_SUFFIXES.some((s) => host.endsWith(s));
}

const portOf = (u: URL) => u.port || (u.protocol === "http:" ? "80" : "443");

/**
 * Why `raw` cannot be a receiver, or null when it can. The message completes "url: ...", so the 400 names the field.
 */
export function webhookUrlProblem(raw: string, rules: WebhookUrlRules): string | null {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return `at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not an absolute URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must be an https URL";
  if (url.username || url.password) return "must not carry a user name or password";
  if (raw.includes("#")) return "must not have a fragment";
  const host = bare(url.hostname);
  if (!host) return "must name a host";
  const loopbackAllowed = rules.allowLoopback && isLoopback(host);
  if (url.protocol === "http:" && !loopbackAllowed) return "must be an https URL";
  for (const origin of rules.selfOrigins) {
    const self = URL.canParse(origin) ? new URL(origin) : null;
    const selfHost = self && bare(self.hostname);
    // Every loopback name is this machine: localhost:8787 is the same service as 127.0.0.1:8787.
    if (!selfHost || (selfHost !== host && !(isLoopback(selfHost) && isLoopback(host)))) continue;
    // On loopback only the port tells a local receiver from this service; elsewhere the whole host is ours.
    if (!loopbackAllowed || portOf(self) === portOf(url)) return "must not point at this service";
  }
  if (!loopbackAllowed && isReserved(host)) return "must not point at a loopback, private, link-local or local-only host";
  return null;
}
