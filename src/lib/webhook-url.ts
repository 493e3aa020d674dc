/**
 * Which receiver URLs a webhook endpoint may have (docs/decisions.md, "URLs are judged as written"). Pure, so the rule
 * is tested on its own with both settings of WEBHOOKS_ALLOW_LOOPBACK. It judges the URL as written: a public name that
 * resolves to a private address is not caught here, and Workers' outbound fetch cannot reach private networks anyway.
 * What it stops is the cheap abuse: receivers on this service itself (under any of its host names), on the machine,
 * or on an address literal that is not globally reachable (the IANA special-purpose address registries below).
 */

export const MAX_WEBHOOK_URL_LENGTH = 2048;

interface WebhookUrlRules {
  /** WEBHOOKS_ALLOW_LOOPBACK === "true": local development and tests may use http(s) receivers on loopback. */
  allowLoopback: boolean;
  /** The origins of this service (the request's and API_ORIGIN): a receiver there would call the API itself. */
  selfOrigins: string[];
  /**
   * This Worker's other host names (WEBHOOKS_SELF_HOSTS: its workers.dev names, routes, custom domains), refused
   * on any port. `*` stands for any run of characters inside one label: `*-api.acme.workers.dev` covers the preview
   * URLs of the Worker `api` on the account subdomain `acme`.
   */
  selfHosts?: string[];
}

/**
 * A registry entry: its prefix, its name and whether it is globally reachable. Anything else than `true` (`false`, or
 * `null` where the registry says N/A) is refused, and the most specific entry that holds an address decides.
 */
type Entry = readonly [prefix: string, name: string, global: boolean | null];

/**
 * The IANA IPv4 Special-Purpose Address Registry (iana-ipv4-special-registry, 2024 edition), plus multicast and the
 * former class E from the IPv4 Address Space registry (not special-purpose, but never a unicast receiver).
 */
export const IPV4_SPECIAL: readonly Entry[] = [
  ["0.0.0.0/8", "This network", false],
  ["0.0.0.0/32", "This host on this network", false],
  ["10.0.0.0/8", "Private-Use", false],
  ["100.64.0.0/10", "Shared Address Space", false],
  ["127.0.0.0/8", "Loopback", false],
  ["169.254.0.0/16", "Link Local", false],
  ["172.16.0.0/12", "Private-Use", false],
  ["192.0.0.0/24", "IETF Protocol Assignments", false],
  ["192.0.0.0/29", "IPv4 Service Continuity Prefix", false],
  ["192.0.0.8/32", "IPv4 dummy address", false],
  ["192.0.0.9/32", "Port Control Protocol Anycast", true],
  ["192.0.0.10/32", "Traversal Using Relays around NAT Anycast", true],
  ["192.0.0.170/32", "NAT64/DNS64 Discovery", false],
  ["192.0.0.171/32", "NAT64/DNS64 Discovery", false],
  ["192.0.2.0/24", "Documentation (TEST-NET-1)", false],
  ["192.31.196.0/24", "AS112-v4", true],
  ["192.52.193.0/24", "AMT", true],
  ["192.88.99.0/24", "Deprecated (6to4 Relay Anycast)", null],
  ["192.88.99.2/32", "6a44-relay anycast address", false],
  ["192.168.0.0/16", "Private-Use", false],
  ["192.175.48.0/24", "Direct Delegation AS112 Service", true],
  ["198.18.0.0/15", "Benchmarking", false],
  ["198.51.100.0/24", "Documentation (TEST-NET-2)", false],
  ["203.0.113.0/24", "Documentation (TEST-NET-3)", false],
  ["240.0.0.0/4", "Reserved", false],
  ["255.255.255.255/32", "Limited Broadcast", false],
  // IPv4 Address Space registry: multicast.
  ["224.0.0.0/4", "Multicast", false],
];

/**
 * The IANA IPv6 Special-Purpose Address Registry (iana-ipv6-special-registry, 2025 edition), plus from the IPv6 Address
 * Space registry the deprecated site-local prefix and multicast. An address under a prefix that embeds an IPv4 address
 * (IPV4_EMBEDDING) is judged by that IPv4 address instead, whatever its entry here says; everything outside 2000::/3
 * that no entry names is unallocated (IPv6 Address Space registry).
 */
export const IPV6_SPECIAL: readonly Entry[] = [
  ["::1/128", "Loopback Address", false],
  ["::/128", "Unspecified Address", false],
  ["::ffff:0:0/96", "IPv4-mapped Address", false],
  ["64:ff9b::/96", "IPv4-IPv6 Translat.", true],
  ["64:ff9b:1::/48", "IPv4-IPv6 Translat. (local use)", false],
  ["100::/64", "Discard-Only Address Block", false],
  ["100:0:0:1::/64", "Dummy IPv6 Prefix", false],
  ["2001::/23", "IETF Protocol Assignments", false],
  ["2001::/32", "TEREDO", null],
  ["2001:1::1/128", "Port Control Protocol Anycast", true],
  ["2001:1::2/128", "Traversal Using Relays around NAT Anycast", true],
  ["2001:1::3/128", "DNS-SD Service Registration Protocol Anycast", true],
  ["2001:2::/48", "Benchmarking", false],
  ["2001:3::/32", "AMT", true],
  ["2001:4:112::/48", "AS112-v6", true],
  ["2001:10::/28", "Deprecated (previously ORCHID)", null],
  ["2001:20::/28", "ORCHIDv2", true],
  ["2001:30::/28", "Drone Remote ID Protocol Entity Tags (DETs) Prefix", true],
  ["2001:db8::/32", "Documentation", false],
  ["2002::/16", "6to4", null],
  ["2620:4f:8000::/48", "Direct Delegation AS112 Service", true],
  ["3fff::/20", "Documentation", false],
  ["5f00::/16", "Segment Routing (SRv6) SIDs", false],
  ["fc00::/7", "Unique-Local", false],
  ["fe80::/10", "Link-Local Unicast", false],
  // IPv6 Address Space registry.
  ["fec0::/10", "Site-local (deprecated)", false],
  ["ff00::/8", "Multicast", false],
];

/**
 * IPv6 forms whose last or inner 32 bits are an IPv4 address that a translator or relay would reach: judged by that
 * address, whatever the registry says of the prefix itself. `at` is the bit offset of the IPv4 address.
 */
export const IPV4_EMBEDDING: ReadonlyArray<readonly [prefix: string, name: string, at: number]> = [
  ["::ffff:0:0/96", "IPv4-mapped Address", 96],
  ["::ffff:0:0:0/96", "IPv4-translated Address (SIIT)", 96],
  ["::/96", "IPv4-compatible Address (deprecated)", 96],
  ["64:ff9b::/96", "IPv4-IPv6 Translat. (NAT64)", 96],
  ["2002::/16", "6to4", 16],
];

const RESERVED_SUFFIXES = [".localhost", ".local", ".internal"];

/** Host names as compared: lower case (the URL parser does it), brackets and trailing dots dropped. */
const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, "").replace(/\.+$/, "");

function ipv4(host: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.some((p) => p > 255) ? null : parts.reduce((n, p) => n * 256 + p, 0);
}

/** An IPv6 literal as a 128-bit number; accepts the URL parser's form (compressed hex) and a dotted IPv4 tail. */
function ipv6(host: string): bigint | null {
  if (!host.includes(":")) return null;
  let text = host;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const v4 = ipv4(tail[1]);
    if (v4 === null) return null;
    text = `${text.slice(0, -tail[1].length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (s: string) => (s ? s.split(":") : []);
  const left = groups(halves[0]);
  const right = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...left, ...Array<string>(missing).fill("0"), ...right];
  if (all.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  return all.reduce((n, g) => (n << 16n) | BigInt(Number.parseInt(g, 16)), 0n);
}

interface Prefix {
  value: bigint;
  length: number;
  bits: 32 | 128;
}

function prefixOf(text: string): Prefix {
  const [address, length] = text.split("/");
  const v4 = ipv4(address);
  const value = v4 !== null ? BigInt(v4) : ipv6(address);
  if (value === null) throw new Error(`bad prefix ${text}`);
  return { value, length: Number(length), bits: v4 !== null ? 32 : 128 };
}

const holds = (p: Prefix, address: bigint) => address >> BigInt(p.bits - p.length) === p.value >> BigInt(p.bits - p.length);

const parsed = <T extends readonly [string, ...unknown[]]>(table: readonly T[]) => table.map((row) => ({ row, prefix: prefixOf(row[0]) }));
const V4 = parsed(IPV4_SPECIAL);
const V6 = parsed(IPV6_SPECIAL);
const EMBEDDING = parsed(IPV4_EMBEDDING);
const GLOBAL_UNICAST = prefixOf("2000::/3");

/** The most specific registry entry holding `address`, or undefined. */
function entryFor(table: typeof V4, address: bigint) {
  let best: (typeof V4)[number] | undefined;
  for (const e of table) if (holds(e.prefix, address) && (!best || e.prefix.length > best.prefix.length)) best = e;
  return best?.row;
}

/** Why an IPv4 address is not a receiver (its registry entry's name), or null when it is globally reachable. */
function ipv4Problem(address: number): string | null {
  const entry = entryFor(V4, BigInt(address));
  return entry && entry[2] !== true ? entry[1] : null;
}

/** The same for IPv6: an embedded IPv4 address decides for the forms that reach one. */
function ipv6Problem(address: bigint): string | null {
  const exact = entryFor(V6, address);
  // ::1 and :: sit inside ::/96 but are themselves, not IPv4 addresses.
  if (exact && exact[0].endsWith("/128")) return exact[2] === true ? null : exact[1];
  const embedding = EMBEDDING.filter((e) => holds(e.prefix, address)).sort((a, b) => b.prefix.length - a.prefix.length)[0];
  if (embedding) {
    const v4 = Number((address >> BigInt(128 - embedding.row[2] - 32)) & 0xffffffffn);
    const problem = ipv4Problem(v4);
    return problem && `${problem} (in an ${embedding.row[1]})`;
  }
  if (exact) return exact[2] === true ? null : exact[1];
  return holds(GLOBAL_UNICAST, address) ? null : "Reserved by IETF (outside 2000::/3)";
}

/** Why an address literal is not a receiver, or null; undefined when `host` is a name, not an address. */
function addressProblem(host: string): string | null | undefined {
  const v4 = ipv4(host);
  if (v4 !== null) return ipv4Problem(v4);
  const v6 = ipv6(host);
  return v6 === null ? undefined : ipv6Problem(v6);
}

/** The names and literals of this machine: the only receivers the loopback exception allows. */
function isLoopback(host: string) {
  const v4 = ipv4(host);
  if (v4 !== null) return v4 >>> 24 === 127;
  const v6 = ipv6(host);
  if (v6 !== null) return v6 === 1n;
  return host === "localhost";
}

function isReservedName(host: string) {
  return host === "localhost" || RESERVED_SUFFIXES.some((s) => host.endsWith(s));
}

/** `*` inside a label matches any run of characters but a dot; the rest compares literally, case aside. */
function hostPattern(pattern: string) {
  const escaped = bare(pattern.trim().toLowerCase())
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join("[^.]*");
  return new RegExp(`^${escaped}$`);
}

const portOf = (u: URL) => u.port || (u.protocol === "http:" ? "80" : "443");

/** Whether `raw` spells its scheme and host (and port) exactly as the URL parser writes them back, case aside. */
function writtenAsParsed(raw: string, url: URL) {
  const prefix = `${url.protocol}//${url.host}`;
  return raw.slice(0, prefix.length).toLowerCase() === prefix && /^([/?#]|$)/.test(raw.slice(prefix.length));
}

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
  // No DNS name has an empty label; one trailing dot is the root (`example.com.`), two are not (`localhost..`).
  const written = url.hostname.replace(/^\[|\]$/g, "");
  if (written.startsWith(".") || written.includes(".."))
    return "must name a host without an empty label (a leading dot or two dots in a row)";
  const host = bare(url.hostname);
  if (!host) return "must name a host";
  // The local exception takes loopback only as the parser writes it (`localhost`, `127.0.0.1`, `[::1]`): `localhost.`,
  // `127.0.0.1.` or `127.1` are judged by the production rule, so no spelling of "this machine" slips through it.
  const loopbackAllowed = rules.allowLoopback && !written.endsWith(".") && writtenAsParsed(raw, url) && isLoopback(host);
  if (url.protocol === "http:" && !loopbackAllowed) return "must be an https URL";
  for (const origin of rules.selfOrigins) {
    const self = URL.canParse(origin) ? new URL(origin) : null;
    const selfHost = self && bare(self.hostname);
    // Every loopback name is this machine: localhost:8787 is the same service as 127.0.0.1:8787.
    if (!selfHost || (selfHost !== host && !(isLoopback(selfHost) && isLoopback(host)))) continue;
    // On loopback only the port tells a local receiver from this service; elsewhere the whole host is ours.
    if (!loopbackAllowed || portOf(self) === portOf(url)) return "must not point at this service";
  }
  const selfHosts = (rules.selfHosts ?? []).filter((p) => p.trim());
  if (selfHosts.some((p) => hostPattern(p).test(host))) return "must not point at this service";
  if (loopbackAllowed) return null;
  const address = addressProblem(host);
  if (address) return `must not point at an address that is not globally reachable (${address})`;
  if (address === undefined && isReservedName(host)) return "must not point at a loopback or local-only host name";
  return null;
}
