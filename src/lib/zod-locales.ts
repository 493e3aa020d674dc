// Bundled in place of zod's locale index (wrangler.toml `[alias]`). `z` is imported as a value, so esbuild keeps
// every export of zod, and `z.locales` re-exports all of its ~60 languages (about 360 KiB of the bundle, parsed at
// every cold start). The API answers in English only: zod registers `en` by itself on the first schema, and this
// keeps `z.locales.en` for anyone who sets it explicitly. Another language: add it here.
export { default as en } from "zod/v4/locales/en.js";
