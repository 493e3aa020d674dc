import { describe, expect, it } from "vitest";
import { api } from "./helpers";

/** Every URL the page names in src= and href= attributes. */
const referenced = (html: string) => [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);

// The bundle itself is a static asset: @cloudflare/vitest-plugin's SELF reaches the Worker without the asset router
// (404 here), so `npm run test:docs` checks it in a browser against wrangler dev.
describe("/docs works offline", () => {
  it("names only same-origin files, under a policy that allows nothing else", async () => {
    const res = await api("/docs");
    expect(res.status).toBe(200);
    const html = await res.text();
    const urls = referenced(html);
    expect(urls).toEqual(["/docs/swagger-ui.css", "/docs/swagger-ui-bundle.js", "/docs/init.js"]);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).not.toMatch(/https?:|\*|'unsafe-inline'|'unsafe-eval'/);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    // No inline script: the page would need 'unsafe-inline' to run it.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it("starts the UI on /openapi.json with the online validator off", async () => {
    const res = await api("/docs/init.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    const script = await res.text();
    expect(script).toContain("validatorUrl: null");
    expect(await (await api("/docs")).text()).toContain('data-openapi="/openapi.json"');
  });
});
