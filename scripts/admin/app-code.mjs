// The app's own rules, bundled from src/ the way the demo seed does it (scripts/demo/load-app-code.mjs): the
// password hash the login checks, the username shape the app gives new accounts, its email check and wire ids.
// Copies of them here would drift; a bundle of the sources cannot.
import { createRequire } from "node:module";
import { join } from "node:path";
import { ROOT } from "../lib.mjs";

const ENTRY = `
export { hashPassword, randomPassword, PBKDF2_ITERATIONS } from "./src/lib/password";
export { usernameBase } from "./src/services/identity/accounts";
export { formatId, tryParseId } from "./src/lib/ids";
import { z } from "zod";
// The email rule of external identities (src/services/identity/retailer.ts), stored lower case as they are.
export const emailSchema = z.email().max(254);
`;

let loaded;

/** `{ hashPassword, randomPassword, usernameBase, formatId, tryParseId, emailSchema }` from src/. */
export function loadAppCode() {
  loaded ??= build();
  return loaded;
}

async function build() {
  // The esbuild wrangler ships, resolved from wrangler's own directory whether or not npm hoisted it.
  const esbuild = createRequire(join(ROOT, "node_modules", "wrangler", "package.json"))("esbuild");
  const { outputFiles } = await esbuild.build({
    stdin: { contents: ENTRY, resolveDir: ROOT, sourcefile: "admin-app-code.mjs", loader: "js" },
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
