/**
 * The layout the suite runs in (test/helpers/storage.ts): in the placed project every list the tests make is on
 * the list database, and what the service writes for it lands there, never on the directory.
 */
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { post } from "./helpers/api";
import { desc, inArray } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { addToList, createAccountList, createViewer, db, timestamps, uuid } from "./helpers/factories";
import { databaseOfTestList, listsPlaced, listsSplit, PLACED_ON } from "./helpers/storage";

it("serves the tests' lists from the database the layout puts them on", async () => {
  const viewer = await createViewer();
  const created = await post("/api/v2/contacts", { data: { type: "contacts", attributes: { name: "Placed, Pat" } } }, viewer.token);
  expect(created.status, created.text).toBe(201);
  const placement = await env.DB.prepare("SELECT database, state FROM list_placements WHERE account_list_id = ?").bind(viewer.list.id).first();
  const count = async (binding: D1Database) => (await binding.prepare("SELECT count(*) AS n FROM contacts WHERE id = ?").bind(created.body.data.id).first<{ n: number }>())!.n;
  const listDatabase = env[PLACED_ON as "DB"];
  if (listsPlaced || listsSplit) {
    expect(placement).toEqual({ database: PLACED_ON, state: "placed" });
    expect([await count(env.DB), await count(listDatabase)]).toEqual([0, 1]);
  } else {
    expect(placement).toBeNull();
    expect([await count(env.DB), await count(listDatabase)]).toEqual([1, 0]);
  }
});

it("in the split layout, spreads each user's lists over both list databases, beside other users' lists", async () => {
  if (!listsSplit) return;
  const alice = await createViewer();
  const second = await createAccountList(alice.user);
  const third = await createAccountList(alice.user);
  const bob = await createViewer();
  await addToList(alice.list.id, bob.user.id);
  const placed = async (listId: string) => (await env.DB.prepare("SELECT database FROM list_placements WHERE account_list_id = ?").bind(listId).first<{ database: string }>())?.database;
  expect([await placed(alice.list.id), await placed(second.id), await placed(third.id), await placed(bob.list.id)]).toEqual(["LIST_DB_1", "LIST_DB_2", "LIST_DB_1", "LIST_DB_1"]);
  expect(await databaseOfTestList(second.id)).toBe("LIST_DB_2");
  const ours = [alice.list.id, second.id, third.id, bob.list.id];
  const lists = async (binding: D1Database) => (await binding.prepare("SELECT id FROM account_lists WHERE id IN (?, ?, ?, ?) ORDER BY id").bind(...ours).all<{ id: string }>()).results.map((row) => row.id);
  expect(await lists(env.LIST_DB_1!)).toEqual([alice.list.id, third.id, bob.list.id].sort());
  expect(await lists(env.LIST_DB_2!)).toEqual([second.id]);
  // Each list database holds both users (copies without the default list), and the memberships of its lists.
  const users = async (binding: D1Database) => (await binding.prepare("SELECT id, default_account_list_id FROM users WHERE id IN (?, ?) ORDER BY id").bind(alice.user.id, bob.user.id).all()).results;
  const copies = [alice.user.id, bob.user.id].sort().map((id) => ({ id, default_account_list_id: null }));
  expect(await users(env.LIST_DB_1!)).toEqual(copies);
  expect(await users(env.LIST_DB_2!)).toEqual(copies);
  const members = async (binding: D1Database) => (await binding.prepare("SELECT account_list_id FROM account_list_users WHERE user_id = ? ORDER BY 1").bind(alice.user.id).all<{ account_list_id: string }>()).results.map((row) => row.account_list_id);
  expect(await members(env.LIST_DB_2!)).toEqual([second.id]);
  // A contact of the second list is written, and read back, where that list is.
  await db.insert(schema.contacts).values([
    { id: uuid(), accountListId: alice.list.id, name: "First, One", ...timestamps() },
    { id: uuid(), accountListId: second.id, name: "Second, Two", ...timestamps() },
  ]);
  const names = async (binding: D1Database) => (await binding.prepare("SELECT name FROM contacts WHERE account_list_id IN (?, ?)").bind(alice.list.id, second.id).all<{ name: string }>()).results.map((row) => row.name);
  expect([await names(env.LIST_DB_1!), await names(env.LIST_DB_2!)]).toEqual([["First, One"], ["Second, Two"]]);
  const both = inArray(schema.contacts.accountListId, [alice.list.id, second.id]);
  expect((await db.select({ name: schema.contacts.name }).from(schema.contacts).where(both).orderBy(desc(schema.contacts.name)).limit(1)).map((row) => row.name)).toEqual(["Second, Two"]);
  expect(await db.$count(schema.contacts, both)).toBe(2);
});

/** The directory's own tables: a list database has every other table of the directory, defined the same way. */
const DIRECTORY_ONLY = ["account_list_invites", "announcement_actions", "announcements", "background_batch_requests", "background_batches", "client_ids", "currency_rate_history", "export_logs", "identity_links", "list_placements", "record_moves", "user_options"];

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
