/**
 * The body of a webhook event, `{type, timestamp, data}`: rendered once and kept on the event
 * (`webhook_events.payload`). Whoever wrote the event renders it straight after the write (`renderNewPayloads`: the
 * request before it answers, the import and notification runs before they queue their deliveries), so the body is
 * the record as it was then, not as it is when the first attempt runs (minutes later, after a lost message). The
 * first attempt renders only an event none rendered (the render failed, or it was written some other way). Every
 * attempt and every redelivery of every delivery of the event sends those bytes, so a receiver deduplicating by
 * `webhook-id` never sees two bodies under one id. A render that fails stores nothing: it is tried again.
 *
 * The render reads the event's list alone. The record is its snapshot; every other table of a list is read through
 * a view of its rows of the event's list, and only while the record is still in that list: a record that has left
 * it (moved to another list, or removed) is rendered from its snapshot alone, the attributes other tables give
 * empty. So a contact moved to another list never carries that list's tags, people or tasks.
 */
import { getTableName, is, sql, type SQL } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as listDatabaseTables from "../../drizzle/list-schema";
import { webhookDeliveries, webhookEvents } from "../../drizzle/schema";
import { database } from "../db/client";
import { LIST_TABLES, listTable, type ListTable } from "../db/list-tables";
import { rowsOf } from "../db/statements";
import { resourceFor, type RequestContext, type ResourceDef } from "../engine/define";
import { snapshotRead, type SnapshotRead } from "../read/records";
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

/** How the event's data is had: as stored, as its identifier, or read from its snapshot in the event's list. */
function eventData(env: Bindings, db: Database, event: WebhookEvent, now: string): { data: unknown } | SnapshotRead {
  if (event.data) return { data: JSON.parse(event.data) };
  const def = resourceFor(event.resourceType);
  if (!event.snapshot || !def?.accountListColumn) return { data: { type: event.resourceType, id: event.resourceId } };
  const listId = event.accountListId;
  const ctx: RequestContext = {
    db,
    env,
    now,
    params: {},
    pathParams: {},
    viewer: { id: "", timeZone: "UTC", defaultAccountListId: listId, readableListIds: [listId], writableListIds: [listId], listDatabases: {}, listsOfMembers: {} },
  };
  return snapshotRead(def, event.snapshot, ctx, eventListTables(def, event));
}

/** The body of data: `{type, timestamp, data}`, within MAX_PAYLOAD_BYTES. */
function body(event: WebhookEvent, data: unknown): string {
  const rendered = JSON.stringify({ type: event.eventType, timestamp: event.occurredAt, data });
  if (new TextEncoder().encode(rendered).length <= MAX_PAYLOAD_BYTES) return rendered;
  return JSON.stringify({ type: event.eventType, timestamp: event.occurredAt, data: { type: event.resourceType, id: event.resourceId } });
}

/** The events' bodies rendered now, their reads in one batch; a read that fails fails them all (nothing is stored). */
export async function renderPayloads(env: Bindings, db: Database, events: WebhookEvent[], now: string): Promise<string[]> {
  const reads = events.map((event) => eventData(env, db, event, now));
  const queries = reads.flatMap((read) => ("queries" in read ? read.queries : []));
  const rows = queries.length > 0 ? await rowsOf(db, queries) : [];
  let next = 0;
  return events.map((event, index) => {
    const read = reads[index];
    if (!("queries" in read)) return body(event, read.data);
    const own = rows.slice(next, (next += read.queries.length));
    return body(event, read.resource(own) ?? { type: event.resourceType, id: event.resourceId });
  });
}

export async function renderPayload(env: Bindings, db: Database, event: WebhookEvent, now: string): Promise<string> {
  const [rendered] = await renderPayloads(env, db, [event], now);
  return rendered;
}

/** Stores each body unless the event has one: a body once stored is the event's for good. */
function storePayloads(db: Database, events: WebhookEvent[], bodies: string[]) {
  return events.map((event, index) =>
    db
      .update(webhookEvents)
      .set({ payload: sql`coalesce(${webhookEvents.payload}, ${bodies[index]})` })
      .where(sql`${webhookEvents.id} = ${event.id}`)
      .returning({ payload: webhookEvents.payload }),
  );
}

/**
 * The event's body: the one stored, or (for an event no writer rendered) rendered now and stored. Two first
 * attempts (of two endpoints' deliveries) rendering at once both send the body stored first.
 */
export async function eventPayload(env: Bindings, db: Database, event: WebhookEvent, now: string): Promise<string> {
  if (event.payload !== null) return event.payload;
  const rendered = await renderPayload(env, db, event, now);
  const [[stored]] = await db.batch(storePayloads(db, [event], [rendered]) as [ReturnType<typeof storePayloads>[number]]);
  return stored?.payload ?? rendered;
}

/** Events rendered per batch. */
const RENDER_LIMIT = 100;

/**
 * Renders and stores, on this database (`env.DB`), the bodies of the events whose deliveries are not yet queued:
 * what the writer that calls it just wrote. Answers whether any delivery waits to be queued (none: nothing to send).
 * One batch finds them; when no delivery waits, that is all a write costs.
 */
export async function renderNewPayloads(env: Bindings, now: string): Promise<boolean> {
  const db = database(env.DB);
  const unqueued = sql`${webhookDeliveries.status} = 'pending' AND ${webhookDeliveries.queuedAt} IS NULL`;
  for (;;) {
    const [events, waiting] = await db.batch([
      db.select().from(webhookEvents).where(sql`${webhookEvents.payload} IS NULL AND ${webhookEvents.id} IN (SELECT ${webhookDeliveries.eventId} FROM ${webhookDeliveries} WHERE ${unqueued})`).limit(RENDER_LIMIT),
      db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(unqueued).limit(1),
    ]);
    if (events.length > 0) {
      const bodies = await renderPayloads(env, db, events, now);
      const [first, ...rest] = storePayloads(db, events, bodies);
      await db.batch([first, ...rest]);
    }
    if (events.length < RENDER_LIMIT) return waiting.length > 0;
  }
}
