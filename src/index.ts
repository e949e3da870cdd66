import { createApp } from "./app";
import type { BackgroundBatchMessage, Bindings } from "./env";
import { runScheduled } from "./scheduled";
import { consumeQueue } from "./queue/consumer";

const app = createApp();

export default {
  fetch: app.fetch,
  // Background batch requests run through this same app (see src/queue/consumer.ts).
  queue: (batch, env, ctx) => consumeQueue(batch, env, ctx, app),
  // The Cron Triggers of wrangler.toml (src/scheduled.ts).
  scheduled: async (controller, env, ctx) => ctx.waitUntil(runScheduled(controller, env)),
} satisfies ExportedHandler<Bindings, BackgroundBatchMessage>;

export { app };
