/** Load generation (autocannon on loopback) and single probing requests that read the X-D1-* headers. */
import autocannon from "autocannon";

export interface Request {
  method?: "GET" | "POST" | "PUT";
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Non-2xx answers plus connection errors and timeouts. */
  errors: number;
  total: number;
  statusCounts: Record<string, number>;
}

export interface D1Counts {
  roundTrips: number | null;
  /** Round trips one after another on the longest chain (X-D1-Critical-Path). */
  criticalPath?: number | null;
  queries: number | null;
  rowsRead: string | null;
  rowsWritten?: string | null;
}

export interface Probe extends D1Counts {
  status: number;
  bytes: number;
  body: string;
  ms: number;
}

export const CONNECTIONS = 10;

export async function load(request: Request, seconds: number): Promise<LoadResult> {
  const options = {
    url: request.url,
    method: request.method ?? "GET",
    headers: request.headers,
    body: request.body,
    connections: CONNECTIONS,
    // Slow requests queue behind each other on the single D1 database: they are slow, not failed.
    timeout: 300,
  };
  // A short warm-up so that the measured window starts with compiled code and a warm SQLite page cache.
  await autocannon({ ...options, duration: 1 });
  await settle();
  const result = await autocannon({ ...options, duration: seconds });
  // Requests still running when the window closed keep D1 busy: the next measurement waits for them.
  await settle();
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    total: result.requests.total,
    statusCounts: Object.fromEntries(Object.entries(result.statusCodeStats).map(([status, stat]) => [status, stat.count])),
  };
}

/**
 * Waits until D1 is idle: `/db` on the baseline (same workerd, same database) runs `SELECT 1`, which queues
 * behind any statement still running. Three fast answers in a row mean the previous load has drained.
 */
export async function settle(): Promise<void> {
  const baseline = settleTarget;
  if (!baseline) return;
  const deadline = Date.now() + 10 * 60_000;
  let fast = 0;
  while (fast < 3 && Date.now() < deadline) {
    const started = performance.now();
    await (await fetch(`${baseline}/db`)).arrayBuffer();
    fast = performance.now() - started < 25 ? fast + 1 : 0;
  }
}

let settleTarget: string | undefined;
/** The baseline origin that `settle` asks. */
export function settleWith(baselineOrigin: string): void {
  settleTarget = baselineOrigin;
}

function countHeader(response: Response, name: string): number | null {
  const value = response.headers.get(name);
  return value === null ? null : Number(value);
}

export async function probe(request: Request): Promise<Probe> {
  const started = performance.now();
  const response = await fetch(request.url, { method: request.method ?? "GET", headers: request.headers, body: request.body });
  const body = await response.text();
  return {
    status: response.status,
    bytes: Buffer.byteLength(body),
    body,
    ms: performance.now() - started,
    roundTrips: countHeader(response, "X-D1-Round-Trips"),
    criticalPath: countHeader(response, "X-D1-Critical-Path"),
    queries: countHeader(response, "X-D1-Queries"),
    rowsRead: response.headers.get("X-D1-Rows-Read"),
    rowsWritten: response.headers.get("X-D1-Rows-Written"),
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
