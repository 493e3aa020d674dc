// Secrets are not in wrangler.toml, so `wrangler types` cannot see them.
declare namespace Cloudflare {
  interface Env {
    /** HS256 key for v3 OAuth access tokens. */
    V3_TOKEN_SECRET: string;
  }
}
