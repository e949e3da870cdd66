/**
 * The webhook outbox's triggers: a write to a contact, task, donation, notification or import records its event
 * (drizzle/webhooks.ts) inside the statement that writes the row, so every write path (single, bulk, /batch,
 * background batches, sideposts, imports, the daily run) records it in the same atomic batch as the change, and a
 * refused write records nothing. Each trigger runs only `WHEN` an enabled endpoint of the row's list subscribes
 * to the type (or to `*`): a list no endpoint listens to writes no extra row. The event holds the row as written
 * (a JSON snapshot of its columns), from which the delivery renders the resource as GET shows it.
 *
 * A list moving to another database records no events for the copies of its records written there, nor for the
 * old rows removed after it moved (see `subscribed`).
 *
 * Updates count when they move the row's `updated_at`, as every write of the API does: the columns triggers keep
 * (a contact's last gift) change no record as a client sees it. Migration 0033 (lists: 0012) holds them as rendered,
 * and a test checks that the database's triggers are exactly these.
 */
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { contacts } from "./contacts";
import { donations } from "./donations";
import { imports } from "./imports";
import { notifications } from "./notifications";
import { tasks } from "./tasks";

/** A random UUID (version 4) made by SQLite. */
export const SQL_UUID =
  "lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))";
export const SQL_NOW = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')";

/** D1 takes at most 32 arguments per function call: a row's object is built from pieces of 16 columns. */
const COLUMNS_PER_PIECE = 16;

/** The row's columns as one JSON object (columns holding NULL are left out). */
export function snapshotOf(table: SQLiteTable, row: "NEW" | "OLD"): string {
  const names = getTableConfig(table).columns.map((column) => column.name);
  const pieces: string[] = [];
  for (let start = 0; start < names.length; start += COLUMNS_PER_PIECE) {
    pieces.push(`json_object(${names.slice(start, start + COLUMNS_PER_PIECE).map((name) => `'${name}', ${row}.${name}`).join(", ")})`);
  }
  return pieces.reduce((joined, piece) => `json_patch(${joined}, ${piece})`);
}

/**
 * An enabled endpoint of the list subscribes to the type, and no move is copying the list onto this database
 * (`arriving`) or removing it from here (`deleting`, src/admin/moves.ts): those rows are copies coming and going,
 * not records written.
 */
export function subscribed(list: string, type: string): string {
  return `EXISTS (SELECT 1 FROM webhooks w, json_each(w.event_types) s WHERE w.account_list_id = ${list} AND w.enabled = 1 AND s.value IN ('${type}', '*'))
  AND NOT EXISTS (SELECT 1 FROM moving_lists m WHERE m.account_list_id = ${list} AND m.state IN ('arriving', 'deleting'))`;
}

interface WebhookTrigger {
  table: SQLiteTable;
  /** The JSON:API type of the record. */
  resourceType: string;
  event: "INSERT" | "UPDATE" | "DELETE";
  type: string;
  /** A further condition on the write (SQL over NEW and OLD). */
  when?: string;
  /** When it happened (SQL over the row). */
  occurredAt: string;
}

const moved = "NEW.updated_at IS NOT OLD.updated_at";
const taskCompleted = "NEW.completed = 1 AND OLD.completed = 0";

/** created, updated and deleted of a record with timestamps. */
function crud(prefix: string, table: SQLiteTable, resourceType: string, updateWhen = moved): WebhookTrigger[] {
  return [
    { table, resourceType, event: "INSERT", type: `${prefix}.created`, occurredAt: "NEW.created_at" },
    { table, resourceType, event: "UPDATE", type: `${prefix}.updated`, when: updateWhen, occurredAt: "NEW.updated_at" },
    { table, resourceType, event: "DELETE", type: `${prefix}.deleted`, occurredAt: SQL_NOW },
  ];
}

export const WEBHOOK_TRIGGERS: WebhookTrigger[] = [
  ...crud("contact", contacts, "contacts"),
  ...crud("task", tasks, "tasks", `${moved} AND NOT (${taskCompleted})`),
  { table: tasks, resourceType: "tasks", event: "UPDATE", type: "task.completed", when: taskCompleted, occurredAt: "NEW.updated_at" },
  ...crud("donation", donations, "donations"),
  { table: notifications, resourceType: "notifications", event: "INSERT", type: "notification.created", occurredAt: "NEW.created_at" },
  {
    table: imports,
    resourceType: "imports",
    event: "UPDATE",
    type: "import.completed",
    when: "OLD.import_completed_at IS NULL AND NEW.import_completed_at IS NOT NULL",
    occurredAt: "NEW.import_completed_at",
  },
];

function render(trigger: WebhookTrigger): string {
  const row = trigger.event === "DELETE" ? "OLD" : "NEW";
  const table = getTableConfig(trigger.table).name;
  const list = `${row}.account_list_id`;
  const when = [trigger.when, subscribed(list, trigger.type)].filter(Boolean).join(" AND ");
  const snapshot = trigger.event === "DELETE" ? "NULL" : snapshotOf(trigger.table, "NEW");
  // The deliveries name the event just written: its rowid, and its record and type for certainty.
  return `CREATE TRIGGER webhooks_${table}_${trigger.type.split(".")[1]} AFTER ${trigger.event} ON ${table} WHEN ${when} BEGIN
  INSERT INTO webhook_events (id, account_list_id, event_type, resource_type, resource_id, snapshot, occurred_at, created_at)
    VALUES (${SQL_UUID}, ${list}, '${trigger.type}', '${trigger.resourceType}', ${row}.id, ${snapshot}, ${trigger.occurredAt}, ${SQL_NOW});
  INSERT OR IGNORE INTO webhook_deliveries (id, account_list_id, webhook_id, event_id, event_type, next_attempt_at, created_at, updated_at)
    SELECT ${SQL_UUID}, e.account_list_id, w.id, e.id, e.event_type, e.created_at, e.created_at, e.created_at
    FROM webhook_events e JOIN webhooks w ON w.account_list_id = e.account_list_id
    WHERE e.rowid = last_insert_rowid() AND e.resource_id = ${row}.id AND e.event_type = '${trigger.type}' AND w.enabled = 1
      AND EXISTS (SELECT 1 FROM json_each(w.event_types) s WHERE s.value IN ('${trigger.type}', '*'));
END;`;
}

export function webhookTriggers(): string[] {
  return WEBHOOK_TRIGGERS.map(render);
}
