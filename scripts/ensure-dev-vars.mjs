// Writes the missing local development values into .dev.vars (also read by `wrangler types`).
import { ensureDevVars } from "./lib.mjs";

ensureDevVars();
