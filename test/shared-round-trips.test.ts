import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { SessionBinding } from "../src/db/session";
import { sharedRoundTrips } from "../src/db/shared-round-trips";
import { get, post, recordedDocument } from "./helpers/api";
import { createViewer } from "./helpers/factories";

/** env.DB with a count of the calls that reach it. */
function countedDB() {
  const calls = { batch: 0, single: 0, statementsInBatches: 0 };
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, key) {
        if (key === "__target") return target;
        if (key === "bind") return (...values: unknown[]) => wrap(target.bind(...values));
        if (key === "all" || key === "raw" || key === "first" || key === "run") {
          return (...args: unknown[]) => {
            calls.single++;
            return (target[key] as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return Reflect.get(target, key);
      },
    });
  const binding = {
    prepare: (query: string) => wrap(env.DB.prepare(query)),
    batch: (statements: D1PreparedStatement[]) => {
      calls.batch++;
      calls.statementsInBatches += statements.length;
      return env.DB.batch(statements.map((s) => (s as unknown as { __target?: D1PreparedStatement }).__target ?? s));
    },
    getBookmark: () => null,
  } as unknown as SessionBinding;
  return { binding, calls };
}

describe("shared D1 round trips", () => {
  it("sends statements asked for in the same turn as one D1 batch and answers each caller its own rows", async () => {
    const { binding, calls } = countedDB();
    const shared = sharedRoundTrips(binding);
    const [one, two, raw, pair] = await Promise.all([
      shared.prepare("SELECT ? AS n").bind(1).all<{ n: number }>(),
      shared.prepare("SELECT ? AS n, 'x' AS s").bind(2).first<{ n: number; s: string }>(),
      shared.prepare("SELECT 3 AS a, 4 AS b").raw({ columnNames: true }),
      shared.batch([shared.prepare("SELECT 5 AS n"), shared.prepare("SELECT 6 AS n")]),
    ]);
    expect(one.results).toEqual([{ n: 1 }]);
    expect(two).toEqual({ n: 2, s: "x" });
    expect(raw).toEqual([["a", "b"], [3, 4]]);
    expect(pair.map((r) => r.results)).toEqual([[{ n: 5 }], [{ n: 6 }]]);
    expect(calls).toEqual({ batch: 1, single: 0, statementsInBatches: 5 });
  });

  it("gives an error only to the caller whose statement failed, the others their rows", async () => {
    const { binding, calls } = countedDB();
    const shared = sharedRoundTrips(binding);
    const [good, bad, alsoGood] = await Promise.allSettled([
      shared.prepare("SELECT 1 AS n").all(),
      shared.prepare("SELECT * FROM no_such_table").all(),
      shared.batch([shared.prepare("SELECT 2 AS n"), shared.prepare("SELECT 3 AS n")]),
    ]);
    expect(good).toMatchObject({ status: "fulfilled", value: { results: [{ n: 1 }] } });
    expect(bad.status).toBe("rejected");
    expect(String((bad as PromiseRejectedResult).reason)).toContain("no_such_table");
    expect(alsoGood.status).toBe("fulfilled");
    expect((alsoGood as PromiseFulfilledResult<D1Result[]>).value.map((r) => r.results)).toEqual([[{ n: 2 }], [{ n: 3 }]]);
    // The shared call failed, then each caller's statements went again on their own.
    expect(calls.batch).toBe(2);
    expect(calls.single).toBe(2);
  });

  it("leaves positional raw rows (a query builder's) to D1 directly", async () => {
    const { binding, calls } = countedDB();
    const shared = sharedRoundTrips(binding);
    expect(await shared.prepare("SELECT 1 AS id, 2 AS id").raw()).toEqual([[1, 2]]);
    expect(calls).toEqual({ batch: 0, single: 1, statementsInBatches: 0 });
  });

  it("answers a batch of reads the same as the reads one by one", async () => {
    const viewer = await createViewer();
    const paths = ["/api/v2/user", "/api/v2/account_lists", `/api/v2/account_lists/${viewer.list.id}`, "/api/v2/contacts", "/api/v2/tasks", "/api/v2/contacts/00000000-0000-4000-8000-000000000000"];
    const singles = [];
    for (const path of paths) {
      const response = await get(path, viewer.token);
      singles.push({ status: response.status, body: response.body });
    }
    const batch = await post("/api/v2/batch", { requests: paths.map((path) => ({ method: "GET", path })) }, viewer.token, { raw: true });
    expect(batch.status).toBe(200);
    const entries = batch.body as Array<{ status: number; headers: Record<string, string>; body: string }>;
    expect(entries.map((e) => ({ status: e.status, body: recordedDocument(e) }))).toEqual(singles);
    expect(entries.map((e) => e.status)).toEqual([200, 200, 200, 200, 200, 404]);
  });
});
