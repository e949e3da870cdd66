/**
 * A request sent with the D1 counters load tests read (`BENCH_METRICS`: the X-D1-* headers, src/db/metrics.ts),
 * straight through the Worker's fetch with that binding added.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { app } from "../../src/index";

export interface D1Counts {
  status: number;
  roundTrips: number;
  criticalPath: number;
  /** Rows read as D1 bills them. */
  rowsRead: number;
  /** The answer's body. */
  text: string;
}

export async function withD1Counts(method: string, path: string, token: string, body?: unknown): Promise<D1Counts> {
  const ctx = createExecutionContext();
  const response = await app.fetch(
    new Request(`https://api.example.org${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, Accept: "application/vnd.api+json", ...(body === undefined ? {} : { "Content-Type": "application/vnd.api+json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { ...env, BENCH_METRICS: "1" },
    ctx,
  );
  const text = await response.text();
  // Work left to finish after the answer (a cache kept) is done before the next request.
  await waitOnExecutionContext(ctx);
  return { status: response.status, roundTrips: Number(response.headers.get("X-D1-Round-Trips")), criticalPath: Number(response.headers.get("X-D1-Critical-Path")), rowsRead: Number(response.headers.get("X-D1-Rows-Read")), text };
}
