import { defineConfig } from "drizzle-kit";

// The shard databases' schema (docs/decisions.md, "Shards"); `npm run db:generate` runs both configs.
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/shard-schema/index.ts",
  out: "./migrations-shard",
});
