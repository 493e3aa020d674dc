// Puts objects in the local SUBTITLES bucket, as seedLocal (scripts/lib.mjs) needs for the demo's playback manifests:
//   node scripts/demo/put-objects.mjs [--persist-to DIR] < objects.json
// with `[{ key, text, contentType }]` on standard input; --persist-to as wrangler takes it (default .wrangler/state).
// Keys already there are skipped: the demo's keys are content hashes, so an existing key holds the same bytes. Prints
// the number of objects written.
//
// One process for all of them: `wrangler r2 object put` writes one object per run at about 2.5 s each, and the demo
// has dozens. getPlatformProxy is wrangler's API over the same local storage (`<persist-to>/v3`, what `wrangler dev`
// and `wrangler r2 object put --local` use), here given a config with only the bucket, so it starts nothing else.

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { text as readAll } from "node:stream/consumers";
import { getPlatformProxy } from "wrangler";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** wrangler.toml's local bucket behind the SUBTITLES binding. */
const BUCKET = "media-catalogue-subtitles";

const args = process.argv.slice(2);
const persistTo = args[0] === "--persist-to" ? args[1] : join(ROOT, ".wrangler", "state");
const objects = JSON.parse(await readAll(process.stdin));
// One file per process: seeds of several state directories may run at once (the end-to-end scripts).
const config = join(ROOT, ".wrangler", "seed", `r2-only.${process.pid}.toml`);
mkdirSync(dirname(config), { recursive: true });
writeFileSync(
  config,
  `# Written by scripts/demo/put-objects.mjs: the SUBTITLES bucket alone.\nname = "demo-seed"\ncompatibility_date = "2025-01-01"\n\n` +
    `[[r2_buckets]]\nbinding = "SUBTITLES"\nbucket_name = "${BUCKET}"\n`,
);
const persist = { path: join(resolve(ROOT, persistTo), "v3") };
const proxy = await getPlatformProxy({ configPath: config, persist, remoteBindings: false }).finally(() => rmSync(config));
try {
  let written = 0;
  for (const { key, text, contentType } of objects) {
    if (await proxy.env.SUBTITLES.head(key)) continue;
    await proxy.env.SUBTITLES.put(key, text, { httpMetadata: { contentType } });
    written++;
  }
  console.log(written);
} finally {
  await proxy.dispose();
}
