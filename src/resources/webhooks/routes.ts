/**
 * /account_lists/<list>/webhooks: the list's endpoints, their delivery log, a redelivery and a test event. Only the
 * list's users manage its webhooks: a coach is answered 403, anyone else 404 (the list is not theirs to know of).
 */
import { sql } from "drizzle-orm";
import type { Context, Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { webhookDeliveries, webhookEvents, webhooks } from "../../../drizzle/schema";
import { isGuardFailure } from "../../db/guard";
import { literal, q } from "../../db/sql";
import { parentAccountList } from "../../engine/account-list-scope";
import { requestContext } from "../../engine/context";
import type { RequestContext } from "../../engine/define";
import { listResources, showResource } from "../../engine/read";
import { described } from "../../engine/route-descriptions";
import { readInput, resourceRoutes, UUID_PARAM } from "../../engine/routes";
import { createResource } from "../../engine/write";
import type { AppEnv } from "../../env";
import { conflict, forbidden, recordNotFound } from "../../jsonapi/errors";
import { jsonApi } from "../../jsonapi/respond";
import { addSeconds } from "../../webhooks/clock";
import { endpointsPerList, TEST_WINDOW_SECONDS, TESTS_PER_WINDOW, tooManyEndpoints, tooManyTests } from "../../webhooks/limits";
import { LIST } from "../paths";
import { webhookDeliveryResource, webhookResource, withFreshSecret } from "./resource";

const WEBHOOKS = `${LIST}/webhooks`;
const WEBHOOK = `${WEBHOOKS}/:webhook_id${UUID_PARAM}`;

const webhookManagers = createMiddleware<AppEnv>(async (c, next) => {
  const id = c.req.param("account_list_id")?.toLowerCase() ?? "";
  const viewer = c.get("viewer");
  if (!(viewer.allWritableListIds ?? viewer.writableListIds).includes(id)) {
    if ((viewer.allReadableListIds ?? viewer.readableListIds).includes(id)) throw forbidden(id, "account_lists");
    throw recordNotFound("AccountList", id);
  }
  await next();
});

/** The endpoint the path names, in the path's list: 404 otherwise. */
async function webhookOfPath(ctx: RequestContext): Promise<void> {
  const id = ctx.pathParams.webhook_id;
  const [found] = await ctx.db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(sql`${webhooks.id} = ${id} AND ${webhooks.accountListId} = ${ctx.pathParams.account_list_id}`)
    .limit(1);
  if (!found) throw recordNotFound("Webhook", id);
}

/** Answers the delivery as it now stands, with 202: its attempt is queued once the answer is out (dispatchAfterWrites). */
async function accepted(c: Context<AppEnv>, ctx: RequestContext, deliveryId: string): Promise<Response> {
  return jsonApi(c, await showResource(webhookDeliveryResource, deliveryId, { ...ctx, params: {} }), 202);
}

export function registerWebhookRoutes(app: Hono<AppEnv>): void {
  app.use(WEBHOOKS, webhookManagers);
  app.use(`${WEBHOOKS}/*`, webhookManagers);

  app.route(
    `${WEBHOOK}/deliveries`,
    resourceRoutes(webhookDeliveryResource, {
      actions: ["list"],
      list: async (ctx) => {
        await webhookOfPath(ctx);
        return listResources(webhookDeliveryResource, ctx, { where: sql`${q(webhookDeliveries.webhookId)} = ${ctx.pathParams.webhook_id}` });
      },
    }),
  );

  app.post(
    `${WEBHOOK}/deliveries/:id${UUID_PARAM}/redeliver`,
    described(
      async (c: Context<AppEnv>) => {
        const ctx = requestContext(c);
        await webhookOfPath(ctx);
        // A new round of attempts of the same delivery (the same webhook-id), unless one is under way.
        const [again] = await ctx.db
          .update(webhookDeliveries)
          .set({ status: "pending", roundStart: sql`${q(webhookDeliveries.attempts)}`, nextAttemptAt: ctx.now, queuedAt: null, updatedAt: ctx.now })
          .where(
            sql`${webhookDeliveries.id} = ${ctx.pathParams.id} AND ${webhookDeliveries.webhookId} = ${ctx.pathParams.webhook_id}
              AND NOT (${webhookDeliveries.status} = 'pending' AND ${webhookDeliveries.claimedUntil} > ${ctx.now})`,
          )
          .returning({ id: webhookDeliveries.id });
        if (!again) {
          const [exists] = await ctx.db.select({ id: webhookDeliveries.id }).from(webhookDeliveries)
            .where(sql`${webhookDeliveries.id} = ${ctx.pathParams.id} AND ${webhookDeliveries.webhookId} = ${ctx.pathParams.webhook_id}`);
          if (!exists) throw recordNotFound("WebhookDelivery", ctx.pathParams.id);
          throw conflict("The delivery is being attempted: redeliver it once this attempt is done");
        }
        return accepted(c, ctx, again.id);
      },
      { action: "accept", resource: webhookDeliveryResource, summary: "Send a delivery again, with the same webhook-id" },
    ),
  );

  app.post(
    `${WEBHOOK}/test`,
    described(
      async (c: Context<AppEnv>) => {
        const ctx = requestContext(c);
        await webhookOfPath(ctx);
        const deliveryId = await recordTestEvent(ctx);
        return accepted(c, ctx, deliveryId);
      },
      { action: "accept", resource: webhookDeliveryResource, summary: "Send a webhook.test event to the endpoint" },
    ),
  );

  app.route(
    WEBHOOKS,
    resourceRoutes(webhookResource, {
      actions: ["list", "show", "create", "update", "delete"],
      fixedOnCreate: parentAccountList,
      create: createEndpoint,
      complete: withFreshSecret,
    }),
  );
}

/** An endpoint of the path's list; the insert's batch fails when it would pass the list's limit (resource.ts). */
async function createEndpoint(c: Context<AppEnv>, ctx: RequestContext): Promise<string> {
  const input = await readInput(c, ctx, [webhookResource.type]);
  try {
    return await createResource(webhookResource, input, ctx, parentAccountList(ctx));
  } catch (error) {
    if (isGuardFailure(error)) throw tooManyEndpoints(endpointsPerList(ctx.env));
    throw error;
  }
}

/**
 * A `webhook.test` event for the path's endpoint alone (whatever it subscribes to), and its delivery; 429 when the
 * list has sent TESTS_PER_WINDOW of them in the last TEST_WINDOW_SECONDS. The event is written only by a statement
 * that counts them first, so tests sent at once cannot pass the limit together.
 */
async function recordTestEvent(ctx: RequestContext): Promise<string> {
  const listId = ctx.pathParams.account_list_id;
  const webhookId = ctx.pathParams.webhook_id;
  const eventId = crypto.randomUUID();
  const deliveryId = crypto.randomUUID();
  const data = JSON.stringify({ type: "webhooks", id: webhookId });
  const windowStart = addSeconds(ctx.now, -TEST_WINDOW_SECONDS);
  const recentTests = sql`${webhookEvents.accountListId} = ${listId} AND ${webhookEvents.eventType} = 'webhook.test' AND ${webhookEvents.createdAt} > ${windowStart}`;
  // Values written into the text: a raw statement of a batch takes no parameters.
  const [list, webhook, event, delivery, now] = [listId, webhookId, eventId, deliveryId, ctx.now].map(literal);
  const [, , [recorded]] = await ctx.db.batch([
    ctx.db.run(sql`INSERT INTO webhook_events (id, account_list_id, event_type, resource_type, resource_id, data, occurred_at, created_at)
      SELECT ${event}, ${list}, 'webhook.test', 'webhooks', ${webhook}, ${literal(data)}, ${now}, ${now}
      WHERE (SELECT count(*) FROM webhook_events WHERE account_list_id = ${list} AND event_type = 'webhook.test' AND created_at > ${literal(windowStart)}) < ${literal(TESTS_PER_WINDOW)}`),
    ctx.db.run(sql`INSERT INTO webhook_deliveries (id, account_list_id, webhook_id, event_id, event_type, next_attempt_at, created_at, updated_at)
      SELECT ${delivery}, account_list_id, ${webhook}, id, event_type, created_at, created_at, created_at FROM webhook_events WHERE id = ${event}`),
    ctx.db
      .select({ written: sql<number>`EXISTS (SELECT 1 FROM ${webhookEvents} WHERE ${webhookEvents.id} = ${eventId})`, oldest: sql<string | null>`min(${webhookEvents.createdAt})` })
      .from(webhookEvents)
      .where(recentTests),
  ]);
  if (!recorded?.written) {
    const freeAt = recorded?.oldest ? Date.parse(addSeconds(recorded.oldest, TEST_WINDOW_SECONDS)) : Date.parse(ctx.now);
    throw tooManyTests(Math.max(1, Math.ceil((freeAt - Date.parse(ctx.now)) / 1000)));
  }
  return deliveryId;
}
