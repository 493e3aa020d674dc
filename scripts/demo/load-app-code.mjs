// Loads app-code.mjs, which imports the app's TypeScript, by bundling it with the esbuild that wrangler
// already depends on (no build step to remember, no new dependency). Node cannot import src/ directly: its
// imports omit extensions, which only bundler resolution understands.

import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");

let loaded;

/** `{ hashPasswordWithSalt, completionSql }` from the app's own modules (see app-code.mjs). */
export function loadAppCode() {
  loaded ??= build();
  return loaded;
}

async function build() {
  // Resolved from wrangler's own directory, so it is the esbuild wrangler ships whether or not npm hoisted it.
  const esbuild = createRequire(join(ROOT, "node_modules", "wrangler", "package.json"))("esbuild");
  const { outputFiles } = await esbuild.build({
    entryPoints: [join(HERE, "app-code.mjs")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    logLevel: "error",
  });
  // Imported from memory: no file that two seeds running at once (e2e beside test:clients) could both write.
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].contents).toString("base64")}`);
}
