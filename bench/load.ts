/** Load generation (autocannon on loopback) and single probing requests that read the X-D1-* headers. */
import autocannon from "autocannon";

export interface Request {
  method?: "GET" | "POST";
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
  queries: number | null;
  rowsRead: string | null;
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
    timeout: 30,
  };
  // A short warm-up so that the measured window starts with compiled code and a warm SQLite page cache.
  await autocannon({ ...options, amount: CONNECTIONS * 5 });
  const result = await autocannon({ ...options, duration: seconds });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    total: result.requests.total,
    statusCounts: Object.fromEntries(Object.entries(result.statusCodeStats).map(([status, stat]) => [status, stat.count])),
  };
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
    queries: countHeader(response, "X-D1-Queries"),
    rowsRead: response.headers.get("X-D1-Rows-Read"),
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
