// The demo seed of a local state (`npm run seed:local`, `npm start`, the end-to-end scripts): the catalogue's rows
// (scripts/demo-data.mjs), the playback manifests in the local R2, each container's subtitle family on its shard
// (scripts/demo/shards.mjs) and the completions computed from them by the completion job's own statements
// (scripts/demo/completions.mjs). Idempotent: a second run changes nothing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ROOT, WRANGLER, persistArgs, spawnQuiet, wrangler } from "../lib.mjs";

export async function seedLocal(persistTo) {
  const started = performance.now();
  const { demoSeed } = await import("../demo-data.mjs");
  const { shardSeedSql } = await import("./shards.mjs");
  const { completionReads, completionScopeSql, completionWrites } = await import("./completions.mjs");
  const { loadAppCode } = await import("./load-app-code.mjs");
  const app = await loadAppCode();
  const { sql, manifests, shardRows } = await demoSeed();
  const file = join(ROOT, ".wrangler", "seed", "demo.sql");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, sql);
  // The manifests go to the local R2 unless its directory already has this very set (a re-seed); the stamp is written
  // there only once they are all in, and goes with it. Both stores at once: each mostly waits on its own workerd.
  const stamp = join(resolve(ROOT, persistTo ?? join(".wrangler", "state")), "v3", "r2", "demo-manifests.txt");
  const keys = manifests.map((m) => m.key).join("\n");
  const manifestsThere = existsSync(stamp) && readFileSync(stamp, "utf8") === keys;
  const putArgs = [join(ROOT, "scripts", "demo", "put-objects.mjs"), ...persistArgs(persistTo)];
  const [, written] = await Promise.all([
    spawnQuiet(WRANGLER, ["d1", "execute", "DB", "--local", "--file", file, ...persistArgs(persistTo)]),
    manifestsThere ? "0" : spawnQuiet(process.execPath, putArgs, JSON.stringify(manifests)),
  ]);
  writeFileSync(stamp, keys);
  // Then the shards: the catalogue's directory says where each demo container went (docs/decisions.md, "Shards"). One
  // read gives that (the completion job's scope queries: placements, containers' normal videos) and the completions
  // the catalogue has.
  const [{ results: placedVideos }, { results: placedContainers }, { results: current }] = JSON.parse(
    wrangler(
      ["d1", "execute", "DB", "--local", ...persistArgs(persistTo), "--json", "--command", completionScopeSql(app, shardRows).join(";\n")],
      { quiet: true },
    ),
  );
  const perShard = shardSeedSql(shardRows, new Map(placedContainers.map((p) => [p.containerId, p.shard])));
  // Each shard's rows, then in the same run the completion job's aggregate statements over them (the last two results).
  const reads = completionReads(app, placedVideos, placedContainers);
  const percents = await Promise.all(
    [...new Set([...perShard.keys(), ...reads.statements.keys()])].map(async (shard) => {
      const percentSql = reads.statements.get(shard) ?? [];
      const shardFile = join(ROOT, ".wrangler", "seed", `demo-shard-${shard}.sql`);
      writeFileSync(shardFile, `${perShard.get(shard) ?? ""}${percentSql.map((s) => `${s};\n`).join("")}`);
      const out = await spawnQuiet(WRANGLER, [
        "d1",
        "execute",
        `SHARD_${shard}`,
        "--local",
        "--json",
        "--file",
        shardFile,
        ...persistArgs(persistTo),
      ]);
      return percentSql.length
        ? JSON.parse(out)
            .slice(-percentSql.length)
            .map((r) => r.results)
        : [[], []];
    }),
  );
  // Then the completions, with the job's write statements (only changed percentages are written).
  const completions = completionWrites(app, reads.done, percents, current);
  if (completions.statements.length) {
    wrangler(["d1", "execute", "DB", "--local", ...persistArgs(persistTo), "--command", completions.statements.join(";\n")], {
      quiet: true,
    });
  }
  console.log(
    `demo data seeded in ${((performance.now() - started) / 1000).toFixed(1)} s (idempotent; ` +
      `${manifests.length} playback manifests in the local R2, ${written.trim().split("\n").at(-1)} new; ` +
      `${completions.changed} subtitle completions changed)`,
  );
  return { manifestKeys: manifests.map((m) => m.key) };
}
