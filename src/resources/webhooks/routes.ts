/**
 * /account_lists/<list>/webhooks: the list's endpoints, their delivery log, a redelivery and a test event. Only the
 * list's users manage its webhooks: a coach is answered 403, anyone else 404 (the list is not theirs to know of).
 */
import { sql } from "drizzle-orm";
import type { Context, Hono } from "hono";
import { webhookDeliveries, webhooks } from "../../../drizzle/schema";
import { isTaggedGuardFailure } from "../../db/guard";
import { literal, q } from "../../db/sql";
import { listUsersOnly, parentAccountList } from "../../engine/account-list-scope";
import { requestContext } from "../../engine/context";
import type { RequestContext } from "../../engine/define";
import { listResources } from "../../read/list-resources";
import { showResource } from "../../read/records";
import { described } from "../../engine/route-descriptions";
import { readInput, resourceRoutes, UUID_PARAM } from "../../routes/resource-routes";
import { createResource } from "../../write/write";
import type { AppEnv } from "../../env";
import { conflict, recordNotFound } from "../../jsonapi/errors";
import { jsonApi } from "../../jsonapi/respond";
import { endpointsPerList, manualSendRecorded, recordManualSend, tooManyEndpoints, tooManyManualSends, type ManualSend } from "../../webhooks/limits";
import { LIST } from "../paths";
import { ENDPOINT_LIMIT_GUARD, webhookDeliveryResource, webhookResource, withFreshSecret } from "./resource";

const WEBHOOKS = `${LIST}/webhooks`;
const WEBHOOK = `${WEBHOOKS}/:webhook_id${UUID_PARAM}`;

const webhookManagers = listUsersOnly("forbidden");

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
        return accepted(c, ctx, await redeliver(ctx));
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
    if (isTaggedGuardFailure(error, ENDPOINT_LIMIT_GUARD)) throw tooManyEndpoints(endpointsPerList(ctx.env));
    throw error;
  }
}

/** A manual send of the path's list, now. */
function manualSend(ctx: RequestContext, kind: ManualSend["kind"]): ManualSend {
  return { id: crypto.randomUUID(), listId: ctx.pathParams.account_list_id, kind, now: ctx.now };
}

/**
 * A new round of attempts of the path's delivery (the same webhook-id), unless one is under way; a manual send of
 * the list, so 429 once the list has had MANUAL_SENDS_PER_WINDOW of them in the window. The send is counted and
 * the delivery made pending in one batch, each on condition of the other.
 */
async function redeliver(ctx: RequestContext): Promise<string> {
  const send = manualSend(ctx, "redeliver");
  const [deliveryId, webhookId, now] = [ctx.pathParams.id, ctx.pathParams.webhook_id, ctx.now].map(literal);
  // An attempt under way holds its lease; a pending delivery no attempt holds may be sent again.
  const idle = sql`NOT (status = 'pending' AND coalesce(claimed_until > ${now}, 0))`;
  const [, again] = await ctx.db.batch([
    ctx.db.run(recordManualSend(send, sql`EXISTS (SELECT 1 FROM webhook_deliveries WHERE id = ${deliveryId} AND webhook_id = ${webhookId} AND ${idle})`)),
    ctx.db.run(sql`UPDATE webhook_deliveries SET status = 'pending', round_start = attempts, next_attempt_at = ${now}, queued_at = NULL, updated_at = ${now}
      WHERE id = ${deliveryId} AND ${manualSendRecorded(send)}`),
  ]);
  if (again.meta.changes > 0) return ctx.pathParams.id;
  const [found] = await ctx.db
    .select({ busy: sql<number>`${webhookDeliveries.status} = 'pending' AND ${webhookDeliveries.claimedUntil} > ${ctx.now}` })
    .from(webhookDeliveries)
    .where(sql`${webhookDeliveries.id} = ${ctx.pathParams.id} AND ${webhookDeliveries.webhookId} = ${ctx.pathParams.webhook_id}`);
  if (!found) throw recordNotFound("WebhookDelivery", ctx.pathParams.id);
  if (found.busy) throw conflict("The delivery is being attempted: redeliver it once this attempt is done");
  throw await tooManyManualSends(ctx.db, send);
}

/**
 * A `webhook.test` event for the path's endpoint alone (whatever it subscribes to), and its delivery; a manual send
 * of the list, so 429 once the list has had MANUAL_SENDS_PER_WINDOW of them in the window. The event is written
 * only if the send was counted, in the same batch, so tests sent at once cannot pass the limit together.
 */
async function recordTestEvent(ctx: RequestContext): Promise<string> {
  const send = manualSend(ctx, "test");
  const webhookId = ctx.pathParams.webhook_id;
  const eventId = crypto.randomUUID();
  const deliveryId = crypto.randomUUID();
  const data = JSON.stringify({ type: "webhooks", id: webhookId });
  // Values written into the text: a raw statement of a batch takes no parameters.
  const [list, webhook, event, delivery, now] = [send.listId, webhookId, eventId, deliveryId, ctx.now].map(literal);
  const [, , written] = await ctx.db.batch([
    ctx.db.run(recordManualSend(send)),
    ctx.db.run(sql`INSERT INTO webhook_events (id, account_list_id, event_type, resource_type, resource_id, data, occurred_at, created_at)
      SELECT ${event}, ${list}, 'webhook.test', 'webhooks', ${webhook}, ${literal(data)}, ${now}, ${now} WHERE ${manualSendRecorded(send)}`),
    ctx.db.run(sql`INSERT INTO webhook_deliveries (id, account_list_id, webhook_id, event_id, event_type, next_attempt_at, created_at, updated_at)
      SELECT ${delivery}, account_list_id, ${webhook}, id, event_type, created_at, created_at, created_at FROM webhook_events WHERE id = ${event}`),
  ]);
  if (written.meta.changes === 0) throw await tooManyManualSends(ctx.db, send);
  return deliveryId;
}
