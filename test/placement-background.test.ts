/**
 * Background work on lists placed off the directory: the daily notification run and a CSV import run on the
 * list's database, from the cron and queue handlers as the platform calls them.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { NOTIFICATION_TYPE_IDS } from "../src/constants/notifications";
import { get, post, put, request } from "./helpers/api";
import { dailyRun } from "./helpers/events";
import { on, placedUser, type PlacedUser } from "./helpers/placement";

let owner: PlacedUser;

beforeAll(async () => {
  owner = await placedUser(["LIST_DB_1", "LIST_DB_2"]);
});

const count = async (database: string, query: ReturnType<typeof sql>) => Number((await on(database).all<{ n: number }>(query))[0].n);

describe("background work on list databases", () => {
  it("runs the daily notifications of a list on its database", async () => {
    const listId = owner.lists[1];
    const preference = await post(
      `/api/v2/account_lists/${listId}/notification_preferences`,
      {
        data: {
          type: "notification_preferences",
          attributes: { app: true, email: false, task: false },
          relationships: { notification_type: { data: { type: "notification_types", id: NOTIFICATION_TYPE_IDS.missing_address_in_newsletter } } },
        },
      },
      owner.token,
    );
    expect(preference.status, preference.text).toBe(201);
    const contact = await post(
      "/api/v2/contacts",
      { data: { type: "contacts", attributes: { name: "Letter, Nowhere", send_newsletter: "Physical" }, relationships: { account_list: { data: { type: "account_lists", id: listId } } } } },
      owner.token,
    );
    expect(contact.status, contact.text).toBe(201);
    const record = await dailyRun(new Date().toISOString());
    expect(record.messages.map((message) => message.accountListId)).toContain(listId);
    expect(await count("LIST_DB_2", sql`SELECT count(*) AS n FROM notification_list_runs WHERE account_list_id = ${listId}`)).toBe(1);
    expect(await count("DB", sql`SELECT count(*) AS n FROM notification_list_runs WHERE account_list_id = ${listId}`)).toBe(0);
    const notifications = await get(`/api/v2/account_lists/${listId}/notifications`, owner.token);
    expect(notifications.body.data.map((n: { relationships: { contact: { data: { id: string } } } }) => n.relationships.contact.data.id)).toEqual([contact.body.data.id]);
  });

  it("imports a spreadsheet into a list on its database", async () => {
    const listId = owner.lists[0];
    const form = new FormData();
    form.append("data[type]", "imports");
    form.append("data[attributes][file]", new File(["First Name,Last Name\nAda,Placed\nBo,Placed\n"], "partners.csv", { type: "text/csv" }));
    const uploaded = await request("POST", `/api/v2/account_lists/${listId}/imports/csv`, { token: owner.token, body: form });
    expect(uploaded.status, uploaded.text).toBe(201);
    const id = uploaded.body.data.id;
    const started = await put(
      `/api/v2/account_lists/${listId}/imports/csv/${id}`,
      { data: { type: "imports", id, attributes: { overwrite: true, in_preview: false, file_headers_mappings: { first_name: "first_name", last_name: "last_name" } } } },
      owner.token,
    );
    expect(started.status, started.text).toBe(200);
    // The queue's consumer runs it (the local queue delivers the message).
    await vi.waitFor(
      async () => {
        const shown = await get(`/api/v2/account_lists/${listId}/imports/csv/${id}`, owner.token);
        expect(shown.body.data.attributes.import_completed_at).toBeTruthy();
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(await count("LIST_DB_1", sql`SELECT count(*) AS n FROM contacts WHERE account_list_id = ${listId} AND name LIKE 'Placed, %'`)).toBe(2);
    for (const other of ["DB", "LIST_DB_2"]) expect(await count(other, sql`SELECT count(*) AS n FROM contacts WHERE name LIKE 'Placed, %'`)).toBe(0);
  });
});
