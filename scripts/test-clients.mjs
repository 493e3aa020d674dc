// npm run test:clients: real third-party clients, unchanged, against a real `wrangler dev` on its own local state.
// Today: yt-dlp's Viki extractor (Debian's `yt-dlp` package), driven by scripts/clients/ytdlp_viki.py through login,
// a series' episode list, a video with its playback streams, DASH formats and subtitle files, and the demo's playback
// manifests as the server serves them. Needs `apt-get install yt-dlp`; .ci/run installs it.
// Env: CLIENTS_PORT (default 8796, beside a developer's 8787 and the e2e 8799), CLIENTS_PYTHON (default Debian's
// /usr/bin/python3, the interpreter that sees the package), CLIENTS_SERIES / CLIENTS_VIDEO (demo ids to drive).
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT, e2eServer, e2eState, wrangler } from "./lib.mjs";

const python = process.env.CLIENTS_PYTHON ?? "/usr/bin/python3";
// A demo series that a client of unknown country may watch (the extractor stops at `blocking.geo`) with several
// episodes, and one of its episodes with an English description, subtitles in several languages and a poster.
const series = process.env.CLIENTS_SERIES ?? "11c";
const video = process.env.CLIENTS_VIDEO ?? "135v";

const probe = spawnSync(python, ["-c", "import yt_dlp, sys; sys.stdout.write(yt_dlp.version.__version__)"], { encoding: "utf8" });
if (probe.status !== 0) {
  console.log(`FAIL - ${python} cannot import yt_dlp: install Debian's package (apt-get install yt-dlp)`);
  console.log(`${probe.stderr ?? probe.error ?? ""}`.trim());
  console.log("clients: 0 passed, 1 failed");
  process.exit(1);
}

// Under .wrangler/ (git-ignored), rebuilt each run so the demo data is exactly what the checks expect.
const state = await e2eState(join(ROOT, ".wrangler", "test-clients", "state"));
const { persistTo } = state;
const { manifestKeys } = state.seed;

// What the seed left in the local D1, for the driver to check through the server (scripts/clients/viki_demo_streams.py).
const [missing, groups] = JSON.parse(
  wrangler(
    [
      ...["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--json", "--command"],
      "SELECT v.id FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.state = 'normal' AND c.state = 'normal' " +
        "AND NOT EXISTS (SELECT 1 FROM playback_streams ps WHERE ps.video_id = v.id AND ps.kind = 'dash'); " +
        "SELECT ps.manifest_key AS key, ps.kind, ps.resolutions, ps.audio_languages, group_concat(ps.video_id) AS videos, " +
        "max(v.duration) AS longest FROM playback_streams ps JOIN videos v ON v.id = ps.video_id " +
        "GROUP BY ps.manifest_key, ps.kind, ps.resolutions, ps.audio_languages ORDER BY ps.manifest_key",
    ],
    { quiet: true },
  ),
);
const demoStreams = join(ROOT, ".wrangler", "test-clients", "demo-streams.json");
mkdirSync(dirname(demoStreams), { recursive: true });
writeFileSync(
  demoStreams,
  JSON.stringify({ seeded: manifestKeys, missing_dash: missing.results.map((r) => r.id), groups: groups.results }),
);

const server = await e2eServer(state, Number(process.env.CLIENTS_PORT ?? 8796));
let status;
try {
  console.log(`yt-dlp ${probe.stdout} (${python}) against ${server.base}`);
  const run = spawnSync(
    python,
    [
      join(ROOT, "scripts", "clients", "ytdlp_viki.py"),
      ...["--base", server.base, "--series", series, "--video", video, "--demo-streams", demoStreams],
    ],
    { cwd: ROOT, stdio: "inherit", timeout: 300_000 },
  );
  status = run.status ?? 1;
  if (run.error) console.log(`yt-dlp driver did not finish: ${run.error.message}`);
} finally {
  server.stop();
}
console.log(status === 0 ? "PASS - real clients" : `FAIL - real clients (driver exit ${status})`);
process.exit(status === 0 ? 0 : 1);
