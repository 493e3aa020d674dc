import type { D1Migration } from "@cloudflare/vitest-plugin";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      TEST_SHARD_MIGRATIONS: D1Migration[];
      /** JSON: names, issuers and private keys of the test identity providers, retailer and store (vitest.config.ts). */
      TEST_IDENTITY: string;
    }
  }
}
