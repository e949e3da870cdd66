/**
 * The import's run through its queue consumer: every row stored once whatever the deliveries (again, at once, after
 * a kill), its outcome kept on the import, and one closing e-mail, with the failed rows attached as CSV.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { eq, sql } from "drizzle-orm";
import worker from "../src/index";
import * as schema from "../drizzle/schema";
import type { Bindings, ImportRunMessage } from "../src/env";
import { request, put } from "./helpers/api";
import { createViewer, db, uuid } from "./helpers/factories";
import { recordingEnv, runCron, FIVE_MINUTE_CRON, type RunRecord } from "./helpers/events";
import { expectCountsKept } from "./helpers/kept-sums";
import { CHUNK_CHARACTERS, CHUNK_ROWS, CHUNKS_PER_MESSAGE, queueStartedImport, runImport } from "../src/resources/imports/run";
import { FAILURE_SUBJECT, FAILURES_FILE_NAME, SUCCESS_SUBJECT } from "../src/resources/imports/mail";
import { LISTS_ON } from "./helpers/storage";
import { onDatabaseHolding } from "../src/db/list-env";

let alice: Awaited<ReturnType<typeof createViewer>>;

const HEADERS = "first_name,last_name,email,status,notes";

/** `rows` data rows; the rows whose number is in `failing` have no first name (and a formula for notes). */
function csvOf(rows: number, failing: number[] = []): string {
  const lines = [HEADERS];
  for (let row = 2; row < rows + 2; row++) {
    lines.push(failing.includes(row) ? `,Nobody${row},,Praying,"=HYPERLINK(""http://example.org"")"` : `First${row},Last${row},person${row}@example.org,Giving,note ${row}`);
  }
  return lines.join("\n") + "\n";
}

/** An import uploaded and mapped, then started as the update starts it, but with no message sent: the test delivers them. */
async function startedImport(text: string, viewer = alice): Promise<string> {
  const body = new FormData();
  body.append("data[type]", "imports");
  body.append("data[attributes][file]", new File([text], "partners.csv", { type: "text/csv" }));
  const uploaded = await request("POST", `/api/v2/account_lists/${viewer.list.id}/imports/csv`, { token: viewer.token, body });
  expect(uploaded.status, uploaded.text).toBe(201);
  const id = uploaded.body.data.id;
  const mapped = await put(
    `/api/v2/account_lists/${viewer.list.id}/imports/csv/${id}`,
    {
      data: {
        type: "imports",
        id,
        attributes: {
          overwrite: true,
          tag_list: "imported",
          file_headers_mappings: { first_name: "first_name", last_name: "last_name", email_1: "email", status: "status", notes: "notes" },
          file_constants_mappings: { status: [{ id: "Partner - Financial", values: ["Giving"] }, { id: "Partner - Pray", values: ["Praying"] }] },
        },
      },
    },
    viewer.token,
  );
  expect(mapped.status, mapped.text).toBe(200);
  // Queued an hour ago: long enough for the sweep to find its message lost.
  const queuedAt = new Date(Date.now() - 3_600_000).toISOString().slice(0, 19) + "Z";
  await db.update(schema.imports).set({ inPreview: false, queuedForImportAt: queuedAt }).where(eq(schema.imports.id, id));
  return id;
}

interface Delivery {
  record: RunRecord & { sent: ImportRunMessage[] };
  runEnv: Bindings;
}

/** An env whose e-mails and import messages are recorded (the messages are not delivered by themselves). */
function recording(overrides: Partial<Bindings> = {}): Delivery {
  const record = { messages: [], emails: [], sent: [] as ImportRunMessage[] };
  const runEnv = {
    ...recordingEnv(record),
    IMPORT_QUEUE: { send: async (body: ImportRunMessage) => void record.sent.push(body) } as unknown as Bindings["IMPORT_QUEUE"],
    ...overrides,
  };
  return { record, runEnv };
}

/** The bindings an import's run sees, as the queue handler gives them: `DB` names the database holding the import. */
const importEnv = (runEnv: Bindings, id: string) => onDatabaseHolding(runEnv, "imports", id);

/** Delivers messages as one batch to the queue handler; answers each message's acknowledgement. */
async function deliver(importIds: string[], runEnv: Bindings, queue = "csv-imports") {
  const batch = createMessageBatch<ImportRunMessage>(queue, importIds.map((importId) => ({ id: uuid(), timestamp: new Date(), attempts: 1, body: { importId } })));
  const ctx = createExecutionContext();
  await worker.queue!(batch as MessageBatch<unknown>, runEnv, ctx);
  return getQueueResult(batch, ctx);
}

/** Delivers the import's messages until it is completed (each message's continuation is delivered next). */
async function runToTheEnd(id: string, delivery: Delivery): Promise<number> {
  let messages = 0;
  const pending = [id];
  while (pending.length > 0 && messages < 50) {
    delivery.record.sent.length = 0;
    await deliver([pending.shift()!], delivery.runEnv);
    messages++;
    pending.push(...delivery.record.sent.map((message) => message.importId));
  }
  return messages;
}

async function stored(id: string) {
  const [row] = await db.select().from(schema.imports).where(eq(schema.imports.id, id));
  return row;
}

async function importedNames(listId: string): Promise<string[]> {
  return (await db.select({ name: schema.contacts.name }).from(schema.contacts).where(eq(schema.contacts.accountListId, listId))).map((c) => c.name).sort();
}

const expectedNames = (rows: number, failing: number[] = []) =>
  Array.from({ length: rows }, (_, i) => i + 2).filter((row) => !failing.includes(row)).map((row) => `Last${row}, First${row}`).sort();

beforeAll(async () => {
  alice = await createViewer();
});

describe("running an import", () => {
  it("writes the rows in chunks over as many messages as it takes, then completes and mails the outcome once", async () => {
    const viewer = await createViewer();
    const rows = CHUNK_ROWS * CHUNKS_PER_MESSAGE + 150;
    const id = await startedImport(csvOf(rows), viewer);
    const delivery = recording();
    const messages = await runToTheEnd(id, delivery);
    expect(messages).toBe(2);
    expect(await importedNames(viewer.list.id)).toEqual(expectedNames(rows));
    expect(await stored(id)).toMatchObject({ rowsTotal: rows, nextRow: rows, rowsImported: rows, rowsFailed: 0, fileKey: null, error: null });
    expect(delivery.record.emails).toHaveLength(1);
    expect(delivery.record.emails[0]).toMatchObject({ to: viewer.user.email, subject: SUCCESS_SUBJECT });
    expect(delivery.record.emails[0].text).toContain(`${rows} contacts imported successfully.`);
    // Every contact has its person, primary e-mail address and the import's tag.
    const [counts] = await db.all<{ people: number; emails: number; tags: number }>(sql`SELECT
      (SELECT count(*) FROM people p JOIN contacts c ON c.id = p.contact_id WHERE c.account_list_id = ${viewer.list.id} AND p.is_primary = 1) AS people,
      (SELECT count(*) FROM email_addresses e JOIN people p ON p.id = e.person_id JOIN contacts c ON c.id = p.contact_id WHERE c.account_list_id = ${viewer.list.id} AND e."primary" = 1) AS emails,
      (SELECT count(*) FROM contact_tags t JOIN contacts c ON c.id = t.contact_id WHERE c.account_list_id = ${viewer.list.id} AND t.name = 'imported') AS tags`);
    expect(counts).toEqual({ people: rows, emails: rows, tags: rows });
    await expectCountsKept();

    // Delivered again after it completed: nothing more is stored or sent.
    await deliver([id], delivery.runEnv);
    expect(await importedNames(viewer.list.id)).toHaveLength(rows);
    expect(delivery.record.emails).toHaveLength(1);
  });

  it("stores each row once when its message is delivered twice at once, or runs overlap after a stale hold", async () => {
    const viewer = await createViewer();
    const rows = CHUNK_ROWS * 3 + 7;
    const id = await startedImport(csvOf(rows), viewer);
    const delivery = recording();
    // One message delivered twice at once: one run holds the import, the other is told to come back later.
    const results = await Promise.all([deliver([id], delivery.runEnv), deliver([id], delivery.runEnv)]);
    expect(results.flatMap((result) => result.retryMessages)).toHaveLength(1);
    expect(results.flatMap((result) => result.explicitAcks)).toHaveLength(1);
    expect(await importedNames(viewer.list.id)).toEqual(expectedNames(rows));

    // Two runs at once, the second taking over what looks like an abandoned hold: each chunk is written by one.
    const again = await createViewer();
    const second = await startedImport(csvOf(rows), again);
    const later = Date.now() + 10 * 60_000;
    const outcomes = await Promise.all([runImport(await importEnv(delivery.runEnv, second), second), runImport(await importEnv(delivery.runEnv, second), second, later)]);
    expect(outcomes.map((outcome) => outcome.kind)).toContain("completed");
    expect(await importedNames(again.list.id)).toEqual(expectedNames(rows));
    expect(await stored(second)).toMatchObject({ nextRow: rows, rowsImported: rows });
    await expectCountsKept();
  });

  it("finishes an import whose run was killed mid-way when it runs again, without a second contact for any row", async () => {
    const viewer = await createViewer();
    const rows = CHUNK_ROWS * 3 + 20;
    const id = await startedImport(csvOf(rows, [5, 250]), viewer);
    // The database goes away after the second chunk's batch: the run dies there, as a killed invocation would.
    let batches = 0;
    const dying = new Proxy(env[LISTS_ON as "DB"], {
      get(target, property) {
        if (property === "batch") {
          return async (statements: D1PreparedStatement[]) => {
            if (statements.length > 2 && ++batches > 2) throw new Error("the invocation was killed");
            return target.batch(statements);
          };
        }
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const killed = recording({ [LISTS_ON]: dying });
    const result = await deliver([id], killed.runEnv);
    expect(result.retryMessages).toHaveLength(1);
    expect(await stored(id)).toMatchObject({ nextRow: 2 * CHUNK_ROWS, importCompletedAt: null });
    expect(await importedNames(viewer.list.id)).toHaveLength(2 * CHUNK_ROWS - 1);

    // Run again once its hold has lapsed.
    const delivery = recording();
    expect(await runImport(await importEnv(delivery.runEnv, id), id)).toMatchObject({ kind: "busy" });
    expect(await runImport(await importEnv(delivery.runEnv, id), id, Date.now() + 10 * 60_000)).toEqual({ kind: "completed", rows: rows - 2 * CHUNK_ROWS });
    expect(await importedNames(viewer.list.id)).toEqual(expectedNames(rows, [5, 250]));
    expect(await stored(id)).toMatchObject({ nextRow: rows, rowsImported: rows - 2, rowsFailed: 2 });
    await expectCountsKept();
  });

  it("mails the failed rows as CSV, each with its reason, their formulas written as text", async () => {
    const viewer = await createViewer();
    const id = await startedImport(csvOf(6, [3, 6]), viewer);
    const delivery = recording();
    await runToTheEnd(id, delivery);
    expect(await stored(id)).toMatchObject({ rowsImported: 4, rowsFailed: 2 });
    const failures = await db.select().from(schema.importRowFailures).where(eq(schema.importRowFailures.importId, id));
    expect(failures.map((f) => [f.rowNumber, f.message])).toEqual([
      [3, "Validation failed: First name can't be blank"],
      [6, "Validation failed: First name can't be blank"],
    ]);
    const [mail] = delivery.record.emails;
    expect(mail).toMatchObject({ to: viewer.user.email, subject: FAILURE_SUBJECT });
    expect(mail.text).toContain("4 contacts imported successfully.");
    expect(mail.text).toContain("2 contacts failed to import.");
    const [attachment] = mail.attachments!;
    expect(attachment).toMatchObject({ filename: FAILURES_FILE_NAME, type: "text/csv", disposition: "attachment" });
    const text = new TextDecoder().decode(attachment.content as ArrayBuffer);
    expect(text).toBe(
      "Error Message,first_name,last_name,email,status,notes\n" +
        `Validation failed: First name can't be blank,,Nobody3,,Praying,"'=HYPERLINK(""http://example.org"")"\n` +
        `Validation failed: First name can't be blank,,Nobody6,,Praying,"'=HYPERLINK(""http://example.org"")"\n`,
    );
    // Run again: the mail is not sent a second time.
    await deliver([id], delivery.runEnv);
    expect(delivery.record.emails).toHaveLength(1);
  });

  it("stops an import whose messages failed every retry, and says so", async () => {
    const viewer = await createViewer();
    const id = await startedImport(csvOf(3), viewer);
    const delivery = recording();
    await deliver([id], delivery.runEnv, "csv-imports-dlq");
    const outcome = await stored(id);
    expect(outcome.importCompletedAt).toBeTruthy();
    expect(outcome.error).toMatch(/failed repeatedly/);
    expect(delivery.record.emails.map((m) => m.subject)).toEqual([FAILURE_SUBJECT]);
    // A late delivery of its message changes nothing.
    await deliver([id], delivery.runEnv);
    expect(await importedNames(viewer.list.id)).toEqual([]);
  });

  it("leaves an import that a run moved on lately to that run when another of its messages is dead-lettered", async () => {
    const viewer = await createViewer();
    const id = await startedImport(csvOf(3), viewer);
    await db.update(schema.imports).set({ claimedAt: new Date(Date.now() - 60_000).toISOString().slice(0, 19) + "Z" }).where(eq(schema.imports.id, id));
    const delivery = recording();
    await deliver([id], delivery.runEnv, "csv-imports-dlq");
    expect(await stored(id)).toMatchObject({ importCompletedAt: null, error: null });
    expect(delivery.record.emails).toEqual([]);
  });

  it("writes long rows in smaller chunks, each table's rows one value D1 takes", async () => {
    const viewer = await createViewer();
    const rows = 60;
    const notes = "n".repeat(30_000);
    const text = [HEADERS, ...Array.from({ length: rows }, (_, i) => `First${i + 2},Last${i + 2},,Giving,${notes}`), ""].join("\n");
    const id = await startedImport(text, viewer);
    // Every bound value the run sends, by size.
    const sizes: number[] = [];
    const watching = new Proxy(env[LISTS_ON as "DB"], {
      get(target, property) {
        if (property === "prepare") {
          return (query: string) => {
            const statement = target.prepare(query);
            return new Proxy(statement, {
              get(inner, name) {
                if (name === "bind") return (...values: unknown[]) => (sizes.push(...values.map((v) => (typeof v === "string" ? v.length : 0))), inner.bind(...values));
                const value = Reflect.get(inner, name);
                return typeof value === "function" ? value.bind(inner) : value;
              },
            });
          };
        }
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    await runToTheEnd(id, recording({ [LISTS_ON]: watching }));
    expect(await importedNames(viewer.list.id)).toEqual(expectedNames(rows));
    expect(Math.max(...sizes)).toBeLessThan(CHUNK_CHARACTERS + 200_000);
    expect(Math.max(...sizes)).toBeGreaterThan(100_000);
  });

  it("refuses a row whose tags cannot be kept, and writes the rest", async () => {
    const viewer = await createViewer();
    const body = new FormData();
    body.append("data[type]", "imports");
    body.append("data[attributes][file]", new File([`first_name,tags\nAnn,"vip, ${"x".repeat(300)}"\nBo,friend\n`], "tags.csv", { type: "text/csv" }));
    const id = (await request("POST", `/api/v2/account_lists/${viewer.list.id}/imports/csv`, { token: viewer.token, body })).body.data.id;
    const started = await put(
      `/api/v2/account_lists/${viewer.list.id}/imports/csv/${id}`,
      { data: { type: "imports", id, attributes: { overwrite: true, file_headers_mappings: { first_name: "first_name", tags: "tags" }, in_preview: false } } },
      viewer.token,
    );
    expect(started.status, started.text).toBe(200);
    // Started through the API: its message goes through the queue to the worker's consumer.
    await vi.waitUntil(async () => (await stored(id)).importCompletedAt, { timeout: 15_000, interval: 50 });
    const failures = await db.select().from(schema.importRowFailures).where(eq(schema.importRowFailures.importId, id));
    expect(failures.map((f) => [f.rowNumber, f.message])).toEqual([[2, "Validation failed: Tags has a tag that is too long (maximum is 255 characters)"]]);
    expect(await importedNames(viewer.list.id)).toEqual(["Bo"]);
  });

  it("sends a started import its first message once, however many requests started it at the same moment", async () => {
    const viewer = await createViewer();
    const id = await startedImport(csvOf(2), viewer);
    const delivery = recording();
    const sent = await Promise.all([queueStartedImport(delivery.runEnv, db, id), queueStartedImport(delivery.runEnv, db, id), queueStartedImport(delivery.runEnv, db, id)]);
    expect(sent.filter(Boolean)).toHaveLength(1);
    expect(delivery.record.sent).toEqual([{ importId: id }]);
    await runToTheEnd(id, delivery);
    expect(await importedNames(viewer.list.id)).toEqual(expectedNames(2));
  });

  it("sends a queued import whose message was lost again, from the five-minute cron", async () => {
    const viewer = await createViewer();
    const id = await startedImport(csvOf(2), viewer);
    const delivery = recording();
    await runCron(FIVE_MINUTE_CRON, Date.now(), delivery.runEnv);
    expect(delivery.record.sent).toEqual([{ importId: id }]);
    // Sent once: the next sweep leaves it alone while its new message may still arrive.
    delivery.record.sent.length = 0;
    await runCron(FIVE_MINUTE_CRON, Date.now() + 60_000, delivery.runEnv);
    expect(delivery.record.sent).toEqual([]);
    await runToTheEnd(id, delivery);
    expect(await importedNames(viewer.list.id)).toEqual(expectedNames(2));
  });
});
