/**
 * CSV imports end to end, as a client runs them: upload a generated spreadsheet, map it, start it, and wait until
 * the queue consumer has stored every row. For 10,000 and 100,000 rows: rows per second from the upload's first
 * byte to the import's completion, D1 round trips per 1,000 rows (from each import message's log line,
 * src/resources/imports/run.ts), and the isolate's peak JS heap during the upload and during the run. A 50 MB file is also
 * uploaded (not run), for the upload's memory at the largest size taken. Target: under 64 MB added for both.
 * Each import goes into a list of its own, so the dataset the other scenarios read is left as it was.
 */
import { MAX_FILE_SIZE_IN_BYTES } from "../src/constants/csv-import";
import { benchIds } from "./dataset";
import { devtools, peakHeap, type Session } from "./memory";
import type { RunLog } from "./notifications";
import type { D1Handle } from "./server";

export interface ImportLine {
  import_id?: string;
  outcome?: string;
  rows?: number;
  d1_round_trips?: number;
  d1_rows_read?: number;
}

export interface ImportRun {
  rows: number;
  fileBytes: number;
  uploadMs: number;
  runMs: number;
  messages: number;
  roundTrips: number;
  rowsRead: number;
  stored: number;
  uploadPeakMb: number;
  runPeakMb: number;
  beforeMb: number;
}

export interface ImportBench {
  runs: ImportRun[];
  /** The upload of a file at the size limit: its size, and the heap before and at its peak. */
  largest?: { fileBytes: number; ms: number; beforeMb: number; peakMb: number; status: number };
  error?: string;
}

const HEADERS = "First Name,Last Name,Spouse First Name,Email,Phone,Street,City,State,Zip,Status,Send Appeals,Tags,Notes";
const STATUSES = ["Giving", "Praying", "Contact later"];

/** Supporter `n`: a name of their own, a spouse every other row, an address; about 170 bytes. */
const row = (n: number) =>
  `First${n},Last${n % 9_973},${n % 2 ? `Spouse${n}` : ""},person${n}@example.org,+1 555 ${String(n % 10_000).padStart(4, "0")},${n} Main Street,Springfield,IL,${String(60_000 + (n % 999))},` +
  `${STATUSES[n % 3]},${n % 4 ? "Yes" : "No"},"imported,batch ${n % 10}",Met at the conference in ${2000 + (n % 25)}`;

/** `rows` supporters under the header row. */
export function spreadsheet(rows: number): string {
  const lines = [HEADERS];
  for (let n = 1; n <= rows; n++) lines.push(row(n));
  return lines.join("\r\n") + "\r\n";
}

/** As many rows as fit in `bytes` (rows grow longer with their number: sized by the longest). */
export const rowsWithin = (bytes: number) => Math.floor(bytes / (row(999_999).length + 2));

const MAPPINGS = {
  file_headers_mappings: {
    first_name: "first_name", last_name: "last_name", spouse_first_name: "spouse_first_name", email_1: "email", phone_1: "phone", street: "street",
    city: "city", state: "state", zip: "zip", status: "status", send_appeals: "send_appeals", tags: "tags", notes: "notes",
  },
  file_constants_mappings: {
    status: [{ id: "Partner - Financial", values: ["Giving"] }, { id: "Partner - Pray", values: ["Praying"] }, { id: "Ask in Future", values: ["Contact later"] }],
    send_appeals: [{ id: true, values: ["Yes"] }, { id: false, values: ["No"] }],
  },
};

/** A list of the bench viewer's own for each import. */
async function freshList(db: D1Handle, n: number): Promise<string> {
  const id = `00000000-0000-4000-8000-${String(900_000_000_000 + n)}`;
  const stamp = new Date().toISOString().slice(0, 19) + "Z";
  await db.prepare(`INSERT INTO account_lists (id, name, created_at, updated_at) VALUES ('${id}', 'Imported ${n}', '${stamp}', '${stamp}')`).run();
  await db.prepare(`INSERT INTO account_list_users (id, account_list_id, user_id, created_at, updated_at) VALUES ('${id.replace(/^00000000/, "11111111")}', '${id}', '${benchIds.viewer}', '${stamp}', '${stamp}')`).run();
  return id;
}

async function upload(api: string, token: string, listId: string, text: string): Promise<Response> {
  const form = new FormData();
  form.append("data[type]", "imports");
  form.append("data[attributes][file]", new Blob([text], { type: "text/csv" }), "supporters.csv");
  return fetch(`${api}/api/v2/account_lists/${listId}/imports/csv`, { method: "POST", headers: { Authorization: `Bearer ${token}`, Accept: "application/vnd.api+json" }, body: form });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Peak heap while `work` runs (the session is polled every few milliseconds). */
async function whilePeak<T>(session: Session, work: () => Promise<T>): Promise<{ value: T; beforeMb: number; peakMb: number; ms: number }> {
  let value: T | undefined;
  const started = performance.now();
  let ms = 0;
  const heap = await peakHeap(
    session,
    async () => {
      value = await work();
      ms = performance.now() - started;
      return { status: 0, bytes: 0, detail: "" };
    },
    "",
  );
  return { value: value as T, beforeMb: heap.beforeMb, peakMb: heap.peakMb, ms };
}

async function runOne(api: string, token: string, db: D1Handle, session: Session, log: RunLog<ImportLine>, rows: number, n: number): Promise<ImportRun> {
  const listId = await freshList(db, n);
  // The viewer's lists are remembered for VIEWER_CACHE_SECONDS (wrangler.toml): wait for the new one to count.
  await sleep(6_000);
  const text = spreadsheet(rows);
  const uploaded = await whilePeak(session, async () => {
    const response = await upload(api, token, listId, text);
    const body = (await response.json()) as { data?: { id: string }; errors?: unknown };
    if (response.status !== 201 || !body.data) throw new Error(`upload answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
    return body.data.id;
  });
  const id = uploaded.value;
  const path = `${api}/api/v2/account_lists/${listId}/imports/csv/${id}`;
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/vnd.api+json", Accept: "application/vnd.api+json" };
  const run = await whilePeak(session, async () => {
    const started = await fetch(path, { method: "PUT", headers, body: JSON.stringify({ data: { type: "imports", id, attributes: { ...MAPPINGS, in_preview: false, overwrite: true } } }) });
    if (started.status !== 200) throw new Error(`start answered ${started.status}: ${(await started.text()).slice(0, 300)}`);
    for (const deadline = Date.now() + 30 * 60_000; Date.now() < deadline; await sleep(250)) {
      const shown = (await (await fetch(path, { headers })).json()) as { data: { attributes: { import_completed_at: string | null; error: string | null } } };
      if (shown.data.attributes.import_completed_at) return shown.data.attributes;
    }
    throw new Error("the import did not complete within 30 minutes");
  });
  const lines = log.lines.filter((line) => line.import_id === id);
  const [{ n: stored }] = (await db.prepare(`SELECT count(*) AS n FROM contacts WHERE account_list_id = '${listId}'`).all<{ n: number }>()).results;
  return {
    rows,
    fileBytes: new TextEncoder().encode(text).length,
    uploadMs: uploaded.ms,
    runMs: run.ms,
    messages: lines.length,
    roundTrips: lines.reduce((sum, line) => sum + (line.d1_round_trips ?? 0), 0),
    rowsRead: lines.reduce((sum, line) => sum + (line.d1_rows_read ?? 0), 0),
    stored,
    uploadPeakMb: uploaded.peakMb,
    runPeakMb: run.peakMb,
    beforeMb: uploaded.beforeMb,
  };
}

export async function benchImports(api: string, inspector: string, token: string, db: D1Handle, log: RunLog<ImportLine>, sizes = [10_000, 100_000]): Promise<ImportBench> {
  const bench: ImportBench = { runs: [] };
  const session = await devtools(inspector);
  try {
    for (const [index, rows] of sizes.entries()) bench.runs.push(await runOne(api, token, db, session, log, rows, index + 1));
    // The largest file taken, uploaded only: what the upload holds in memory does not grow with the file.
    const listId = await freshList(db, sizes.length + 1);
    await sleep(6_000);
    const text = spreadsheet(rowsWithin(MAX_FILE_SIZE_IN_BYTES - HEADERS.length - 2));
    const largest = await whilePeak(session, async () => (await upload(api, token, listId, text)).status);
    bench.largest = { fileBytes: new TextEncoder().encode(text).length, ms: largest.ms, beforeMb: largest.beforeMb, peakMb: largest.peakMb, status: largest.value };
  } catch (error) {
    bench.error = String(error);
  } finally {
    session.close();
  }
  return bench;
}
