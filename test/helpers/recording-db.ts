/**
 * A D1 binding that hands out the real statements while remembering each one's SQL and parameters, and the
 * plan SQLite makes for a remembered statement: for tests of which indexes a request's statements use.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { app } from "../../src/index";
import { databaseBinding, listDatabaseNames } from "../../src/db/databases";
import type { Bindings } from "../../src/env";

export interface Recorded {
  sql: string;
  params: unknown[];
  /** The database it ran on. */
  on: D1Database;
  /** Where the session it ran in began (`first-primary`, `first-unconstrained` or a bookmark); absent outside one. */
  session?: string;
}

/** The Worker's bindings with every database remembering what it is asked (whichever holds the tests' lists). */
export function recordingEnv(recorded: Recorded[]): Bindings {
  const databases = Object.fromEntries(listDatabaseNames(env).map((name) => [name, recording(databaseBinding(env, name), recorded, databaseBinding(env, name))]));
  return { ...(env as unknown as Bindings), ...databases };
}

/** The binding, or a session opened on it (every request runs in one), remembering what it prepares. */
function recording<T extends D1Database | D1DatabaseSession>(binding: T, recorded: Recorded[], on: D1Database, session?: string): T {
  return new Proxy(binding, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          const statement = target.prepare(sql);
          const entry: Recorded = { sql, params: [], on, ...(session ? { session } : {}) };
          recorded.push(entry);
          const bind = statement.bind.bind(statement);
          statement.bind = (...params: unknown[]) => {
            entry.params = params;
            return bind(...params);
          };
          return statement;
        };
      }
      if (property === "withSession") {
        return (constraint?: string) => recording((target as D1Database).withSession(constraint), recorded, on, constraint ?? "first-unconstrained");
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Sends a GET through the app with a recording binding: the response and every statement it ran. */
export async function recordedGet(path: string, token: string): Promise<{ response: Response; recorded: Recorded[] }> {
  const recorded: Recorded[] = [];
  const ctx = createExecutionContext();
  const response = await app.fetch(
    new Request(`https://api.example.org${path}`, { headers: { Authorization: `Bearer ${token}`, Accept: "application/vnd.api+json" } }),
    recordingEnv(recorded),
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { response, recorded };
}

/** The lines of SQLite's plan for a recorded statement. */
export async function planOf({ sql, params, on }: Recorded): Promise<string[]> {
  const plan = await on.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>();
  return plan.results.map(({ detail }) => detail);
}
