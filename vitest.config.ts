import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { exportJWK, generateKeyPair } from "jose";
import { defineConfig } from "vitest/config";
import { copyDocsAssets } from "./scripts/docs-assets.mjs";

/**
 * External identity of the test run (docs/api.md, "Local development" under "External identity"): fresh key pairs per
 * run, public halves inline in the config bindings, and everything the tests need to sign with in TEST_IDENTITY
 * (test/helpers/identity.ts). No network anywhere.
 */
async function identityBindings() {
  const pair = async (alg: string, kid: string) => {
    const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
    return { pub: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" }, priv: { ...(await exportJWK(privateKey)), kid, alg } };
  };
  const [social, idp, store] = await Promise.all([pair("RS256", "social-1"), pair("ES256", "idp-1"), pair("ES256", "store-1")]);
  const t = {
    audience: "catalogue-test",
    social: { name: "testsocial", issuer: "https://social.test", alg: "RS256", kid: "social-1", key: social.priv },
    idp: { name: "testidp", issuer: "https://idp.test", alg: "ES256", kid: "idp-1", key: idp.priv },
    retailer: { name: "testshop", secret: "testshop-secret-0123456789abcdef0123456789" },
    store: { bundleId: "com.example.catalogue.test", maxAgeSeconds: 3600, key: store.priv },
  };
  return {
    IDENTITY_PROVIDERS: JSON.stringify({
      social: [{ name: t.social.name, issuer: t.social.issuer, audience: t.audience, jwks: { keys: [social.pub] } }],
      idp: [{ name: t.idp.name, issuer: t.idp.issuer, audience: [t.audience, "another-app"], jwks: { keys: [idp.pub] } }],
    }),
    RETAILER_SECRETS: JSON.stringify({ [t.retailer.name]: t.retailer.secret }),
    STORE_KEYS: JSON.stringify({ bundle_id: t.store.bundleId, keys: [store.pub], max_age_seconds: t.store.maxAgeSeconds }),
    TEST_IDENTITY: JSON.stringify(t),
  };
}

/** What this file uses of Node, where the config runs (the project's types are the Worker's, without `process`). */
declare const process: {
  platform: string;
  env: Record<string, string | undefined>;
  getBuiltinModule?(id: "node:fs"): {
    accessSync(path: string, mode: number): void;
    statfsSync(path: string): { bavail: number; bsize: number };
    constants: { W_OK: number };
  };
};

/**
 * Miniflare keeps the test D1, KV, R2 and queues in SQLite files under the temporary directory, for this run only
 * (it deletes them at exit), and SQLite waits for the disk at every commit: on a busy disk that wait was most of
 * the run. On Linux they go to memory (/dev/shm) instead, when it is writable and has room (the large-catalogue
 * files grow the D1 to a few hundred MB), unless TMPDIR already names a directory. No test reads the files after a
 * crash; the crash-recovery check (npm run test:recovery) runs its own `wrangler dev`.
 */
function storageInMemory() {
  const fs = process.getBuiltinModule?.("node:fs");
  if (process.platform !== "linux" || process.env.TMPDIR || !fs) return;
  try {
    fs.accessSync("/dev/shm", fs.constants.W_OK);
    const { bavail, bsize } = fs.statfsSync("/dev/shm");
    if (bavail * bsize >= 2 ** 30) process.env.TMPDIR = "/dev/shm";
  } catch {
    // No tmpfs there: the disk, as before.
  }
}

export default defineConfig(async () => {
  // Before the plugin starts Miniflare, which takes its directory from TMPDIR.
  storageInMemory();
  // wrangler.toml's [assets] directory must exist before the plugin reads the config (a fresh clone has none).
  copyDocsAssets({ quiet: true });
  // The real migrations, applied to the test D1 in test/setup.ts.
  const migrations = await readD1Migrations("./migrations");
  // The shard databases' own (docs/decisions.md, "Shards"), applied to SHARD_1 and SHARD_2.
  const shardMigrations = await readD1Migrations("./migrations-shard");
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // Explicit, so a developer's .dev.vars (ENVIRONMENT=development) never changes what tests see.
          bindings: {
            ENVIRONMENT: "production",
            TEST_MIGRATIONS: migrations,
            TEST_SHARD_MIGRATIONS: shardMigrations,
            V3_TOKEN_SECRET: "test-v3-token-secret-0123456789abcdef",
            // Test providers, retailer and store with their own keys (never the .dev.vars ones).
            ...(await identityBindings()),
          },
          // The jobs queues without wrangler.toml's one-second batch wait: a deployed queue gathers a batch for
          // throughput, a test only waits for it (every job a test runs cost up to a second). Retries, dead letters
          // and batch sizes stay as configured.
          queueConsumers: {
            "media-catalogue-jobs": {
              maxBatchSize: 10,
              maxBatchTimeout: 0,
              maxRetries: 5,
              retryDelay: 2,
              deadLetterQueue: "media-catalogue-jobs-dlq",
            },
            "media-catalogue-jobs-dlq": { maxBatchSize: 10, maxBatchTimeout: 0, maxRetries: 3 },
            "media-catalogue-webhooks": { maxBatchSize: 10, maxBatchTimeout: 0, maxRetries: 3 },
          },
        },
      }),
    ],
    test: {
      include: ["test/**/*.test.ts"],
      setupFiles: ["./test/setup.ts"],
      // One runner (and one workerd) for all files: starting them per file cost several seconds each, far more than
      // the reset in test/setup.ts that gives each file fresh D1, KV and R2 (docs/decisions.md, "One home per concept").
      isolate: false,
      testTimeout: 30_000,
      // The Worker's request, job and webhook lines at info and warn (one per request, a 4xx is a warn, and per job
      // step: src/lib/log.ts) would bury the figures tests print; test/http.test.ts checks their shape with a spy.
      // Errors, and every other line, still show.
      onConsoleLog: (log: string) => !/^\{"level":"(info|warn)","time":"[^"]*","event":"(request|job|webhook)"/.test(log),
    },
  };
});
