import { createApp } from "./app";
import type { Bindings } from "./env";
import { runScheduled } from "./scheduled";
import { consumeQueue } from "./queue/consumer";
import { consumeNotificationRuns, isNotificationQueue } from "./events/queue";
import { consumeImportRuns, isImportQueue } from "./resources/imports/run";
import { consumeListMoves, isListMoveQueue } from "./admin/moves";
import { consumeWebhookDeliveries, isWebhookQueue } from "./webhooks/delivery";

const app = createApp();

export default {
  fetch: app.fetch,
  // Notification runs (src/events/queue.ts), CSV imports (src/resources/imports/run.ts), list moves (src/admin/moves.ts), webhook deliveries (src/webhooks/delivery.ts);
  // background batch requests run through
  // this same app (src/queue/consumer.ts).
  queue: (batch, env, ctx) =>
    isNotificationQueue(batch.queue)
      ? consumeNotificationRuns(batch, env)
      : isImportQueue(batch.queue)
        ? consumeImportRuns(batch, env)
        : isListMoveQueue(batch.queue)
          ? consumeListMoves(batch, env)
          : isWebhookQueue(batch.queue)
            ? consumeWebhookDeliveries(batch, env)
            : consumeQueue(batch, env, ctx, app),
  // The Cron Triggers of wrangler.toml (src/scheduled.ts).
  scheduled: async (controller, env, ctx) => ctx.waitUntil(runScheduled(controller, env)),
} satisfies ExportedHandler<Bindings, unknown>;

export { app };
