import { describe, expect, it } from "vitest";
import { IPV4_EMBEDDING, IPV4_SPECIAL, IPV6_SPECIAL, MAX_WEBHOOK_URL_LENGTH, webhookUrlProblem } from "../../src/lib/webhook-url";

const production = { allowLoopback: false, selfOrigins: ["https://api.example.com", "https://api.example.com"] };
const local = { allowLoopback: true, selfOrigins: ["http://127.0.0.1:8787", "http://127.0.0.1:8787"] };

describe("webhook receiver URLs (src/lib/webhook-url.ts)", () => {
  it("accepts public https URLs in both settings", () => {
    for (const url of [
      "https://receiver.example.com/hooks?x=1",
      "https://93.184.216.34:8443/in",
      "https://[2606:4700:4700::1111]/",
      "https://[::ffff:93.184.216.34]/", // mapped, translated, NAT64 and 6to4 forms of a public address
      "https://[64:ff9b::5db8:d822]/",
      "https://[2002:5db8:d822::1]/",
      "https://192.0.0.9/", // globally reachable entries of the registries
      "https://[2001:4:112::1]/",
      "https://172.32.0.1/",
    ]) {
      expect(webhookUrlProblem(url, production), url).toBeNull();
      expect(webhookUrlProblem(url, local), url).toBeNull();
    }
  });

  it("refuses what is not an absolute https URL without credentials or fragment", () => {
    const cases: Array<[string, RegExp]> = [
      ["file:///etc/passwd", /https/],
      ["javascript:alert(1)", /https/],
      ["data:text/plain,hi", /https/],
      ["ftp://example.com/", /https/],
      ["http://receiver.example.com/", /https/],
      ["//receiver.example.com/", /absolute/],
      ["receiver.example.com", /absolute/],
      ["https://user:secret@receiver.example.com/", /user name or password/],
      ["https://user@receiver.example.com/", /user name or password/],
      ["https://receiver.example.com/#", /fragment/],
      ["https://receiver.example.com/a#b", /fragment/],
      [`https://receiver.example.com/${"a".repeat(MAX_WEBHOOK_URL_LENGTH)}`, /2048/],
    ];
    for (const [url, problem] of cases) {
      expect(webhookUrlProblem(url, production), url).toMatch(problem);
      expect(webhookUrlProblem(url, local), url).toMatch(problem);
    }
  });

  it("refuses this service: the request's host and API_ORIGIN's, whatever the port in production", () => {
    const rules = { allowLoopback: false, selfOrigins: ["https://api.test", "https://api.example.com"] };
    for (const url of ["https://api.test/x", "https://API.example.com./x", "https://api.example.com:8443/x"]) {
      expect(webhookUrlProblem(url, rules), url).toMatch(/this service/);
    }
    // Its other names (WEBHOOKS_SELF_HOSTS): the workers.dev name, its preview URLs, other routes; any port.
    const named = { ...rules, selfHosts: ["api.*.workers.dev", "*-api.*.workers.dev", "cdn.example.com", ""] };
    for (const url of [
      "https://api.acme.workers.dev/x",
      "https://API.acme.workers.dev./x",
      "https://0a1b2c3d-api.acme.workers.dev:8443/",
      "https://cdn.example.com/",
    ]) {
      expect(webhookUrlProblem(url, named), url).toMatch(/this service/);
    }
    for (const url of ["https://other.acme.workers.dev/", "https://api.acme.workers.dev.evil.com/", "https://x.api.acme.workers.dev/"]) {
      expect(webhookUrlProblem(url, named), url).toBeNull();
    }
    // Locally the service is on loopback too: only its own port is refused, under any loopback name.
    for (const url of ["http://127.0.0.1:8787/x", "http://localhost:8787/", "http://[::1]:8787/"]) {
      expect(webhookUrlProblem(url, local), url).toMatch(/this service/);
    }
  });

  it("refuses loopback, private, link-local and local-only hosts in production", () => {
    const hosts = [
      "localhost",
      "LOCALHOST.",
      "app.localhost",
      "printer.local",
      "metadata.internal",
      "127.0.0.1",
      "127.8.9.10",
      "2130706433", // 127.0.0.1 written as one number: the URL parser normalises it
      "0x7f.1",
      "10.0.0.1",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "0.0.0.0",
      "[::1]",
      "[::]",
      "[fc00::1]",
      "[fd12:3456::1]",
      "[fe80::1]",
      "[febf::1]",
      "[::ffff:127.0.0.1]",
      "[::ffff:192.168.0.1]",
      // What the review found accepted: NAT64, translated, 6to4, site-local, multicast, shared, benchmarking, broadcast.
      "[64:ff9b::7f00:1]",
      "[64:ff9b::a9fe:a9fe]",
      "[::ffff:0:7f00:1]",
      "[2002:7f00:1::]",
      "[fec0::]",
      "[ff02::1]",
      "224.0.0.1",
      "100.64.0.1",
      "198.18.0.1",
      "255.255.255.255",
      "[64:ff9b:1::1]",
      "[2001:0:4136:e378:8000:63bf:3fff:fdd2]", // Teredo
      "[::7f00:1]", // IPv4-compatible
      "[4000::1]", // outside 2000::/3
    ];
    for (const host of hosts) expect(webhookUrlProblem(`https://${host}/hook`, production), host).toMatch(/globally reachable|local-only/);
  });

  it("locally allows http and https on 127.0.0.1, localhost and [::1], and nothing else private", () => {
    for (const url of ["http://127.0.0.1:9999/hook", "https://127.0.0.1:9443/", "http://localhost:3000/", "http://[::1]:9999/"]) {
      expect(webhookUrlProblem(url, local), url).toBeNull();
      expect(webhookUrlProblem(url, production), url).not.toBeNull();
    }
    for (const url of ["http://10.0.0.1:9999/", "https://192.168.0.2/", "http://app.localhost:9999/", "http://receiver.example.com/"]) {
      expect(webhookUrlProblem(url, local), url).not.toBeNull();
    }
  });

  it("refuses empty labels everywhere, and takes the loopback exception only as the parser writes loopback", () => {
    // Empty labels (two dots in a row, a leading dot): no DNS name has them; several dots are not one root dot.
    for (const host of [
      "localhost..",
      "LOCALHOST..",
      "localhost.%2e",
      "127.0.0.1..",
      "a..b.example.com",
      ".example.com",
      "receiver.example.com..",
      ".",
    ]) {
      const url = `https://${host}/hook`;
      expect(webhookUrlProblem(url, production), url).toMatch(/empty label/);
      expect(webhookUrlProblem(url, local), url).toMatch(/empty label/);
    }
    // One trailing dot is the DNS root: a public name keeps it, but a loopback name written so is not the exception's.
    expect(webhookUrlProblem("https://receiver.example.com./hook", production)).toBeNull();
    for (const url of [
      "https://localhost./",
      "http://localhost.:3000/",
      "https://foo.localhost./",
      "https://127.0.0.1./", // the parser drops the dot: 127.0.0.1, but not as written
      "http://127.0.0.1.:9999/",
      "http://127.1:9999/",
      "http://0x7f.0.0.1:9999/",
      "https://localhost.%2e/",
    ]) {
      expect(webhookUrlProblem(url, local), url).not.toBeNull();
      expect(webhookUrlProblem(url, production), url).not.toBeNull();
    }
  });

  describe("address literals, from the IANA special-purpose registries (src/lib/webhook-url.ts)", () => {
    const v4 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
    const v4Number = (a: string) => a.split(".").reduce((n, p) => n * 256 + Number(p), 0);
    /** The first and last address of a prefix. */
    function ends4(prefix: string): [string, string] {
      const [a, len] = prefix.split("/");
      const first = v4Number(a);
      return [v4(first), v4(first + 2 ** (32 - Number(len)) - 1)];
    }
    const hex6 = (n: bigint) => `[${Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(":")}]`;
    function number6(a: string): bigint {
      const [l, r = ""] = a.split("::");
      const left = l ? l.split(":") : [];
      const right = r ? r.split(":") : [];
      const groups = a.includes("::") ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right] : left;
      return groups.reduce((n, g) => (n << 16n) | BigInt(Number.parseInt(g, 16)), 0n);
    }
    function ends6(prefix: string): [string, string] {
      const [a, len] = prefix.split("/");
      const first = number6(a);
      return [hex6(first), hex6(first + (1n << BigInt(128 - Number(len))) - 1n)];
    }
    /** Whether the most specific entry holding the address says globally reachable; no entry: an ordinary address. */
    function globalIn(table: readonly (readonly [string, string, boolean | null])[], holds: (prefix: string) => boolean) {
      const entry = table.filter(([prefix]) => holds(prefix)).sort((a, b) => Number(b[0].split("/")[1]) - Number(a[0].split("/")[1]))[0];
      return entry === undefined || entry[2] === true;
    }
    const in4 = (address: string) => (prefix: string) => {
      const [a, len] = prefix.split("/");
      const shift = 32 - Number(len);
      return Math.floor(v4Number(address) / 2 ** shift) === Math.floor(v4Number(a) / 2 ** shift);
    };

    it("refuses every IPv4 entry that is not globally reachable, at both ends of its prefix", () => {
      for (const [prefix, name, global] of IPV4_SPECIAL) {
        for (const address of ends4(prefix)) {
          const expected = globalIn(IPV4_SPECIAL, in4(address));
          const problem = webhookUrlProblem(`https://${address}/`, production);
          if (expected) expect(problem, `${address} (${name})`).toBeNull();
          else expect(problem, `${address} (${name}, global ${global})`).toMatch(/globally reachable/);
        }
      }
    });

    it("refuses every IPv6 entry that is not globally reachable, unless an embedded IPv4 address decides", () => {
      for (const [prefix, name] of IPV6_SPECIAL) {
        const embeds = IPV4_EMBEDDING.some(([p]) => p === prefix);
        if (embeds) continue;
        for (const address of ends6(prefix)) {
          const n = number6(address.slice(1, -1));
          const holds = (p: string) => {
            const shift = BigInt(128 - Number(p.split("/")[1]));
            return n >> shift === number6(p.split("/")[0]) >> shift;
          };
          const embedded = IPV4_EMBEDDING.some(([p]) => holds(p)) && !IPV6_SPECIAL.some(([p]) => p.endsWith("/128") && holds(p));
          if (embedded) continue; // the last address of ::/128's neighbours falls under ::/96: judged below
          const problem = webhookUrlProblem(`https://${address}/`, production);
          if (globalIn(IPV6_SPECIAL, holds)) expect(problem, `${address} (${name})`).toBeNull();
          else expect(problem, `${address} (${name})`).toMatch(/globally reachable/);
        }
      }
    });

    it("judges mapped, translated, compatible, NAT64 and 6to4 forms by the IPv4 address they embed", () => {
      const samples = [...IPV4_SPECIAL.flatMap(([prefix]) => ends4(prefix)), "93.184.216.34", "8.8.8.8"];
      for (const [prefix, name, at] of IPV4_EMBEDDING) {
        const base = number6(prefix.split("/")[0]);
        for (const address of samples) {
          const literal = hex6(base | (BigInt(v4Number(address)) << BigInt(128 - at - 32)));
          // ::0.0.0.0 and ::0.0.0.1 are the unspecified and loopback addresses themselves.
          if (literal === "[0:0:0:0:0:0:0:0]" || literal === "[0:0:0:0:0:0:0:1]") continue;
          const problem = webhookUrlProblem(`https://${literal}/`, production);
          if (globalIn(IPV4_SPECIAL, in4(address))) expect(problem, `${literal} (${name} of ${address})`).toBeNull();
          else expect(problem, `${literal} (${name} of ${address})`).toMatch(/globally reachable/);
        }
      }
    });
  });
});
