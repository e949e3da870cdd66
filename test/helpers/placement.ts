/**
 * Users whose account lists are placed on chosen databases, made as an operator makes them (the /admin surface),
 * and direct looks at what each database holds.
 */
import { env, exports } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { database } from "../../src/db/client";
import { databaseBinding } from "../../src/db/databases";
import { tokenFor, uuid } from "./factories";

export async function operator(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await exports.default.fetch(
    new Request(`https://api.example.org/admin${path}`, {
      method,
      headers: { Authorization: `Bearer ${env.ADMIN_SECRET}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

export interface PlacedUser {
  id: string;
  token: string;
  /** The user's lists, in the order of `databases`. */
  lists: string[];
}

/** A user with one list on each of `databases` (the first list is their default). */
export async function placedUser(databases: string[], currency = "USD"): Promise<PlacedUser> {
  const user = await operator("POST", "/users", { email: `placed-${uuid().slice(0, 8)}@example.org`, first_name: "Placed", last_name: "User" });
  expect(user.status).toBe(201);
  const lists: string[] = [];
  for (const [index, name] of databases.entries()) {
    const list = await operator("POST", "/account_lists", { user: user.body.id, name: `List ${index + 1}`, currency, database: name });
    expect(list.status, JSON.stringify(list.body)).toBe(201);
    expect(list.body.database).toBe(name);
    lists.push(list.body.id);
  }
  return { id: user.body.id, token: await tokenFor(user.body.id), lists };
}

/** The query builder over one database, outside any request. */
export function on(name: string) {
  return database(databaseBinding(env, name));
}

/** How many rows of `table` with this id each database holds. */
export async function copiesById(table: string, id: string, names = ["DB", "LIST_DB_1", "LIST_DB_2"]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of names) {
    const [row] = await on(name).all<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.identifier(table)} WHERE id = ${id}`);
    counts[name] = Number(row.n);
  }
  return counts;
}
