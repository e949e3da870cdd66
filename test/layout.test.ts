/**
 * The layout the suite runs in (test/helpers/storage.ts): in the placed project every list the tests make is on
 * the list database, and what the service writes for it lands there, never on the directory.
 */
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { post } from "./helpers/api";
import { createViewer } from "./helpers/factories";
import { listsPlaced, PLACED_ON } from "./helpers/storage";

it("serves the tests' lists from the database the layout puts them on", async () => {
  const viewer = await createViewer();
  const created = await post("/api/v2/contacts", { data: { type: "contacts", attributes: { name: "Placed, Pat" } } }, viewer.token);
  expect(created.status, created.text).toBe(201);
  const placement = await env.DB.prepare("SELECT database, state FROM list_placements WHERE account_list_id = ?").bind(viewer.list.id).first();
  const count = async (binding: D1Database) => (await binding.prepare("SELECT count(*) AS n FROM contacts WHERE id = ?").bind(created.body.data.id).first<{ n: number }>())!.n;
  const listDatabase = env[PLACED_ON as "DB"];
  if (listsPlaced) {
    expect(placement).toEqual({ database: PLACED_ON, state: "placed" });
    expect([await count(env.DB), await count(listDatabase)]).toEqual([0, 1]);
  } else {
    expect(placement).toBeNull();
    expect([await count(env.DB), await count(listDatabase)]).toEqual([1, 0]);
  }
});
