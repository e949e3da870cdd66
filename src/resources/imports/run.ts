/**
 * Running an import: a queue message names the import; its consumer reads the file from R2 and writes its rows in
 * chunks, each chunk's contacts (with their people, details, addresses, tags, referrals) and failures in one atomic
 * D1 batch that also moves the import's `next_row` on from exactly where the chunk began. A chunk delivered twice,
 * or written by two consumers at once, is therefore stored once: the second batch finds `next_row` moved and
 * writes nothing. After a bounded number of chunks the consumer sends the import on in a new message, so no
 * invocation outgrows its limits; when the file is read to its end the import is completed, its file deleted and
 * its closing e-mail sent.
 */
import { sql, type SQL } from "drizzle-orm";
import {
  addresses,
  contactReferrals,
  contacts,
  contactTags,
  emailAddresses,
  importRowFailures,
  people,
  phoneNumbers,
} from "../../../drizzle/schema";
import { database } from "../../db/client";
import { d1Metrics } from "../../db/metrics";
import { dispatchDeliveries } from "../../webhooks/dispatch";
import { onDatabaseHolding } from "../../db/list-env";
import { CHANGED_OR_FAIL, isGuardFailure } from "../../db/guard";
import { insertRows, rowsOf, runAtomically } from "../../db/statements";
import type { RequestContext, Row } from "../../engine/define";
import type { Bindings, Database, ImportRunMessage } from "../../env";
import { formatTimestamp } from "../../jsonapi/time";
import { retryDelaySeconds } from "../../retries";
import { csvRecords, isBlankRow, type FileEncoding } from "./csv-file";
import { headerKey } from "./format";
import { sendClosingMail } from "./mail";
import { contactName, parseFullName } from "../contacts/names";
import { checkedRows, draftContact, type ContactDraft, type DraftRecord, type ImportRules } from "./row-contact";

/** Data rows written by one atomic batch, */
export const CHUNK_ROWS = 100;
/**
 * or fewer when their cells hold this many characters: each table's rows go in as one JSON value, and D1 takes no
 * value over 2 MB.
 */
export const CHUNK_CHARACTERS = 400_000;
/** Chunks one message writes before the import goes on in the next. */
export const CHUNKS_PER_MESSAGE = 20;
/** How long a run holds an import between chunks; a hold older than this was abandoned. */
export const LEASE_SECONDS = 120;
/** A queued import untouched this long has lost its message: the sweep sends another. */
const STALLED_SECONDS = 600;

/**
 * The claim a run leaves when it hands the import on (to its next message, or to the sweep's): already expired, so
 * the next run takes it at once, yet recent, so the sweep leaves it alone for STALLED_SECONDS.
 */
const released = (now: number) => formatTimestamp(new Date(now - (LEASE_SECONDS + 1) * 1000));

export const MISSING_REFERRER_TAG = "missing csv referred by";

interface ImportRow {
  id: string;
  account_list_id: string;
  user_id: string;
  file_key: string | null;
  file_encoding: FileEncoding;
  file_headers_mappings: string;
  file_constants_mappings: string;
  tag_list: string;
  next_row: number;
  import_completed_at: string | null;
  claimed_at: string | null;
}

export async function queueImport(env: Bindings, importId: string): Promise<void> {
  await env.IMPORT_QUEUE.send({ importId });
}

/**
 * Sends a just started import its first message: once, however many requests started it at the same moment (the
 * one whose conditional stamp lands sends it). Should the send fail, the sweep sends it. Answers whether it sent.
 */
export async function queueStartedImport(env: Bindings, db: Database, importId: string, now = Date.now()): Promise<boolean> {
  const [won] = await rowsOf(db, [
    sql`UPDATE imports SET claimed_at = ${released(now)} WHERE id = ${importId} AND claimed_at IS NULL AND import_started_at IS NULL RETURNING id`,
  ]);
  if (won.length === 0) return false;
  await queueImport(env, importId);
  return true;
}

type Claim = { kind: "claimed"; row: ImportRow } | { kind: "gone" } | { kind: "completed" } | { kind: "busy"; retryInSeconds: number };

/** Takes the import for this run, unless another run holds it. */
async function claim(db: Database, importId: string, now: number): Promise<Claim> {
  const stamp = formatTimestamp(new Date(now));
  const staleBefore = formatTimestamp(new Date(now - LEASE_SECONDS * 1000));
  const [claimed, current] = await rowsOf(db, [
    sql`UPDATE imports SET claimed_at = ${stamp}, import_started_at = COALESCE(import_started_at, ${stamp})
      WHERE id = ${importId} AND queued_for_import_at IS NOT NULL AND import_completed_at IS NULL AND (claimed_at IS NULL OR claimed_at < ${staleBefore})
      RETURNING id, account_list_id, user_id, file_key, file_encoding, file_headers_mappings, file_constants_mappings, tag_list, next_row, import_completed_at, claimed_at`,
    sql`SELECT import_completed_at, claimed_at FROM imports WHERE id = ${importId}`,
  ]);
  if (claimed[0]) return { kind: "claimed", row: claimed[0] as unknown as ImportRow };
  const row = current[0];
  if (!row) return { kind: "gone" };
  if (row.import_completed_at) return { kind: "completed" };
  const heldUntil = Date.parse(String(row.claimed_at)) + LEASE_SECONDS * 1000;
  return { kind: "busy", retryInSeconds: Math.max(1, Math.ceil((heldUntil - now) / 1000)) };
}

interface FileRow {
  /** The row's number in the file, its header row being row 1. */
  number: number;
  cells: string[];
}

/** What the import's owner may do, for the attribute rules a row is checked with. */
function runContext(db: Database, env: Bindings, row: ImportRow, now: string): RequestContext {
  const lists = [row.account_list_id];
  return {
    db,
    env,
    now,
    viewer: { id: row.user_id, timeZone: "UTC", defaultAccountListId: row.account_list_id, readableListIds: lists, writableListIds: lists, listDatabases: {}, listsOfMembers: {} },
    params: {},
    pathParams: { account_list_id: row.account_list_id },
  };
}

/**
 * The list's contacts that referred-by names stand for: by the contact's name as written, or as a contact name
 * built from the text ("John Doe" → "Doe, John"). Answers name → contact id.
 */
async function referrers(db: Database, listId: string, names: string[]): Promise<Map<string, string>> {
  const sought = [...new Set(names.flatMap((name) => [name, contactName(parseFullName(name))]).filter(Boolean))];
  if (sought.length === 0) return new Map();
  const [found] = await rowsOf(db, [
    sql`SELECT c.name AS name, min(c.id) AS id FROM json_each(${JSON.stringify(sought)}) AS n
      JOIN contacts AS c ON c.account_list_id = ${listId} AND c.name = n.value GROUP BY c.name`,
  ]);
  const byName = new Map(found.map((row) => [String(row.name), String(row.id)]));
  const matches = new Map<string, string>();
  for (const name of names) {
    const id = byName.get(name) ?? byName.get(contactName(parseFullName(name)));
    if (id) matches.set(name, id);
  }
  return matches;
}

function stamped(row: Row, now: string): Row {
  return { ...row, created_at: now, updated_at: now };
}

/** The statements that store a chunk's contacts; `failures` are its refused rows. */
async function chunkWrites(ctx: RequestContext, importId: string, rows: FileRow[], rules: ImportRules): Promise<{ statements: SQL[]; imported: number; failed: number }> {
  const now = ctx.now;
  const listId = ctx.pathParams.account_list_id;
  const built: Array<{ draft: ContactDraft; stored: Map<DraftRecord, Row> }> = [];
  const failures: Row[] = [];
  for (const { number, cells } of rows) {
    if (isBlankRow(cells)) continue;
    const draft = draftContact(cells, rules, () => crypto.randomUUID());
    const checked = checkedRows(draft, ctx);
    if ("failure" in checked) failures.push({ import_id: importId, row_number: number, message: checked.failure, cells: JSON.stringify(cells) });
    else built.push({ draft, stored: checked.rows });
  }
  const sought = built.flatMap(({ draft }) => (draft.referredBy ? [draft.referredBy] : []));
  const known = await referrers(ctx.db, listId, sought);
  // Contacts of the same chunk may refer to one another.
  for (const { draft, stored } of built) {
    const name = String(stored.get(draft.contact)?.name ?? "");
    if (name && !known.has(name)) known.set(name, draft.contact.id);
  }
  const tables = { contacts: [] as Row[], people: [] as Row[], emails: [] as Row[], phones: [] as Row[], addresses: [] as Row[], tags: [] as Row[], referrals: [] as Row[] };
  for (const { draft, stored } of built) {
    const contact = stamped({ ...stored.get(draft.contact), id: draft.contact.id, account_list_id: listId }, now);
    const tags = [...draft.tags];
    if (draft.referredBy) {
      const referrer = known.get(draft.referredBy) ?? known.get(contactName(parseFullName(draft.referredBy)));
      if (referrer && referrer !== draft.contact.id) {
        tables.referrals.push(stamped({ id: crypto.randomUUID(), referred_by_id: referrer, referred_to_id: draft.contact.id }, now));
      } else if (!referrer) {
        // As the original does: the name is kept in the notes, and the contact tagged to be found and linked by hand.
        tags.push(MISSING_REFERRER_TAG);
        const line = `Referred by: ${draft.referredBy}`;
        contact.notes = contact.notes ? `${String(contact.notes)} \n \n${line}` : line;
      }
    }
    if (contact.notes) contact.notes_saved_at = now;
    tables.contacts.push(contact);
    draft.people.forEach((person, position) => {
      tables.people.push(stamped({ ...stored.get(person.person), id: person.person.id, contact_id: draft.contact.id, is_primary: position === 0 ? 1 : 0, position }, now));
      for (const email of person.emails) tables.emails.push(stamped({ ...stored.get(email), id: email.id, person_id: person.person.id }, now));
      for (const phone of person.phones) tables.phones.push(stamped({ ...stored.get(phone), id: phone.id, person_id: person.person.id }, now));
    });
    for (const address of draft.addresses) tables.addresses.push(stamped({ ...stored.get(address), id: address.id, contact_id: draft.contact.id }, now));
    for (const name of new Set(tags)) tables.tags.push({ contact_id: draft.contact.id, name });
  }
  const statements = [
    insertRows(contacts, tables.contacts),
    insertRows(people, tables.people),
    insertRows(emailAddresses, tables.emails),
    insertRows(phoneNumbers, tables.phones),
    insertRows(addresses, tables.addresses),
    insertRows(contactTags, tables.tags),
    insertRows(contactReferrals, tables.referrals),
    insertRows(importRowFailures, failures),
  ].filter((statement): statement is SQL => statement !== undefined);
  return { statements, imported: built.length, failed: failures.length };
}

/**
 * Writes one chunk: only if the import still stands where the chunk begins. Answers false when another run wrote
 * it first (the batch then wrote nothing).
 */
async function writeChunk(ctx: RequestContext, importId: string, first: number, rows: FileRow[], rules: ImportRules): Promise<boolean> {
  const { statements, imported, failed } = await chunkWrites(ctx, importId, rows, rules);
  const progress = sql`UPDATE imports SET next_row = next_row + ${rows.length}, rows_imported = rows_imported + ${imported}, rows_failed = rows_failed + ${failed},
    claimed_at = ${ctx.now} WHERE id = ${importId} AND next_row = ${first} AND import_completed_at IS NULL`;
  try {
    await runAtomically(ctx.db, [progress, CHANGED_OR_FAIL, ...statements]);
    return true;
  } catch (error) {
    if (isGuardFailure(error)) return false;
    throw error;
  }
}

/** Marks the import completed (once, with why it stopped when it did), then finishes it. */
async function complete(env: Bindings, db: Database, importId: string, now: string, error: string | null = null): Promise<void> {
  await db.$client
    .prepare("UPDATE imports SET import_completed_at = ?, claimed_at = NULL, error = ?, updated_at = ? WHERE id = ? AND import_completed_at IS NULL")
    .bind(now, error, now, importId)
    .run();
  await finish(env, db, importId, now);
}

/**
 * What follows a completed import, each step once however often it is run: the closing e-mail, then the file's
 * deletion (its failed rows are kept in D1 for the e-mail).
 */
async function finish(env: Bindings, db: Database, importId: string, now: string): Promise<void> {
  // The file goes whether or not the e-mail could be sent (a failed send is tried again by the next delivery).
  const mailed = sendClosingMail(env, db, importId, now).then(
    () => undefined,
    (error: unknown) => error,
  );
  const [rows] = await rowsOf(db, [sql`SELECT file_key FROM imports WHERE id = ${importId} AND import_completed_at IS NOT NULL AND file_key IS NOT NULL`]);
  const key = rows[0]?.file_key;
  if (key) {
    await env.IMPORT_FILES.delete(String(key));
    await db.$client.prepare("UPDATE imports SET file_key = NULL WHERE id = ?").bind(importId).run();
  }
  const failure = await mailed;
  if (failure) throw failure;
}

/** What a run did: `rows` read from the file; `busy` another run holds the import (come back after `retryInSeconds`). */
export type RunOutcome = { kind: "completed" | "continued" | "gone"; rows: number } | { kind: "busy"; retryInSeconds: number; rows: number };

/** Runs an import on from where it stands, for up to CHUNKS_PER_MESSAGE chunks. */
export async function runImport(env: Bindings, importId: string, now = Date.now()): Promise<RunOutcome> {
  const db = database(env.DB);
  const claimed = await claim(db, importId, now);
  if (claimed.kind === "gone") return { kind: "gone", rows: 0 };
  if (claimed.kind === "busy") return { kind: "busy", retryInSeconds: claimed.retryInSeconds, rows: 0 };
  if (claimed.kind === "completed") {
    // An import completed by a run that stopped before its e-mail or the file's deletion.
    await finish(env, db, importId, formatTimestamp(new Date(now)));
    return { kind: "completed", rows: 0 };
  }
  const row = claimed.row;
  const file = row.file_key ? await env.IMPORT_FILES.get(row.file_key) : null;
  if (!file) {
    await complete(env, db, importId, formatTimestamp(new Date(now)), "The import's file is no longer stored; upload it again.");
    return { kind: "completed", rows: 0 };
  }
  const rules: Omit<ImportRules, "columnKeys"> = {
    headersMappings: JSON.parse(row.file_headers_mappings),
    constantsMappings: JSON.parse(row.file_constants_mappings),
    tagList: row.tag_list,
  };
  let columnKeys: string[] | undefined;
  let index = 0;
  let next = row.next_row;
  let chunk: FileRow[] = [];
  let chunkCharacters = 0;
  let chunks = 0;
  const write = async () => {
    const ctx = runContext(db, env, row, formatTimestamp(new Date()));
    const wrote = await writeChunk(ctx, importId, next, chunk, { ...rules, columnKeys: columnKeys! });
    if (!wrote) throw new LostImport();
    next += chunk.length;
    chunk = [];
    chunkCharacters = 0;
    chunks++;
  };
  try {
    for await (const cells of csvRecords(file.body, row.file_encoding)) {
      if (!columnKeys) {
        columnKeys = cells.map((cell) => headerKey(cell));
        continue;
      }
      const position = index++;
      if (position < next) continue;
      chunk.push({ number: position + 2, cells });
      for (const cell of cells) chunkCharacters += cell.length;
      if (chunk.length < CHUNK_ROWS && chunkCharacters < CHUNK_CHARACTERS) continue;
      await write();
      if (chunks >= CHUNKS_PER_MESSAGE) {
        await db.$client.prepare("UPDATE imports SET claimed_at = ? WHERE id = ?").bind(released(Date.now()), importId).run();
        return { kind: "continued", rows: next - row.next_row };
      }
    }
    if (chunk.length > 0) await write();
  } catch (error) {
    // Another run took the import over (this one was too slow): it goes on from where that run stands.
    if (error instanceof LostImport) return { kind: "busy", retryInSeconds: LEASE_SECONDS, rows: next - row.next_row };
    throw error;
  }
  await complete(env, db, importId, formatTimestamp(new Date()));
  return { kind: "completed", rows: next - row.next_row };
}

class LostImport extends Error {}

/**
 * Records an import whose message failed every retry as stopped, and tells its owner; unless a run moved it on
 * within STALLED_SECONDS (the dead message was one of two, and the other goes on). Answers whether it stopped it.
 */
export async function stopImport(env: Bindings, importId: string, reason: string, now = Date.now()): Promise<boolean> {
  const db = database(env.DB);
  const stamp = formatTimestamp(new Date(now));
  const staleBefore = formatTimestamp(new Date(now - STALLED_SECONDS * 1000));
  const [stopped] = await rowsOf(db, [
    sql`UPDATE imports SET import_completed_at = ${stamp}, claimed_at = NULL, error = ${reason}, updated_at = ${stamp}
      WHERE id = ${importId} AND import_completed_at IS NULL AND (claimed_at IS NULL OR claimed_at < ${staleBefore}) RETURNING id`,
  ]);
  await finish(env, db, importId, stamp);
  return stopped.length > 0;
}

export const isImportQueue = (queue: string) => queue.startsWith("csv-imports");

/** The import queue's consumer and its dead-letter queue's: one line per message, with what it cost in D1. */
export async function consumeImportRuns(batch: MessageBatch<unknown>, env: Bindings): Promise<void> {
  const deadLetters = batch.queue.endsWith("-dlq");
  for (const message of batch.messages) {
    const importId = (message.body as Partial<ImportRunMessage> | null)?.importId;
    const line = { message: "queue message", queue: batch.queue, message_id: message.id, import_id: importId ?? null, attempts: message.attempts };
    if (typeof importId !== "string") {
      message.ack();
      console.error(JSON.stringify({ level: "error", ...line, outcome: "no import id" }));
      continue;
    }
    try {
      // On the database that holds the import (its list's).
      const importEnv = await onDatabaseHolding(env, "imports", importId);
      const metrics = d1Metrics(importEnv, importEnv.DB);
      const measured = { ...importEnv, DB: metrics.db };
      if (deadLetters) {
        const stopped = await stopImport(measured, importId, "The import stopped before reading the whole file: it failed repeatedly. The rows counted as imported are stored.");
        message.ack();
        console.error(JSON.stringify({ level: "error", ...line, outcome: stopped ? "dead-lettered: stopped" : "dead-lettered: left to the run that holds it" }));
        continue;
      }
      const outcome = await runImport(measured, importId);
      // The webhook deliveries of the contacts it wrote (the sweep sends them should this fail).
      await dispatchDeliveries(importEnv).catch((error: unknown) => console.error(JSON.stringify({ level: "error", ...line, outcome: "webhook dispatch failed", error: String(error) })));
      if (outcome.kind === "continued") await queueImport(env, importId);
      // Busy: another run holds the import; come back when its hold lapses, should that run have died.
      if (outcome.kind === "busy") message.retry({ delaySeconds: outcome.retryInSeconds });
      else message.ack();
      const { roundTrips, rowsRead } = metrics.totals();
      console.log(JSON.stringify({ level: "info", ...line, outcome: outcome.kind, rows: outcome.rows, d1_round_trips: roundTrips, d1_rows_read: rowsRead }));
    } catch (error) {
      console.error(error);
      console.error(JSON.stringify({ level: "error", ...line, outcome: "failed", error: String(error) }));
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    }
  }
}

/** Sends a new message for every queued import that has not moved for a while (its message was lost). */
export async function resumeStalledImports(env: Bindings, now = Date.now()): Promise<number> {
  const db = database(env.DB);
  const before = formatTimestamp(new Date(now - STALLED_SECONDS * 1000));
  // Stamped as released in the statement that selects them, so overlapping sweeps send each once.
  const [stalled] = await rowsOf(db, [
    sql`UPDATE imports SET claimed_at = ${released(now)} WHERE id IN (
      SELECT id FROM imports WHERE queued_for_import_at IS NOT NULL AND import_completed_at IS NULL
        AND COALESCE(claimed_at, queued_for_import_at) < ${before} LIMIT 100) RETURNING id`,
  ]);
  for (const row of stalled) await queueImport(env, String(row.id));
  return stalled.length;
}
