/**
 * CSV imports as the web clients run them: upload, read with sample contacts, map headers, map values, start;
 * then the queue consumer stores the contacts.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { eq, sql } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { errorOf, get, put, request } from "./helpers/api";
import { createViewer, db } from "./helpers/factories";
import customHeaders from "./fixtures/imports/custom-headers.csv?raw";

let alice: Awaited<ReturnType<typeof createViewer>>;

const INCLUDE =
  "sample_contacts,sample_contacts.addresses,sample_contacts.primary_person,sample_contacts.primary_person.email_addresses,sample_contacts.primary_person.phone_numbers,sample_contacts.spouse,sample_contacts.spouse.email_addresses,sample_contacts.spouse.phone_numbers";

const csvPath = (listId: string) => `/api/v2/account_lists/${listId}/imports/csv`;

/** The AngularJS app's upload (ng-file-upload): the two fields, the file under its name with the browser's type. */
function angularUpload(text: string, name = "contacts.csv", type = "text/csv"): FormData {
  const form = new FormData();
  form.append("data[type]", "imports");
  form.append("data[attributes][file]", new File([text], name, { type }));
  return form;
}

async function upload(listId: string, token: string, form: FormData) {
  return request("POST", csvPath(listId), { token, body: form, headers: { Accept: "application/json, text/plain, */*" } });
}

async function waitForCompletion(importId: string) {
  await vi.waitUntil(
    async () => (await db.select({ done: schema.imports.importCompletedAt }).from(schema.imports).where(eq(schema.imports.id, importId)))[0]?.done,
    { timeout: 15_000, interval: 50 },
  );
}

beforeAll(async () => {
  alice = await createViewer();
});

describe("a CSV import as the AngularJS wizard runs it", () => {
  it("uploads, maps, previews and imports", async () => {
    const uploaded = await upload(alice.list.id, alice.token, angularUpload(customHeaders));
    expect(uploaded.status, uploaded.text).toBe(201);
    const created = uploaded.body.data;
    expect(created.type).toBe("imports");
    expect(created.attributes).toMatchObject({ in_preview: true, source: "csv", file_headers_mappings: {}, file_constants_mappings: {} });
    expect(created.attributes.file_headers).toMatchObject({ fullname: "fullname", spouse_fname: "Spouse-fname", zip_code: "zip-code", referred_by: "referred_by" });
    expect(created.attributes.file_constants).toEqual({
      status: ["Praying", "Praying and giving"],
      amount: ["50", "10", ""],
      frequency: ["Monthly", ""],
      currency: ["CAD", ""],
      skip: ["No", "Yes", ""],
      likely_giver: ["Yes", "No"],
      appeals: ["Yes", "No"],
      greeting: ["Hi John and Jane", "Hello!", ""],
      newsletter: ["Both"],
    });

    const shown = await get(`${csvPath(alice.list.id)}/${created.id}?include=${INCLUDE}`, alice.token);
    expect(shown.status).toBe(200);
    expect(shown.body.data.relationships.sample_contacts.data).toHaveLength(3);

    const headersMappings = {
      church: "church", city: "city", pledge_amount: "amount", pledge_currency: "currency", pledge_frequency: "frequency", country: "country",
      email_1: "email_address", envelope_greeting: "mailing_greeting", first_name: "fname", full_name: "fullname", greeting: "greeting",
      last_name: "lname", likely_to_give: "likely_giver", metro_area: "metro", newsletter: "newsletter", notes: "extra_notes", phone_1: "phone",
      referred_by: "referred_by", region: "region", send_appeals: "appeals", spouse_email: "spouse_email_address", spouse_first_name: "spouse_fname",
      spouse_last_name: "spouse_lname", spouse_phone: "spouse_phone_number", state: "province", status: "status", street: "street", tags: "tags",
      website: "website", zip: "zip_code",
    };
    const headersPut = await put(
      `${csvPath(alice.list.id)}/${created.id}?include=${INCLUDE}`,
      { data: { type: "imports", id: created.id, attributes: { file_headers_mappings: headersMappings, overwrite: true } } },
      alice.token,
    );
    expect(headersPut.status, headersPut.text).toBe(200);

    const constantsMappings = {
      status: [{ id: "Partner - Pray", values: ["Praying"] }, { id: "Partner - Financial", values: ["Praying and giving"] }],
      pledge_frequency: [{ id: "Monthly", values: ["Monthly"] }, { id: "", values: [""] }],
      pledge_currency: [{ id: "CAD", values: ["CAD"] }, { id: "", values: [""] }],
      likely_to_give: [{ id: "Most Likely", values: ["Yes"] }, { id: "Least Likely", values: ["No"] }],
      send_appeals: [{ id: true, values: ["Yes"] }, { id: false, values: ["No"] }],
      newsletter: [{ id: "Both", values: ["Both"] }],
    };
    const valuesPut = await put(
      `${csvPath(alice.list.id)}/${created.id}?include=${INCLUDE}`,
      { data: { type: "imports", id: created.id, attributes: { file_constants_mappings: constantsMappings, overwrite: true } } },
      alice.token,
    );
    expect(valuesPut.status, valuesPut.text).toBe(200);
    const samples = valuesPut.body.included.filter((r: { type: string }) => r.type === "contacts");
    expect(samples.map((c: { attributes: { name: string } }) => c.attributes.name)).toEqual(["Doe, John and Jane", "Park, Bob", "Man, Joe"]);

    const started = await put(
      `${csvPath(alice.list.id)}/${created.id}?include=${INCLUDE}`,
      { data: { type: "imports", id: created.id, attributes: { in_preview: false, tag_list: "csv-import,2018", overwrite: true } } },
      alice.token,
    );
    expect(started.status, started.text).toBe(200);
    await waitForCompletion(created.id);
    const stored = await db.select().from(schema.contacts).where(eq(schema.contacts.accountListId, alice.list.id));
    expect(stored.map((c) => c.name).sort()).toEqual(["Doe, John and Jane", "Man, Joe", "Park, Bob"]);
    const [outcome] = await db.select().from(schema.imports).where(eq(schema.imports.id, created.id));
    expect(outcome).toMatchObject({ rowsImported: 3, rowsFailed: 0, nextRow: 3, fileKey: null });
    void sql;
    void errorOf;
  });
});
