// npm run test:client-gen: a client generated from /openapi.json works. Starts `wrangler dev` on its own state
// (.wrangler/test-client-gen, port 8797 or CLIENT_GEN_PORT, migrated and seeded with the demo data), generates the
// types of the served document with openapi-typescript into a temporary directory, takes the signing code of
// docs/api.md, "Signing a request" (its JavaScript function and its shell lines) from the page, type-checks
// scripts/openapi/generated-client.mts against the types with tsc, then runs it (openapi-fetch, its signing middleware)
// and the shell lines against the server. PASS/FAIL per check; exits non-zero on any failure.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO_OFFICIAL_APP, e2eServer, e2eState, ROOT } from "./lib.mjs";

const PORT = Number(process.env.CLIENT_GEN_PORT ?? 8797);
const BIN = join(ROOT, "node_modules", ".bin");

let failed = 0;
const result = (name, ok, detail = "") => {
  if (!ok) failed++;
  console.log(`${ok ? "PASS" : "FAIL"} - ${name}${ok || !detail ? "" : `\n${String(detail).trim()}`}`);
};

/** The fenced blocks of one section of docs/api.md (up to the next heading), in order, as { lang, code }. */
function codeBlocksOf(heading) {
  const lines = readFileSync(join(ROOT, "docs", "api.md"), "utf8").split("\n");
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`docs/api.md has no "${heading}"`);
  const blocks = [];
  let open;
  for (const line of lines.slice(start + 1)) {
    if (open && line.startsWith("```")) {
      blocks.push(open);
      open = undefined;
    } else if (open) open.code += `${line}\n`;
    else if (line.startsWith("```")) open = { lang: line.slice(3).trim(), code: "" };
    else if (line.startsWith("#")) break;
  }
  return blocks;
}

function run(name, command, args, options = {}) {
  const res = spawnSync(command, args, { cwd: ROOT, encoding: "utf8", timeout: 60_000, ...options });
  const ok = res.status === 0;
  result(name, ok, `${res.stdout ?? ""}${res.stderr ?? ""}${res.error ?? ""}`);
  return { ok, stdout: res.stdout ?? "" };
}

const blocks = codeBlocksOf("### Signing a request");
const signing = blocks.find((b) => b.lang === "js" && b.code.includes("export async function signUrl"));
const shell = blocks.find((b) => b.lang === "sh");
if (!signing || !shell) {
  console.log('FAIL - docs/api.md, "Signing a request" has the signUrl function and the shell lines');
  process.exit(1);
}

// Under .wrangler/ (git-ignored), rebuilt each run so the demo data is exactly what the checks expect.
const state = await e2eState(join(ROOT, ".wrangler", "test-client-gen"));

const dir = mkdtempSync(join(tmpdir(), "client-gen-"));
const server = await e2eServer(state, PORT);
try {
  const res = await fetch(`${server.base}/openapi.json`);
  result("GET /openapi.json", res.status === 200, res.status);
  writeFileSync(join(dir, "openapi.json"), await res.text());
  // The client resolves openapi-fetch (and tsc its types) from the project's node_modules.
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, "sign.mjs"), signing.code);
  copyFileSync(join(ROOT, "scripts", "openapi", "generated-client.mts"), join(dir, "client.mts"));

  const generated = run("openapi-typescript generates the types", join(BIN, "openapi-typescript"), [
    join(dir, "openapi.json"),
    ...["--output", join(dir, "api.d.ts")],
  ]);
  const tsc = ["--noEmit", "--strict", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler"];
  const typed =
    generated.ok &&
    run("tsc: the client type-checks against them (and the signing code of docs/api.md)", join(BIN, "tsc"), [
      ...[...tsc, "--lib", "es2023,dom", "--allowJs", "--skipLibCheck"],
      join(dir, "client.mts"),
    ]).ok;
  if (typed) {
    // The pinned Node 22 (npm scripts run on it) runs the TypeScript as it is, its types stripped.
    const app = [DEMO_OFFICIAL_APP.id, DEMO_OFFICIAL_APP.secret];
    const client = spawnSync(
      process.execPath,
      ["--experimental-strip-types", "--no-warnings", join(dir, "client.mts"), server.base, ...app],
      {
        cwd: dir,
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    process.stdout.write(client.stdout ?? "");
    result("the generated client runs against wrangler dev", client.status === 0, `${client.stderr ?? ""}${client.error ?? ""}`);
  }

  // The shell lines as the page has them, BASE pointing at this server; each curl prints its answer on one line.
  const sh = run("the shell lines of docs/api.md sign with openssl", "bash", ["-euo", "pipefail", "-c", shell.code], {
    env: { ...process.env, BASE: server.base },
  });
  const [completions, hook] = sh.stdout.trim().split("\n").map(safeJson);
  result("  version 1: the completions of 1v", completions?.["1v"] !== undefined, sh.stdout);
  result("  version 2: a webhook endpoint with its secret", typeof hook?.secret === "string", sh.stdout);
} finally {
  server.stop();
  if (!process.argv.includes("--keep")) rmSync(dir, { recursive: true, force: true });
}

function safeJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

console.log(`client-gen: ${failed ? `${failed} failed` : "all passed"}`);
process.exit(failed ? 1 : 0);
