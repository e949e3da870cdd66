import { createApp } from "./app";
import type { BackgroundBatchMessage, Bindings } from "./env";
import { consumeQueue } from "./queue/consumer";

const app = createApp();

export default {
  fetch: app.fetch,
  // Background batch requests run through this same app (see src/queue/consumer.ts).
  queue: (batch, env, ctx) => consumeQueue(batch, env, ctx, app),
} satisfies ExportedHandler<Bindings, BackgroundBatchMessage>;

export { app };
