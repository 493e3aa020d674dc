import { describe, expect, it } from "vitest";
import { MAX_WEBHOOK_URL_LENGTH, webhookUrlProblem } from "../../src/lib/webhook-url";

const production = { allowLoopback: false, selfOrigins: ["https://api.example.com", "https://api.example.com"] };
const local = { allowLoopback: true, selfOrigins: ["http://127.0.0.1:8787", "http://127.0.0.1:8787"] };

describe("webhook receiver URLs (src/lib/webhook-url.ts)", () => {
  it("accepts public https URLs in both settings", () => {
    for (const url of [
      "https://receiver.example.com/hooks?x=1",
      "https://93.184.216.34:8443/in",
      "https://[2001:db8::1]/",
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
    ];
    for (const host of hosts) expect(webhookUrlProblem(`https://${host}/hook`, production), host).toMatch(/loopback|private/);
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
});
