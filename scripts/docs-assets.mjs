// The reference UI of /docs (Swagger UI, pinned in package.json) copied from node_modules into the Worker's static
// assets (`[assets]` in wrangler.toml), so the page loads nothing from another origin. Run by every entry point
// that starts or deploys the Worker (npm start/dev/deploy, the vitest config, scripts/lib.mjs startDev): public/docs
// is generated, never committed, and a version bump of swagger-ui-dist only needs `npm install`.
import { copyFileSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const DOCS_ASSETS_DIR = join(ROOT, "public", "docs");
/**
 * The files /docs loads (src/routes/docs.ts names them): the standalone bundle and its stylesheet, with the licence
 * texts the bundle's first line points to (Apache-2.0 asks for them wherever the code is served).
 */
export const DOCS_ASSET_FILES = ["swagger-ui-bundle.js", "swagger-ui.css", "swagger-ui-bundle.js.LICENSE.txt", "LICENSE", "NOTICE"];

const same = (a, b) => {
  try {
    const [sa, sb] = [statSync(a), statSync(b)];
    return sa.size === sb.size && readFileSync(a).equals(readFileSync(b));
  } catch {
    return false;
  }
};

export function copyDocsAssets({ quiet = false } = {}) {
  const pkg = createRequire(join(ROOT, "package.json")).resolve("swagger-ui-dist/package.json");
  const from = dirname(pkg);
  const { version } = JSON.parse(readFileSync(pkg, "utf8"));
  mkdirSync(DOCS_ASSETS_DIR, { recursive: true });
  let copied = 0;
  for (const file of DOCS_ASSET_FILES) {
    const src = join(from, file);
    const dest = join(DOCS_ASSETS_DIR, file);
    // Rewriting an unchanged file would wake wrangler dev's asset watcher for nothing.
    if (same(src, dest)) continue;
    copyFileSync(src, dest);
    copied += 1;
  }
  if (!quiet && copied) console.log(`docs assets: swagger-ui-dist ${version} copied to public/docs`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) copyDocsAssets();
