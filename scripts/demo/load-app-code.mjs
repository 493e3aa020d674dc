// Loads app-code.mjs, which imports the app's TypeScript, by bundling it with the esbuild that wrangler
// already depends on (no build step to remember, no new dependency). Node cannot import src/ directly: its
// imports omit extensions, which only bundler resolution understands.

import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");

let loaded;

/** The app's own code the demo seed uses (password hashing, the completion job's statements; see app-code.mjs). */
export function loadAppCode() {
  loaded ??= build();
  return loaded;
}

function build() {
  return bundleAndImport({ entryPoints: [join(HERE, "app-code.mjs")] });
}

/**
 * Bundles app TypeScript with the esbuild wrangler ships (resolved from wrangler's own directory, whether or not npm
 * hoisted it) and imports the result from memory: no file that two scripts running at once could both write. `entry`
 * is esbuild's `entryPoints` or `stdin`; the other options are the same for every script (the demo seed, the admin CLI).
 */
export async function bundleAndImport(entry) {
  const esbuild = createRequire(join(ROOT, "node_modules", "wrangler", "package.json"))("esbuild");
  const { outputFiles } = await esbuild.build({
    ...entry,
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    target: "es2022",
    logLevel: "error",
  });
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].contents).toString("base64")}`);
}
