/**
 * The body of a webhook event, `{type, timestamp, data}`: rendered once, by the first attempt of any of its
 * deliveries, and kept on the event (`webhook_events.payload`). Every attempt and every redelivery of every delivery
 * of the event sends those bytes, so a receiver deduplicating by `webhook-id` never sees two bodies under one id,
 * and nothing written after the first attempt (to the record, or to the list it moved to) shows in a later one.
 *
 * The render reads the event's list alone. The record is its snapshot; every other table of a list is read through
 * a view of its rows of the event's list, and only while the record is still in that list: a record that has left
 * it (moved to another list, or removed) is rendered from its snapshot alone, the attributes other tables give
 * empty. So a contact moved to another list never carries that list's tags, people or tasks.
 */
import { getTableName, is, sql, type SQL } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as listDatabaseTables from "../../drizzle/list-schema";
import { webhookEvents } from "../../drizzle/schema";
import { LIST_TABLES, listTable, type ListTable } from "../db/list-tables";
import { resourceFor, type RequestContext, type ResourceDef } from "../engine/define";
import { resourceFromSnapshot } from "../engine/read";
import type { Bindings, Database } from "../env";

/** A payload larger than this carries its record's identifier in place of the record. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;

type WebhookEvent = typeof webhookEvents.$inferSelect;

/** The common table expression holding the event's list, or nothing once the record has left it. */
const SCOPE = "webhook_event_scope";
const IN_SCOPE = `IN (SELECT list_id FROM ${SCOPE})`;

/** SQL: row `alias` of `entry` belongs to the list in scope (through its owner's key for a table without a list id). */
function ofScopedList(entry: ListTable, alias: string, depth = 0): string {
  const owner = entry.parents.find((parent) => parent.owner);
  const parent = owner && listTable(owner.table);
  if (!owner || !parent) return `${alias}.account_list_id ${IN_SCOPE}`;
  const parentAlias = `owner_${depth}`;
  return `EXISTS (SELECT 1 FROM main.${parent.name} AS ${parentAlias} WHERE ${parentAlias}.${owner.references} = ${alias}.${owner.column} AND ${ofScopedList(parent, parentAlias, depth + 1)})`;
}

/** Each table of a list database holding list rows, with the condition that keeps the list in scope's. */
const SCOPED_TABLES: Array<{ name: string; condition: string }> = (() => {
  const tables = (Object.values(listDatabaseTables) as unknown[]).filter((value): value is SQLiteTable => is(value, SQLiteTable));
  return tables.flatMap((table) => {
    const name = getTableName(table);
    const entry = LIST_TABLES.find((candidate) => candidate.name === name);
    if (entry) return [{ name, condition: ofScopedList(entry, name) }];
    // Rows kept by triggers, and the list's memberships: not copied with a list, but of one list still.
    if (getTableConfig(table).columns.some((column) => column.name === "account_list_id")) return [{ name, condition: `${name}.account_list_id ${IN_SCOPE}` }];
    return [];
  });
})();

/**
 * The tables the render reads, narrowed to the event's list while its record is still there: the scope holds the
 * list then, and nothing once the record has left it. Tables of no one list (users, organisations, rates, donor
 * accounts shared between lists) are read as they are.
 */
function eventListTables(def: ResourceDef, event: WebhookEvent): SQL[] {
  const own = getTableName(def.table);
  const scope = sql`${sql.raw(SCOPE)}(list_id) AS (SELECT ${event.accountListId} WHERE EXISTS (SELECT 1 FROM ${sql.raw(`main.${own}`)} AS record
    WHERE ${sql.raw(`record.${def.idColumn.name}`)} = ${event.resourceId} AND ${sql.raw(`record.${def.accountListColumn!.name}`)} = ${event.accountListId}))`;
  // With its rowid, which some reads order by.
  const views = SCOPED_TABLES.filter((table) => table.name !== own).map(({ name, condition }) =>
    sql.raw(`${name} AS NOT MATERIALIZED (SELECT ${name}.rowid AS rowid, * FROM main.${name} AS ${name} WHERE ${condition})`),
  );
  return [scope, ...views];
}

/** The record the event is about, as GET showed it when it happened, read from the event's list alone. */
async function eventData(env: Bindings, db: Database, event: WebhookEvent, now: string): Promise<unknown> {
  const identifier = { type: event.resourceType, id: event.resourceId };
  if (event.data) return JSON.parse(event.data);
  const def = resourceFor(event.resourceType);
  if (!event.snapshot || !def?.accountListColumn) return identifier;
  const listId = event.accountListId;
  const ctx: RequestContext = {
    db,
    env,
    now,
    params: {},
    pathParams: {},
    viewer: { id: "", timeZone: "UTC", defaultAccountListId: listId, readableListIds: [listId], writableListIds: [listId], listDatabases: {}, listsOfMembers: {} },
  };
  try {
    return (await resourceFromSnapshot(def, event.snapshot, ctx, eventListTables(def, event))) ?? identifier;
  } catch (error) {
    console.error(JSON.stringify({ level: "error", message: "webhook event not rendered", event_id: event.id, error: String(error) }));
    return identifier;
  }
}

/** The body rendered now: `{type, timestamp, data}`, within MAX_PAYLOAD_BYTES. */
export async function renderPayload(env: Bindings, db: Database, event: WebhookEvent, now: string): Promise<string> {
  const body = JSON.stringify({ type: event.eventType, timestamp: event.occurredAt, data: await eventData(env, db, event, now) });
  if (new TextEncoder().encode(body).length <= MAX_PAYLOAD_BYTES) return body;
  return JSON.stringify({ type: event.eventType, timestamp: event.occurredAt, data: { type: event.resourceType, id: event.resourceId } });
}

/**
 * The event's body: the one stored, or rendered now and stored. Two first attempts (of two endpoints' deliveries)
 * rendering at once both send the body stored first: the statement keeps a stored one and answers it.
 */
export async function eventPayload(env: Bindings, db: Database, event: WebhookEvent, now: string): Promise<string> {
  if (event.payload !== null) return event.payload;
  const rendered = await renderPayload(env, db, event, now);
  const [stored] = await db
    .update(webhookEvents)
    .set({ payload: sql`coalesce(${webhookEvents.payload}, ${rendered})` })
    .where(sql`${webhookEvents.id} = ${event.id}`)
    .returning({ payload: webhookEvents.payload });
  return stored?.payload ?? rendered;
}
