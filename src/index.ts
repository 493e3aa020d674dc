import { queue } from "../queues";
import { createApp } from "./app";
import { createDb } from "./db/client";
import { sweepJobs } from "./jobs/sweeper";

const app = createApp();

export default {
  fetch: app.fetch,
  queue,
  // The Cron Trigger of wrangler.toml (every minute); locally, scripts/lib.mjs fires it (wrangler dev does not).
  async scheduled(controller, env) {
    await sweepJobs({ db: createDb(env.DB), env }, new Date(controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
