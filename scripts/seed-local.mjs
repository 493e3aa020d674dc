// npm run seed:local: applies migrations and the demo data to the local D1 (idempotent).
import { ensureDevVars, migrateLocal, seedLocal } from "./lib.mjs";

ensureDevVars();
await migrateLocal();
await seedLocal();
