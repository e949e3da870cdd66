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

/** The directory's own tables: a list database has every other table of the directory, defined the same way. */
const DIRECTORY_ONLY = ["account_list_invites", "announcement_actions", "announcements", "background_batch_requests", "background_batches", "client_ids", "identity_links", "list_placements"];

it("migrates each list database with the list databases' migrations: the directory's schema less its own tables", async () => {
  const schema = async (binding: D1Database) =>
    (
      await binding
        .prepare(
          `SELECT m.type, m.name, m.tbl_name, CASE WHEN m.type = 'table' THEN (SELECT group_concat(c, '|') FROM (SELECT p.name || ' ' || p.type || ' ' || p."notnull" || ' ' || coalesce(p.dflt_value, '') || ' ' || p.pk AS c FROM pragma_table_xinfo(m.name) AS p ORDER BY p.name)) || ' keys ' || coalesce((SELECT group_concat(k, ',') FROM (SELECT f."from" || '>' || f."table" || '.' || f."to" || ' ' || f.on_delete AS k FROM pragma_foreign_key_list(m.name) AS f ORDER BY k)), '') ELSE replace(replace(m.sql, char(10), ' '), '\`', '') END AS definition
          FROM sqlite_master AS m WHERE m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '_cf_%' AND m.name <> 'd1_migrations' ORDER BY m.type, m.name`,
        )
        .all<{ type: string; name: string; tbl_name: string; definition: string | null }>()
    ).results;
  const directory = await schema(env.DB);
  const lists = await schema(env.LIST_DB_1!);
  expect(directory.filter((object) => object.type === "table").map((object) => object.name)).toEqual(expect.arrayContaining(DIRECTORY_ONLY));
  expect(lists.filter((object) => DIRECTORY_ONLY.includes(object.tbl_name))).toEqual([]);
  // Tables (columns, types, defaults, keys, foreign keys), indexes and triggers: the same on both, whitespace aside.
  const normal = (rows: typeof directory) => rows.map((row) => ({ ...row, definition: row.definition?.replace(/\s+/g, " ") ?? null }));
  expect(normal(lists)).toEqual(normal(directory.filter((object) => !DIRECTORY_ONLY.includes(object.tbl_name))));
  expect(lists.filter((object) => object.type === "trigger").length).toBeGreaterThan(100);
  // The rows the migrations hold: the notification types under their stable ids.
  const types = async (binding: D1Database) => (await binding.prepare("SELECT * FROM notification_types ORDER BY id").all()).results;
  expect(await types(env.LIST_DB_1!)).toEqual(await types(env.DB));
  expect(await types(env.DB)).toHaveLength(20);
});
