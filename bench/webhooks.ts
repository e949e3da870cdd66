/**
 * Webhooks: how fast deliveries reach a receiver on this machine, and what the outbox adds to a write.
 *
 * - Deliveries per second: an endpoint of list 1 at a local HTTP receiver (WEBHOOKS_ALLOW_LOOPBACK), 100 contacts
 *   created by one /batch, timed from the batch's answer until the receiver has taken every delivery.
 * - Rows written by a contact insert (D1's rows_written) with no endpoint subscribed, and with one subscribed to
 *   contact.created: the outbox's triggers write nothing unless an endpoint listens. The first is held against the
 *   same insert with the outbox's triggers removed for it (the service as it wrote before webhooks): equal.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { benchIds } from "./dataset";
import type { D1Handle } from "./server";

export interface WebhookBench {
  deliveries: number;
  ms: number;
  perSecond: number;
  /** Rows written by a contact insert: without the outbox's triggers, with them and no endpoint subscribed, then one. */
  rowsWritten: { withoutOutbox: number; without: number; with: number };
  error?: string;
}

const DELIVERIES = 100;

/** A receiver that answers 204 and counts distinct webhook-ids. */
async function startReceiver(): Promise<{ url: string; ids: Set<string>; close(): Promise<void> }> {
  const ids = new Set<string>();
  const server = createServer((request: IncomingMessage, response) => {
    request.resume();
    request.on("end", () => {
      const id = request.headers["webhook-id"];
      if (typeof id === "string") ids.add(id);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, ids, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function contactInsertRows(db: D1Handle, id: string): Promise<number> {
  const stamp = "2026-01-01T00:00:00Z";
  const { meta } = await db
    .prepare(`INSERT INTO contacts (id, account_list_id, name, created_at, updated_at) VALUES ('${id}', '${benchIds.lists[0]}', 'Outbox, Probe', '${stamp}', '${stamp}')`)
    .run();
  await db.prepare(`DELETE FROM contacts WHERE id = '${id}'`).run();
  return meta.rows_written ?? 0;
}

/** Runs `measure` with the outbox's triggers removed, then puts them back as they were. */
async function withoutOutboxTriggers<T>(db: D1Handle, measure: () => Promise<T>): Promise<T> {
  const { results: triggers } = await db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'webhooks\\_%' ESCAPE '\\'`).all<{ name: string; sql: string }>();
  if (triggers.length === 0) throw new Error("the outbox's triggers are not on the database");
  for (const trigger of triggers) await db.prepare(`DROP TRIGGER ${trigger.name}`).run();
  try {
    return await measure();
  } finally {
    for (const trigger of triggers) await db.prepare(trigger.sql).run();
  }
}

export async function benchWebhooks(api: string, token: string, db: D1Handle): Promise<WebhookBench> {
  const receiver = await startReceiver();
  const result: WebhookBench = { deliveries: 0, ms: 0, perSecond: 0, rowsWritten: { withoutOutbox: 0, without: 0, with: 0 } };
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/vnd.api+json", Accept: "application/vnd.api+json" };
  try {
    result.rowsWritten.withoutOutbox = await withoutOutboxTriggers(db, () => contactInsertRows(db, "00000000-0000-4000-8000-0000000e0b00"));
    result.rowsWritten.without = await contactInsertRows(db, "00000000-0000-4000-8000-0000000e0b01");
    const list = benchIds.lists[0];
    const created = await fetch(`${api}/api/v2/account_lists/${list}/webhooks`, {
      method: "POST",
      headers,
      body: JSON.stringify({ data: { type: "webhooks", attributes: { url: receiver.url, event_types: ["contact.created"] } } }),
    });
    if (created.status !== 201) throw new Error(`creating the endpoint answered ${created.status}: ${(await created.text()).slice(0, 200)}`);
    const endpoint = ((await created.json()) as { data: { id: string } }).data.id;
    result.rowsWritten.with = await contactInsertRows(db, "00000000-0000-4000-8000-0000000e0b02");
    // The probe's own delivery arrives first; it is not counted.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const before = receiver.ids.size;
    const requests = Array.from({ length: DELIVERIES }, (_, n) => ({
      method: "POST",
      path: "/api/v2/contacts",
      body: { data: { type: "contacts", attributes: { name: `Webhook, Bench ${n}` }, relationships: { account_list: { data: { type: "account_lists", id: list } } } } },
    }));
    const batch = await fetch(`${api}/api/v2/batch`, { method: "POST", headers, body: JSON.stringify({ requests }) });
    if (batch.status !== 200) throw new Error(`the batch answered ${batch.status}`);
    await batch.text();
    const started = performance.now();
    while (receiver.ids.size - before < DELIVERIES && performance.now() - started < 120_000) await new Promise((resolve) => setTimeout(resolve, 20));
    result.ms = performance.now() - started;
    result.deliveries = receiver.ids.size - before;
    result.perSecond = result.deliveries / (result.ms / 1000);
    await fetch(`${api}/api/v2/account_lists/${list}/webhooks/${endpoint}`, { method: "DELETE", headers });
  } catch (error) {
    result.error = String(error);
  } finally {
    await receiver.close();
  }
  return result;
}

export function renderWebhooks(bench: WebhookBench | undefined): string {
  if (!bench) return "Webhooks: not measured.";
  if (bench.error) return `Webhooks: failed: ${bench.error}`;
  return [
    `Webhooks: ${bench.deliveries} deliveries of one 100-item /batch to a receiver on this machine in ${bench.ms.toFixed(0)} ms (${bench.perSecond.toFixed(1)} deliveries per second, from the batch's answer).`,
    `A contact insert writes ${bench.rowsWritten.without} rows with no endpoint subscribed to it (${bench.rowsWritten.withoutOutbox} without the outbox's triggers: ${bench.rowsWritten.without === bench.rowsWritten.withoutOutbox ? "equal, target met" : "**not equal, target missed**"}), ${bench.rowsWritten.with} with one (the event and its delivery, with their indexes).`,
  ].join("\n");
}
