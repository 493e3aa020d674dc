import { queue } from "../queues";
import { createApp } from "./app";
import { createDb } from "./db/client";
import { sweepJobs } from "./jobs/sweeper";

// Durable Object classes wrangler.toml binds (the entry module must export them).
export { RateLimitCounter } from "./durable/rate-limit-counter";

const app = createApp();

export default {
  fetch: app.fetch,
  queue,
  // The Cron Trigger of wrangler.toml (every minute); locally, scripts/lib.mjs fires it (wrangler dev does not).
  async scheduled(controller, env) {
    await sweepJobs({ db: createDb(env.DB), env }, new Date(controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
