import { SELF } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { redactUrl } from "../../src/lib/redact";
import { QUERY_CREDENTIALS_DEPRECATED_AT } from "../../src/routes/v3/oauth";
import { api, createApplication, createUser } from "../helpers";
import { idToken } from "../helpers/identity";

/**
 * `/oauth/token` credentials in the query string (docs/api.md, "The deprecated v3 API"): refused over plain HTTP outside local
 * development, deprecated (`Deprecation`, `Link`) over HTTPS, and never in a log line.
 */
const SECRET = "query-secret-0123456789";

async function setup() {
  const client = await createApplication({ secret: SECRET });
  const user = await createUser();
  return { client, user };
}

const tokenQuery = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe("credentials in the /oauth/token query string", () => {
  it("are refused over plain HTTP (invalid_request), naming the fields and never issuing a token", async () => {
    const { client, user } = await setup();
    const cases: Record<string, string>[] = [
      { grant_type: "client_credentials", client_id: client.wireId, client_secret: SECRET },
      { grant_type: "password", client_id: client.wireId, username: user.user.username, password: user.password },
      { grant_type: "password", client_id: client.wireId, social_access_token: await idToken("social") },
    ];
    for (const fields of cases) {
      const res = await SELF.fetch(`http://api.test/oauth/token?${tokenQuery(fields)}`, {
        method: "POST",
        headers: { "cf-connecting-ip": "198.51.100.7" },
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: string; error_description: string; access_token?: string };
      expect(body.error).toBe("invalid_request");
      expect(body.error_description).toMatch(/may be sent in the query string only over HTTPS/);
      expect(body.access_token).toBeUndefined();
    }
  });

  it("plain HTTP with the credentials in the body is not this refusal", async () => {
    const { client } = await setup();
    const res = await SELF.fetch("http://api.test/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: tokenQuery({ grant_type: "client_credentials", client_id: client.wireId, client_secret: SECRET }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("deprecation")).toBeNull();
  });

  it("still work over HTTPS, with Deprecation and a Link to the docs; the body form has neither", async () => {
    const { client, user } = await setup();
    const query = await api(
      `/oauth/token?${tokenQuery({ grant_type: "password", client_id: client.wireId, client_secret: SECRET, username: user.user.username, password: user.password })}`,
      { method: "POST" },
    );
    expect(query.status).toBe(200);
    expect(query.headers.get("deprecation")).toBe(QUERY_CREDENTIALS_DEPRECATED_AT);
    expect(query.headers.get("link")).toContain('<https://api.test/docs>; rel="deprecation"');

    const body = await api("/oauth/token", {
      method: "POST",
      json: { grant_type: "client_credentials", client_id: client.wireId, client_secret: SECRET },
    });
    expect(body.status).toBe(200);
    expect(body.headers.get("deprecation")).toBeNull();
  });

  it("never reach a log line, whatever the answer", async () => {
    const { client, user } = await setup();
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const social = await idToken("social");
      const cases: Record<string, string>[] = [
        { grant_type: "password", client_id: client.wireId, client_secret: SECRET, username: user.user.username, password: user.password },
        {
          grant_type: "password",
          client_id: client.wireId,
          client_secret: SECRET,
          username: user.user.username,
          password: "wrong-pass-xyz",
        },
        { grant_type: "password", client_id: client.wireId, client_secret: SECRET, social_access_token: social },
        { grant_type: "client_credentials", client_id: client.wireId, client_secret: `${SECRET}-wrong` },
      ];
      for (const fields of cases) {
        await api(`/oauth/token?${tokenQuery(fields)}`, { method: "POST" });
        await SELF.fetch(`http://api.test/oauth/token?${tokenQuery(fields)}`, { method: "POST" });
      }
      const lines = [...log.mock.calls, ...warn.mock.calls, ...error.mock.calls].map((args) => args.map(String).join(" "));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        for (const secret of [SECRET, user.password, "wrong-pass-xyz", social.split(".")[1]]) expect(line).not.toContain(secret);
      }
    } finally {
      log.mockRestore();
      warn.mockRestore();
      error.mockRestore();
    }
  });

  it("are redacted from any logged URL, however the name is spelt", () => {
    expect(redactUrl("/oauth/token?client_id=1&client_secret=s&password=p&social_access_token=t")).toBe(
      "/oauth/token?client_id=1&client_secret=[redacted]&password=[redacted]&social_access_token=[redacted]",
    );
    expect(redactUrl("https://api.test/oauth/token?pass%77ord=p&CLIENT_SECRET=s&social%5Faccess%5Ftoken=t&page=2")).toBe(
      "https://api.test/oauth/token?pass%77ord=[redacted]&CLIENT_SECRET=[redacted]&social%5Faccess%5Ftoken=[redacted]&page=2",
    );
  });
});
