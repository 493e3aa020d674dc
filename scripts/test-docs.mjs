// npm run test:docs: /docs in a real browser, offline. Starts `wrangler dev` on its own state (.wrangler/test-docs,
// port 8793), opens /docs in Debian's headless Chromium (playwright-core drives /usr/bin/chromium; CI installs it with
// apt-get) and fails on any request to another origin, on a Content-Security-Policy violation, or unless every
// operation of /openapi.json is listed. Also checks GET /health against the real local bindings. Screenshot:
// /tmp/docs.png (DOCS_SCREENSHOT to change).
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { checklist, ensureDevVars, ROOT, startDev } from "./lib.mjs";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const PORT = Number(process.env.DOCS_PORT ?? 8793);
const SCREENSHOT = process.env.DOCS_SCREENSHOT ?? "/tmp/docs.png";
// Quiet and offline: no QUIC probing, no component or safe-browsing downloads, no sync, no first-run pages.
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

if (!existsSync(CHROMIUM)) {
  console.error(`${CHROMIUM} not found: apt-get install chromium (or set CHROMIUM)`);
  process.exit(1);
}

const persistTo = join(ROOT, ".wrangler", "test-docs");
rmSync(persistTo, { recursive: true, force: true });
ensureDevVars();

const { step, finish } = checklist();

/** Every operation the document declares, as Swagger UI labels them: "METHOD path". */
function operationsOf(doc) {
  const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
  return Object.entries(doc.paths).flatMap(([path, item]) => methods.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`));
}

/**
 * Every operation the page lists, "METHOD path" → summary. Swagger UI only keeps the blocks near the viewport in the
 * DOM when the document has several tags, so the page is read while scrolling from top to bottom.
 */
async function listedOperations(page) {
  const seen = new Map();
  await page.evaluate(() => globalThis.scrollTo(0, 0));
  for (let i = 0; i < 1000; i++) {
    const rows = await page.$$eval(".opblock", (blocks) =>
      blocks.map((b) => [
        `${b.querySelector(".opblock-summary-method")?.textContent?.trim()} ${b.querySelector(".opblock-summary-path")?.getAttribute("data-path")}`,
        b.querySelector(".opblock-summary-description")?.textContent?.trim() ?? "",
      ]),
    );
    for (const [op, summary] of rows) seen.set(op, summary);
    const moved = await page.evaluate(() => {
      const before = globalThis.scrollY;
      globalThis.scrollBy(0, Math.floor(globalThis.innerHeight / 2));
      return globalThis.scrollY !== before;
    });
    if (!moved) break;
    await page.waitForTimeout(50);
  }
  await page.evaluate(() => globalThis.scrollTo(0, 0));
  return seen;
}

const server = await startDev({ port: PORT, persistTo, stdio: "ignore" });
const profile = mkdtempSync(join(tmpdir(), "docs-chromium-"));
let context;
try {
  const base = server.base;
  const origin = new URL(base).origin;
  const requests = [];
  const foreign = [];
  const problems = [];

  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 900 },
  });
  // Recorded, and refused: the page must work without them, so an offline machine sees what CI sees.
  await context.route("**/*", (route) => {
    const url = route.request().url();
    requests.push(url);
    if (/^(data|blob):/.test(url) || new URL(url).origin === origin) return route.continue();
    foreign.push(url);
    return route.abort();
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(msg.text());
  });
  page.on("pageerror", (err) => problems.push(String(err)));

  const doc = await (await fetch(`${base}/openapi.json`)).json();
  const expected = operationsOf(doc);

  await step("/docs loads with a same-origin-only policy", async () => {
    const res = await page.goto(`${base}/docs`, { waitUntil: "load" });
    assert.equal(res.status(), 200);
    const csp = res.headers()["content-security-policy"];
    assert.ok(csp && !/https?:|\*/.test(csp), `CSP allows another origin: ${csp}`);
  });

  let listed = new Map();
  await step("every operation of /openapi.json is listed", async () => {
    await page.locator(".opblock").first().waitFor({ timeout: 60_000 });
    listed = await listedOperations(page);
    const missing = expected.filter((op) => !listed.has(op));
    assert.deepEqual(missing, [], `${missing.length} of ${expected.length} operations not listed`);
    console.log(`  ${listed.size} operations listed`);
  });

  await step("known operations show with their summaries", async () => {
    const wanted = {
      "POST /v5/sessions.json": "Log in",
      "GET /v4/containers.json": "List containers",
      "GET /health": "Health of the Worker's bindings",
    };
    for (const [op, summary] of Object.entries(wanted)) assert.match(listed.get(op) ?? "(not listed)", new RegExp(`^${summary}`), op);
  });

  // Before "try it" opens a block: the picture shows the list as a reader first sees it.
  await page.screenshot({ path: SCREENSHOT });

  await step("'Try it out' calls this origin: GET /health answers 200", async () => {
    // The filter box narrows the list to the health tag, so the block is rendered whatever the scroll position.
    await page.locator(".operation-filter-input").fill("health");
    const block = page.locator(".opblock-get", { has: page.locator('[data-path="/health"]') });
    await block.locator(".opblock-summary").first().click();
    await block.getByRole("button", { name: "Try it out" }).click();
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/health");
    await block.getByRole("button", { name: "Execute" }).click();
    const res = await answered;
    assert.equal(res.status(), 200);
    assert.deepEqual(await res.json(), { status: "ok", checks: { d1: "ok", kv: "ok", r2: "ok", queue: "ok" } });
  });

  await step("no request left this origin", async () => {
    assert.ok(requests.length > 0, "no request recorded");
    assert.deepEqual(foreign, []);
  });

  await step("no CSP violation or script error", async () => {
    assert.deepEqual(problems, []);
  });

  await step("GET /health over wrangler dev: every binding ok, not cached", async () => {
    const res = await fetch(`${base}/health`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "no-store");
    assert.deepEqual(await res.json(), { status: "ok", checks: { d1: "ok", kv: "ok", r2: "ok", queue: "ok" } });
  });
  console.log(`  ${requests.length} requests, screenshot ${SCREENSHOT}`);
} finally {
  await context?.close().catch(() => {});
  server.stop();
  rmSync(profile, { recursive: true, force: true });
}

finish("docs");
