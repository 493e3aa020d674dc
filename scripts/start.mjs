// npm start: local D1 migrated and seeded with the demo data, then wrangler dev on http://127.0.0.1:8787
// with the queue consumers live and the job sweeper's cron fired every LOCAL_CRON_SECONDS (wrangler dev fires no
// crons itself). Works offline with no Cloudflare account.
import { spawn } from "node:child_process";
import { copyDocsAssets } from "./docs-assets.mjs";
import { LOCAL_CRON_SECONDS, ROOT, WRANGLER, devArgs, ensureDevVars, fireCrons, migrateLocal, seedLocal, wranglerEnv } from "./lib.mjs";

ensureDevVars();
copyDocsAssets();
await migrateLocal();
await seedLocal();

const port = process.env.PORT ?? "8787";
// wrangler prints its bindings table twice (before and after the first build) and warns that scheduled Workers are not
// triggered locally: fireCrons below triggers them (README.md, "Run it").
console.log(`job sweeper cron: fired every ${LOCAL_CRON_SECONDS} s by this script; API_ORIGIN http://127.0.0.1:${port}`);
const dev = spawn(WRANGLER, devArgs(port), {
  cwd: ROOT,
  env: wranglerEnv,
  stdio: "inherit",
});
fireCrons(`http://127.0.0.1:${port}`);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code) => process.exit(code ?? 0));
