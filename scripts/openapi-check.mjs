// npm run openapi:check (CI): the OpenAPI document as /openapi.json serves it, linted with Redocly's recommended
// rules (errors fail, warnings are shown), then turned into TypeScript types with openapi-typescript and used by a
// small client (scripts/openapi/client.ts) that must type-check. No network: the app is bundled with wrangler's
// esbuild and its document built in Node, as scripts/demo/load-app-code.mjs loads app code. `-- --keep` keeps the
// document, the types and the client in their temporary directory.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./lib.mjs";

const BIN = join(ROOT, "node_modules", ".bin");
// The origin only fills `servers`; a neutral one, so the lint's server rules judge the document, not this machine.
const ORIGIN = "https://api.media-catalogue.test";

async function buildDocument() {
  const esbuild = createRequire(join(ROOT, "node_modules", "wrangler", "package.json"))("esbuild");
  const entry = 'export { createApp } from "./src/app"; export { openApiDocument } from "./src/openapi";';
  const { outputFiles } = await esbuild.build({
    stdin: { contents: entry, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    // Resolved as wrangler resolves the Worker's imports. chardet names `fs` for a function the Worker never calls
    // (reading a file by path); nodejs_compat provides it in workerd, and here it stays an import nothing reaches.
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "import"],
    external: ["fs"],
    logLevel: "error",
  });
  const { createApp, openApiDocument } = await import(
    `data:text/javascript;base64,${Buffer.from(outputFiles[0].contents).toString("base64")}`
  );
  const app = createApp();
  return openApiDocument(app, ORIGIN);
}

function run(step, command, args) {
  console.log(`--- ${step}`);
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
  const res = spawnSync(command, args, { cwd: ROOT, env, stdio: "inherit" });
  if (res.status !== 0) throw new Error(`${step} failed (exit code ${res.status})`);
}

const dir = mkdtempSync(join(tmpdir(), "openapi-check-"));
try {
  const doc = await buildDocument();
  const file = join(dir, "openapi.json");
  writeFileSync(file, JSON.stringify(doc, null, 2));
  const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  console.log(`openapi.json: ${Object.keys(doc.paths).length} paths, ${operations} operations (${file})`);

  run("redocly lint (recommended)", join(BIN, "redocly"), ["lint", file, "--extends=recommended", "--format=stylish"]);
  run("openapi-typescript", join(BIN, "openapi-typescript"), [file, "--output", join(dir, "api.d.ts")]);
  copyFileSync(join(ROOT, "scripts", "openapi", "client.ts"), join(dir, "client.ts"));
  const strict = ["--noEmit", "--strict", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler"];
  run("tsc (a client of the generated types)", join(BIN, "tsc"), [...strict, "--skipLibCheck", join(dir, "client.ts")]);
  if (!process.argv.includes("--keep")) rmSync(dir, { recursive: true, force: true });
  console.log("openapi: lint clean, the generated client type-checks");
} catch (err) {
  console.error(`${err.message}; the files are in ${dir}`);
  process.exit(1);
}
