/**
 * What one heavy request costs the service's isolate in memory: its peak JS heap (read through the DevTools
 * protocol) over a 25,000-contact `include=*` page, and over a 100-item batch of heavy list reads. Target: under
 * 64 MB each. (The local D1 runs in the same workerd process, so the process's resident size would mostly show
 * SQLite's page cache, which a deployed isolate does not hold.)
 */
import { benchIds } from "./dataset";

export interface HeapRun {
  name: string;
  /** What the answer held: rows, or items and their statuses. */
  detail: string;
  status: number;
  bytes: number;
  beforeMb: number;
  peakMb: number;
}

/** A DevTools session with the service's isolate. The inspector proxy answers only origins it knows. */
export async function devtools(url: string): Promise<{ call(method: string): Promise<Record<string, number>>; close(): void }> {
  const socket = new WebSocket(url, { headers: { Origin: "https://devtools.devprod.cloudflare.dev" } } as unknown as string[]);
  const pending = new Map<number, (result: Record<string, number>) => void>();
  let next = 0;
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, number> };
    if (message.id !== undefined) pending.get(message.id)?.(message.result ?? {});
  });
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", () => reject(new Error(`cannot open ${url}`)), { once: true });
  });
  socket.addEventListener("close", () => {
    for (const resolve of pending.values()) resolve({});
  });
  return {
    // A method the runtime does not answer must not hold the run: after a second it counts as answered empty.
    call: (method) =>
      new Promise((resolve) => {
        const id = ++next;
        pending.set(id, resolve);
        socket.send(JSON.stringify({ id, method }));
        setTimeout(() => resolve({}), 1000);
      }),
    close: () => socket.close(),
  };
}

const mb = (bytes: number) => bytes / 2 ** 20;

/** The isolate's JS heap, polled every few milliseconds while the request runs. */
export type Session = Awaited<ReturnType<typeof devtools>>;

export async function peakHeap(session: Session, request: () => Promise<{ status: number; bytes: number; detail: string }>, name: string): Promise<HeapRun> {
  {
    const before = (await session.call("Runtime.getHeapUsage")).usedSize ?? 0;
    let peak = before;
    let running = true;
    const polling = (async () => {
      while (running) {
        peak = Math.max(peak, (await session.call("Runtime.getHeapUsage")).usedSize ?? 0);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const answer = await request();
    running = false;
    await polling;
    return { name, ...answer, beforeMb: mb(before), peakMb: mb(peak) };
  }
}

export async function measureMemory(api: string, inspector: string, token: string): Promise<HeapRun[]> {
  const headers = { Authorization: `Bearer ${token}`, Accept: "application/vnd.api+json" };
  const page = `/api/v2/contacts?per_page=25000&include=*`;
  const runs: HeapRun[] = [];
  // One session for both: the inspector proxy serves one debugger at a time.
  const session = await devtools(inspector);
  runs.push(
    await peakHeap(
      session,
      async () => {
        const response = await fetch(`${api}${page}`, { headers });
        const text = await response.text();
        const rows = response.ok ? (JSON.parse(text) as { data: unknown[] }).data.length : 0;
        return { status: response.status, bytes: text.length, detail: `${rows.toLocaleString("en-US")} contacts` };
      },
      "GET /api/v2/contacts?per_page=25000&include=*",
    ),
  );
  // A pause, for the collector to clear what the page left before the next measurement starts.
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const requests = Array.from({ length: 100 }, (_, i) => ({
    method: "GET",
    path: i % 2 === 0 ? `/api/v2/contacts?per_page=200&include=*&page=${1 + (i % 5)}` : `/api/v2/tasks?per_page=200&include=*&filter[account_list_id]=${benchIds.lists[0]}`,
  }));
  runs.push(
    await peakHeap(
      session,
      async () => {
        const response = await fetch(`${api}/api/v2/batch`, { method: "POST", headers: { ...headers, "Content-Type": "application/vnd.api+json" }, body: JSON.stringify({ requests }) });
        const text = await response.text();
        const statuses = response.ok ? (JSON.parse(text) as Array<{ status: number }>).map((entry) => entry.status) : [];
        const counts = [...new Set(statuses)].map((status) => `${statuses.filter((s) => s === status).length}× ${status}`).join(", ");
        return { status: response.status, bytes: text.length, detail: `100 items of 200-row include=* pages: ${counts}` };
      },
      "POST /api/v2/batch, 100 heavy list items",
    ),
  );
  session.close();
  return runs;
}
