/**
 * What one heavy request costs in memory: a 25,000-contact `include=*` page, and a 100-item batch of heavy list
 * reads. Target: under 64 MB of growth each.
 */
import { readdirSync, readFileSync } from "node:fs";
import { benchIds } from "./dataset";

export interface HeapRun {
  name: string;
  /** What the answer held: rows, or items and their statuses. Memory: workerd's resident size, before and at peak. */
  detail: string;
  status: number;
  bytes: number;
  beforeMb: number;
  peakMb: number;
}

/**
 * Resident memory of the workerd process (Linux /proc), which runs the service's isolate and the local D1: polled
 * every few milliseconds while the request runs. Its growth over the request is what the request cost; workerd's
 * DevTools endpoint does not answer heap queries here, so the process is measured from outside.
 */
function workerdPids(): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "workerd" && readFileSync(`/proc/${pid}/status`, "utf8").includes(`PPid:\t${process.pid}\n`);
      } catch {
        return false;
      }
    })
    .map(Number);
}

function residentBytes(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (match) total += Number(match[1]) * 1024;
    } catch {
      // The process is gone.
    }
  }
  return total;
}

const mb = (bytes: number) => bytes / 2 ** 20;

async function peakMemory(request: () => Promise<{ status: number; bytes: number; detail: string }>, name: string): Promise<HeapRun> {
  const pids = workerdPids();
  if (pids.length === 0) throw new Error("no workerd process of this run found");
  const before = residentBytes(pids);
  let peak = before;
  let running = true;
  const polling = (async () => {
    while (running) {
      peak = Math.max(peak, residentBytes(pids));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const answer = await request();
  running = false;
  await polling;
  return { name, ...answer, beforeMb: mb(before), peakMb: mb(peak) };
}

export async function measureMemory(api: string, token: string): Promise<HeapRun[]> {
  const headers = { Authorization: `Bearer ${token}`, Accept: "application/vnd.api+json" };
  const page = `/api/v2/contacts?per_page=25000&include=*`;
  const runs: HeapRun[] = [];
  runs.push(
    await peakMemory(
      async () => {
        const response = await fetch(`${api}${page}`, { headers });
        const text = await response.text();
        const rows = response.ok ? (JSON.parse(text) as { data: unknown[] }).data.length : 0;
        return { status: response.status, bytes: text.length, detail: `${rows.toLocaleString("en-US")} contacts` };
      },
      "GET /api/v2/contacts?per_page=25000&include=*",
    ),
  );
  const requests = Array.from({ length: 100 }, (_, i) => ({
    method: "GET",
    path: i % 2 === 0 ? `/api/v2/contacts?per_page=2000&include=*&page=${1 + (i % 5)}` : `/api/v2/tasks?per_page=2000&include=*&filter[account_list_id]=${benchIds.lists[0]}`,
  }));
  runs.push(
    await peakMemory(
      async () => {
        const response = await fetch(`${api}/api/v2/batch`, { method: "POST", headers: { ...headers, "Content-Type": "application/vnd.api+json" }, body: JSON.stringify({ requests }) });
        const text = await response.text();
        const statuses = response.ok ? (JSON.parse(text) as Array<{ status: number }>).map((entry) => entry.status) : [];
        const counts = [...new Set(statuses)].map((status) => `${statuses.filter((s) => s === status).length}× ${status}`).join(", ");
        return { status: response.status, bytes: text.length, detail: `100 items of 2,000-row include=* pages: ${counts}` };
      },
      "POST /api/v2/batch, 100 heavy list items",
    ),
  );
  return runs;
}
