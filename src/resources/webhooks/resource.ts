/**
 * Webhook endpoints of an account list and the log of their deliveries (docs/webhooks.md). The signing secret is
 * made and encrypted as the endpoint is created (or its secret rotated) and answered by that one response only.
 */
import { sql } from "drizzle-orm";
import { webhookDeliveries, webhooks } from "../../../drizzle/schema";
import { ALL_WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES } from "../../constants/webhooks";
import { failUnlessTagged } from "../../db/guard";
import { inList, literal, q } from "../../db/sql";
import { accountListRelationship } from "../../engine/account-list-scope";
import { boolean, integer, stored, string, timestamp } from "../../engine/attributes";
import { defineResource, type AttributeDef, type BatchStatement, type RequestContext, type Row } from "../../engine/define";
import { listValue } from "../../jsonapi/filter-values";
import { addSeconds } from "../../webhooks/clock";
import { endpointsPerList } from "../../webhooks/limits";
import { encryptSecret, newSecret } from "../../webhooks/secrets";
import { allowsLoopback, refusedUrl } from "../../webhooks/urls";

/** How long the previous secret still signs after a rotation. */
export const ROTATION_OVERLAP_SECONDS = 24 * 60 * 60;

/** Secrets made by this request, answered by its one response (`withFreshSecret`) and never stored in the clear. */
const freshSecrets = new WeakMap<RequestContext, string>();

const EVENT_NAMES = new Set<string>([...WEBHOOK_EVENT_TYPES, ALL_WEBHOOK_EVENTS]);

function eventTypes(): AttributeDef {
  return {
    column: webhooks.eventTypes,
    read: (_row, _ctx, _extras, selected) => JSON.parse(String(selected ?? "[]")),
    schema: { type: "array", items: { type: "string" }, description: "webhook_event_types of GET /api/v2/constants, or *" },
    write: {
      required: true,
      parse: (value) => {
        if (!Array.isArray(value) || value.length === 0) return { ok: false, message: "must be a list of event types" };
        const unknown = value.find((name) => typeof name !== "string" || !EVENT_NAMES.has(name));
        if (unknown !== undefined) return { ok: false, message: `has an unknown event type: ${String(unknown)}` };
        return { ok: true, value: JSON.stringify([...new Set(value as string[])]) };
      },
    },
  };
}

function endpointUrl(): AttributeDef {
  return {
    column: webhooks.url,
    write: {
      required: true,
      parse: (value, ctx) => {
        if (typeof value !== "string" || value.trim() === "") return { ok: false, message: "can't be blank" };
        const refused = refusedUrl(value.trim(), allowsLoopback(ctx.env));
        return refused ? { ok: false, message: refused } : { ok: true, value: value.trim() };
      },
    },
  };
}

/** Write-only: `true` makes a new secret, answered once; the previous one goes on signing for a day. */
function rotateSecret(): AttributeDef {
  return {
    default: false,
    schema: { type: "boolean" },
    write: {
      parse: (value) => (typeof value === "boolean" ? { ok: true, value } : { ok: false, message: "must be true or false" }),
    },
  };
}

/** The text of the endpoint limit's guard failure, which the route answers as too many endpoints. */
export const ENDPOINT_LIMIT_GUARD = "webhook endpoint limit";

/**
 * After the insert, in its batch: the batch fails (ENDPOINT_LIMIT_GUARD) when the list now has more than it may.
 * Counted after the insert, so creates at once cannot pass it together.
 */
function withinEndpointLimit(id: string, ctx: RequestContext): BatchStatement {
  // Values written into the text: a raw statement of a batch takes no parameters.
  const ofList = sql`(SELECT account_list_id FROM webhooks WHERE id = ${literal(id)})`;
  return ctx.db.run(failUnlessTagged(sql`(SELECT count(*) FROM webhooks WHERE account_list_id = ${ofList}) <= ${literal(endpointsPerList(ctx.env))}`, ENDPOINT_LIMIT_GUARD)) as unknown as BatchStatement;
}

async function endpointSideWrites(id: string, values: Row, ctx: RequestContext, existing?: Row): Promise<BatchStatement[]> {
  const statements: BatchStatement[] = existing ? [] : [withinEndpointLimit(id, ctx)];
  if (!existing || values.rotate_secret === true) {
    const secret = newSecret();
    freshSecrets.set(ctx, secret);
    const sealed = await encryptSecret(ctx.env, secret);
    const rotation = existing
      ? { previousSecret: sql`${q(webhooks.secret)}`, previousSecretUntil: addSeconds(ctx.now, ROTATION_OVERLAP_SECONDS) }
      : {};
    statements.push(ctx.db.update(webhooks).set({ secret: sealed, ...rotation }).where(sql`${webhooks.id} = ${id}`) as unknown as BatchStatement);
  }
  // Enabled again: what disabled it is history.
  if (existing && values.enabled === true && !existing.enabled) {
    statements.push(ctx.db.update(webhooks).set({ disabledReason: null, failingSince: null }).where(sql`${webhooks.id} = ${id}`) as unknown as BatchStatement);
  }
  return statements;
}

/** Adds the secret made by this request to its answer. */
export async function withFreshSecret(document: unknown, ctx: RequestContext): Promise<unknown> {
  const secret = freshSecrets.get(ctx);
  const data = (document as { data?: { attributes?: Record<string, unknown> } | unknown[] }).data;
  if (secret && data && !Array.isArray(data)) data.attributes = { ...data.attributes, secret };
  return document;
}

export const webhookResource = defineResource({
  type: "webhooks",
  model: "Webhook",
  table: webhooks,
  accountListColumn: webhooks.accountListId,
  attributes: {
    url: endpointUrl(),
    description: string(webhooks.description, { maxLength: 1000 }),
    event_types: eventTypes(),
    enabled: boolean(webhooks.enabled),
    // Answered by the create (and a rotation) only; never read back.
    secret: { select: () => sql`NULL`, default: false, schema: { type: ["string", "null"] } },
    rotate_secret: rotateSecret(),
    disabled_reason: stored(webhooks.disabledReason),
  },
  relationships: {
    account_list: accountListRelationship(webhooks.accountListId),
  },
  hooks: {
    beforeUpdate: (changes, existing) => {
      if (changes.account_list && changes.account_list !== existing.accountListId) {
        return [{ attribute: "account_list", message: "can't be changed", pointer: "/data/relationships/account_list" }];
      }
    },
    sideWrites: (id, values, _input, ctx, existing) => endpointSideWrites(id, values, ctx, existing),
  },
});

export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;

export const webhookDeliveryResource = defineResource({
  type: "webhook_deliveries",
  model: "WebhookDelivery",
  table: webhookDeliveries,
  accountListColumn: webhookDeliveries.accountListId,
  attributes: {
    event_type: stored(webhookDeliveries.eventType),
    webhook_id: stored(webhookDeliveries.webhookId),
    status: { ...stored(webhookDeliveries.status), schema: { type: "string", enum: [...DELIVERY_STATUSES] } },
    attempts: integer(webhookDeliveries.attempts, { readOnly: true }),
    last_attempt_at: timestamp(webhookDeliveries.lastAttemptAt, { readOnly: true }),
    next_attempt_at: timestamp(webhookDeliveries.nextAttemptAt, { readOnly: true }),
    response_status: integer(webhookDeliveries.responseStatus, { readOnly: true }),
    response_ms: integer(webhookDeliveries.responseMs, { readOnly: true }),
    response_body: stored(webhookDeliveries.responseBody),
  },
  relationships: {},
  filters: {
    status: (value) => {
      const wanted = listValue(value);
      return wanted.length > 0 ? inList(webhookDeliveries.status, wanted) : undefined;
    },
  },
  defaultOrder: () => [
    { expression: webhookDeliveries.createdAt, descending: true },
    { expression: webhookDeliveries.id, descending: true },
  ],
});
