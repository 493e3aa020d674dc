// npm run test:docs: /docs in a real browser, offline. Starts `wrangler dev` on its own state (.wrangler/test-docs,
// port 8793, migrated and seeded with the demo data as `npm start` has it), opens /docs in Debian's headless Chromium
// (playwright-core drives /usr/bin/chromium; CI installs it with apt-get) and fails on any request to another origin,
// on a Content-Security-Policy violation, or unless every operation of /openapi.json is listed. "Try it out" must work
// as the page fills it in: every public read is called with exactly the values Swagger UI pre-fills
// (scripts/openapi/try-it.mjs) and must answer 200 with data; three of them are run through the page's own buttons.
// Also checks GET /health against the real local bindings. Screenshot: /tmp/docs.png (DOCS_SCREENSHOT to change).
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { checklist, e2eServer, e2eState, ROOT } from "./lib.mjs";
import { callableAsIs, nonEmpty, operationsOf as documentedOperations, prefilledRequest, resolver } from "./openapi/try-it.mjs";

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
/** The last migration of a folder, as `/health` names it (docs/api.md, "/docs and /health"). */
const lastMigration = (dir) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => /^\d{4}_.*\.sql$/.test(f))
    .sort()
    .at(-1);
/** GET /health of this server: every binding ok, and each database's last migration as wrangler recorded it. */
const healthy = () => ({
  status: "ok",
  checks: { d1: "ok", kv: "ok", r2: "ok", queue: "ok", shards: "ok" },
  shards: { 1: "ok", 2: "ok" },
  migrations: {
    catalogue: lastMigration("migrations"),
    shards: { 1: lastMigration("migrations-shard"), 2: lastMigration("migrations-shard") },
    behind: [],
  },
});
const state = await e2eState(persistTo);

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

/**
 * Public reads "Try it out" cannot fill in, and why: what they need is made for the caller. Any other public read whose
 * required parameter has no example fails "every public read answers data".
 */
const NEEDS_A_CREDENTIAL = new Map([
  ["GET /v5/sessions/{token}.json", "a session token (POST /v5/sessions.json)"],
  ["GET /v4/videos/{video_id}/playback_manifests/{file}", "a playback grant (the playback streams answer)"],
  ["GET /v4/videos/{video_id}/auth_subtitles/{file}", "a playback grant (the playback streams answer)"],
]);

/**
 * The typed listings each container type can fill (VIDEO_TYPES_OF in src/services/catalogue-writes.ts; the demo has
 * no clip of a news channel). Another under a type's prefix (`/v4/films/{id}/episodes.json`) is an empty list for
 * every id of that type: a 200 is all it can show.
 */
const HOLDS = {
  films: ["movies", "clips", "trailers"],
  series: ["episodes", "clips", "trailers"],
  news: ["news_clips"],
  artists: ["music_videos", "clips"],
};
function emptyByConstruction(path) {
  const m = /^\/v4\/(films|series|news|artists)\/\{container_id\}\/(\w+)\.json$/.exec(path);
  return m !== null && m[2] !== "videos" && !HOLDS[m[1]].includes(m[2]);
}

/** Swagger UI's own run of one operation: "Try it out", "Execute", then the request it sent and what the page shows. */
async function tryItOut(page, { filter, method, path, expected }) {
  await page.locator(".operation-filter-input").fill(filter);
  const block = page.locator(`.opblock-${method}`, { has: page.locator(`[data-path="${path}"]`) });
  await block.scrollIntoViewIfNeeded();
  await block.locator(".opblock-summary").first().click();
  await block.getByRole("button", { name: "Try it out" }).click();
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === new URL(expected).pathname);
  await block.getByRole("button", { name: "Execute" }).click();
  const sent = new URL((await answered).url());
  const row = block.locator(".live-responses-table .response").first();
  await row.waitFor();
  const status = Number((await row.locator(".response-col_status").textContent()).trim());
  const body = JSON.parse(await row.locator(".response-col_description pre").first().textContent());
  await block.locator(".opblock-summary").first().click();
  return { sent, status, body };
}

const sortedQuery = (url) => [...url.searchParams].sort(([a], [b]) => a.localeCompare(b));

const server = await e2eServer(state, PORT);
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
    assert.deepEqual(await res.json(), healthy());
  });

  const resolve = resolver(doc);
  const operation = (path) => documentedOperations(doc).find((o) => o.method === "get" && o.path === path);

  await step("every public read answers data with what 'Try it out' fills in", async () => {
    const reads = documentedOperations(doc).filter((o) => o.method === "get" && callableAsIs(o, resolve));
    const unfilled = [];
    const failures = [];
    let empty = 0;
    const check = async (o) => {
      const name = `GET ${o.path}`;
      const { url, missing } = prefilledRequest(base, o, resolve);
      if (missing.length) return unfilled.push(name);
      const res = await fetch(url);
      // A CSV answer (a glossary's) has data when it has a row past its header line.
      const csv = res.headers.get("content-type")?.startsWith("text/csv");
      const body = csv ? (await res.text()).split(/\r?\n/).filter((line) => line.trim()) : await res.json().catch(() => undefined);
      if (res.status !== 200) failures.push(`${name}: ${res.status} ${JSON.stringify(body)} for ${url}`);
      else if (emptyByConstruction(o.path)) empty++;
      else if (csv ? body.length < 2 : !nonEmpty(body)) failures.push(`${name}: no data (${JSON.stringify(body)}) for ${url}`);
    };
    // A few at a time: one wrangler dev, on a machine CI shares.
    for (let i = 0; i < reads.length; i += 6) await Promise.all(reads.slice(i, i + 6).map(check));
    assert.deepEqual(unfilled.sort(), [...NEEDS_A_CREDENTIAL.keys()].sort(), "public reads with a required parameter left empty");
    assert.deepEqual(failures, []);
    console.log(`  ${reads.length - unfilled.length} public reads answered 200, ${empty} of them typed listings empty by construction`);
  });

  // The page's own run of three of them: the listing, a path parameter, an application's `app=`. What it sends must be
  // what the step above computed from the document, and what it shows a 200 with data.
  for (const [filter, path] of [
    ["containers", "/v4/containers.json"],
    ["videos", "/v4/series/{container_id}/episodes.json"],
    ["translations", "/v4/translations.json"],
  ]) {
    await step(`'Try it out' as pre-filled: GET ${path} answers data in the page`, async () => {
      const { url } = prefilledRequest(base, operation(path), resolve);
      const expected = new URL(url);
      const { sent, status, body } = await tryItOut(page, { filter, method: "get", path, expected: url });
      assert.equal(sent.pathname, expected.pathname);
      assert.deepEqual(sortedQuery(sent), sortedQuery(expected), "Swagger UI sent other values than the document gives");
      assert.equal(status, 200);
      assert.ok(nonEmpty(body), `no data: ${JSON.stringify(body).slice(0, 200)}`);
    });
  }

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
    assert.deepEqual(await res.json(), healthy());
  });
  console.log(`  ${requests.length} requests, screenshot ${SCREENSHOT}`);
} finally {
  await context?.close().catch(() => {});
  server.stop();
  rmSync(profile, { recursive: true, force: true });
}

finish("docs");
