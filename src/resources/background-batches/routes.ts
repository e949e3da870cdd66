import type { Hono } from "hono";
import { readBody } from "../../engine/context";
import { resourceRoutes } from "../../routes/resource-routes";
import type { AppEnv } from "../../env";
import { API } from "../paths";
import { createBackgroundBatch, readBackgroundBatch } from "./create";
import { backgroundBatchResource } from "./resource";

export function registerBackgroundBatchRoutes(app: Hono<AppEnv>): void {
  app.route(
    `${API}/background_batches`,
    resourceRoutes(backgroundBatchResource, {
      actions: ["list", "show", "create", "delete"],
      // The requests are written inside the relationship, with the batch, at the origin the client reached.
      create: async (c, ctx) => createBackgroundBatch(readBackgroundBatch(await readBody(c), ctx), ctx, new URL(c.req.url).origin),
    }),
  );
}
