import { queue } from "../queues";
import { createApp } from "./app";

const app = createApp();

export default {
  fetch: app.fetch,
  queue,
} satisfies ExportedHandler<Env>;
