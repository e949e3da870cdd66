import type { Hono } from "hono";
import { isListOverride, overrideParams, readBody, requestContext } from "../../engine/context";
import { listResources, showResource } from "../../engine/read";
import { locationOf, resourceRoutes } from "../../engine/routes";
import type { AppEnv } from "../../env";
import { jsonApi } from "../../jsonapi/respond";
import { API } from "../paths";
import { createBackgroundBatch, readBackgroundBatch } from "./create";
import { backgroundBatchResource } from "./resource";

export function registerBackgroundBatchRoutes(app: Hono<AppEnv>): void {
  const path = `${API}/background_batches`;
  // Registered before the standard routes so it answers POST: the requests are written inside the relationship.
  app.post(path, async (c) => {
    if (isListOverride(c)) return jsonApi(c, await listResources(backgroundBatchResource, requestContext(c, await overrideParams(c))));
    const ctx = requestContext(c);
    const id = await createBackgroundBatch(readBackgroundBatch(await readBody(c), ctx), ctx, new URL(c.req.url).origin);
    return jsonApi(c, await showResource(backgroundBatchResource, id, ctx), 201, { Location: locationOf(c, id) });
  });
  app.route(path, resourceRoutes(backgroundBatchResource, { actions: ["list", "show", "delete"] }));
}
