/**
 * Contact exports as the web apps run them: the viewer asks for an export of every contact of their own lists
 * (statuses hidden ones included), then downloads it as CSV and, asked again, as XLSX. For each file: its size and
 * time, the isolate's peak JS heap while it streams (target: under 64 MB added), and the D1 rows it read, from the
 * "export sent" line the service logs once the file's last part is sent (src/resources/contacts/exports.ts).
 */
import { devtools, peakHeap } from "./memory";

export interface ExportRun {
  format: "csv" | "xlsx";
  status: number;
  bytes: number;
  ms: number;
  contacts?: number;
  roundTrips?: number;
  rowsRead?: number;
  beforeMb: number;
  peakMb: number;
}

export interface ExportBench {
  runs: ExportRun[];
  error?: string;
}

interface SentLine {
  export_id?: string;
  contacts?: number;
  d1_round_trips?: number;
  d1_rows_read?: number;
}

/** The service's "export sent" lines, from its output. */
export class ExportLog {
  lines: SentLine[] = [];
  take(message: string): void {
    if (!message.includes('"export sent"')) return;
    try {
      this.lines.push(JSON.parse(message.slice(message.indexOf("{"))) as SentLine);
    } catch {
      // Not one of the JSON lines.
    }
  }
}

const JSONAPI = "application/vnd.api+json";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function createExport(api: string, token: string): Promise<string> {
  const body = { data: { type: "export_logs", attributes: { params: { filter: { status: "active,hidden,null" } } } } };
  const response = await fetch(`${api}/api/v2/contacts/exports`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, Accept: JSONAPI, "Content-Type": JSONAPI },
    body: JSON.stringify(body),
  });
  const document = (await response.json()) as { data?: { id: string } };
  if (response.status !== 201 || !document.data) throw new Error(`the export answered ${response.status}: ${JSON.stringify(document).slice(0, 300)}`);
  return document.data.id;
}

export async function benchExports(api: string, inspector: string, token: string, log: ExportLog): Promise<ExportBench> {
  const bench: ExportBench = { runs: [] };
  const session = await devtools(inspector);
  try {
    for (const format of ["csv", "xlsx"] as const) {
      const id = await createExport(api, token);
      const started = performance.now();
      // Read as the browser saves it, a part at a time, counting bytes: the bench holds no whole file either.
      const heap = await peakHeap(
        session,
        async () => {
          const response = await fetch(`${api}/api/v2/contacts/exports/${id}.${format}?access_token=${token}`);
          let bytes = 0;
          const reader = response.body!.getReader();
          for (let part = await reader.read(); !part.done; part = await reader.read()) bytes += part.value.length;
          return { status: response.status, bytes, detail: "" };
        },
        format,
      );
      const ms = performance.now() - started;
      // The line is logged as the last part leaves: give the output a moment to arrive.
      await sleep(500);
      const line = log.lines.find((entry) => entry.export_id === id);
      bench.runs.push({ format, status: heap.status, bytes: heap.bytes, ms, contacts: line?.contacts, roundTrips: line?.d1_round_trips, rowsRead: line?.d1_rows_read, beforeMb: heap.beforeMb, peakMb: heap.peakMb });
      // A pause, for the collector to clear what the file left before the next measurement starts.
      await sleep(5000);
    }
  } catch (error) {
    bench.error = String(error);
  } finally {
    session.close();
  }
  return bench;
}
