import { createApp } from "./app";
import type { BackgroundBatchMessage, Bindings } from "./env";
import { refreshPlannerStatistics } from "./db/maintenance";
import { consumeQueue } from "./queue/consumer";

const app = createApp();

export default {
  fetch: app.fetch,
  // Background batch requests run through this same app (see src/queue/consumer.ts).
  queue: (batch, env, ctx) => consumeQueue(batch, env, ctx, app),
  // The daily cron of wrangler.toml.
  scheduled: async (_controller, env, ctx) => ctx.waitUntil(refreshPlannerStatistics(env.DB)),
} satisfies ExportedHandler<Bindings, BackgroundBatchMessage>;

export { app };
