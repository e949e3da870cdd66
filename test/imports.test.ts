/**
 * CSV imports as the web clients run them: upload, read with sample contacts, map headers, map values, start;
 * then the queue consumer stores the contacts. Also every refusal: bad mappings, bad files, coaches, other users.
 */
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { eq, inArray } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { errorOf, get, post, put, request } from "./helpers/api";
import { addToList, countRows, createViewer, db } from "./helpers/factories";
import { expectCountsKept } from "./helpers/kept-sums";
import { MAX_FILE_SIZE_IN_BYTES } from "../src/constants/csv-import";
import customHeaders from "./fixtures/imports/custom-headers.csv?raw";
import reactCsv from "./fixtures/imports/react.csv?raw";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
let coach: Awaited<ReturnType<typeof createViewer>>;

/** The include both web clients send, its commas as they send them. */
const INCLUDE =
  "sample_contacts,sample_contacts.addresses,sample_contacts.primary_person,sample_contacts.primary_person.email_addresses,sample_contacts.primary_person.phone_numbers,sample_contacts.spouse,sample_contacts.spouse.email_addresses,sample_contacts.spouse.phone_numbers";

const csvPath = (listId: string) => `/api/v2/account_lists/${listId}/imports/csv`;

function form(text: string | Uint8Array, name: string, type: string): FormData {
  const body = new FormData();
  body.append("data[type]", "imports");
  body.append("data[attributes][file]", new File([text], name, { type }));
  return body;
}

/** The AngularJS app's upload (ng-file-upload through $http): its default Accept, the browser's file type. */
const angularUpload = (listId: string, token: string, text: string | Uint8Array, name = "contacts.csv", type = "text/csv") =>
  request("POST", csvPath(listId), { token, body: form(text, name, type), headers: { Accept: "application/json, text/plain, */*" } });

/** mpdx-react's upload (its server route re-posts the file with node-fetch): no Accept of its own, no file type. */
const reactUpload = (listId: string, token: string, text: string, name = "contacts.csv") =>
  request("POST", csvPath(listId), { token, body: form(text, name, "application/octet-stream"), headers: { Accept: "*/*" } });

async function storedImport(id: string) {
  const [row] = await db.select().from(schema.imports).where(eq(schema.imports.id, id));
  return row;
}

async function waitForCompletion(importId: string) {
  await vi.waitUntil(async () => (await storedImport(importId))?.importCompletedAt, { timeout: 15_000, interval: 50 });
}

async function storedFiles(listId: string): Promise<string[]> {
  return (await env.IMPORT_FILES.list({ prefix: `account_lists/${listId}/` })).objects.map((object) => object.key);
}

const CUSTOM_HEADERS_MAPPINGS = {
  church: "church", city: "city", pledge_amount: "amount", pledge_currency: "currency", pledge_frequency: "frequency", country: "country",
  email_1: "email_address", envelope_greeting: "mailing_greeting", first_name: "fname", full_name: "fullname", greeting: "greeting",
  last_name: "lname", likely_to_give: "likely_giver", metro_area: "metro", newsletter: "newsletter", notes: "extra_notes", phone_1: "phone",
  referred_by: "referred_by", region: "region", send_appeals: "appeals", spouse_email: "spouse_email_address", spouse_first_name: "spouse_fname",
  spouse_last_name: "spouse_lname", spouse_phone: "spouse_phone_number", state: "province", status: "status", street: "street", tags: "tags",
  website: "website", zip: "zip_code",
};

const CUSTOM_CONSTANTS_MAPPINGS = {
  status: [{ id: "Partner - Pray", values: ["Praying"] }, { id: "Partner - Financial", values: ["Praying and giving"] }],
  pledge_frequency: [{ id: "Monthly", values: ["Monthly"] }, { id: "", values: [""] }],
  pledge_currency: [{ id: "CAD", values: ["CAD"] }, { id: "", values: [""] }],
  likely_to_give: [{ id: "Most Likely", values: ["Yes"] }, { id: "Least Likely", values: ["No"] }],
  send_appeals: [{ id: true, values: ["Yes"] }, { id: false, values: ["No"] }],
  newsletter: [{ id: "Both", values: ["Both"] }],
};

/** An uploaded import of the custom-headers file with both mappings set. */
async function mappedImport(viewer = alice): Promise<string> {
  const uploaded = await angularUpload(viewer.list.id, viewer.token, customHeaders);
  expect(uploaded.status, uploaded.text).toBe(201);
  const id = uploaded.body.data.id;
  const mapped = await put(
    `${csvPath(viewer.list.id)}/${id}`,
    { data: { type: "imports", id, attributes: { file_headers_mappings: CUSTOM_HEADERS_MAPPINGS, file_constants_mappings: CUSTOM_CONSTANTS_MAPPINGS, overwrite: true } } },
    viewer.token,
  );
  expect(mapped.status, mapped.text).toBe(200);
  return id;
}

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  coach = await createViewer();
  await addToList(alice.list.id, coach.user.id, "coach");
});

describe("a CSV import as the AngularJS wizard runs it", () => {
  it("uploads, maps headers and values, previews and imports the contacts with their details", async () => {
    const uploaded = await angularUpload(alice.list.id, alice.token, customHeaders);
    expect(uploaded.status, uploaded.text).toBe(201);
    expect(uploaded.headers.get("Location")).toMatch(new RegExp(`${csvPath(alice.list.id)}/${uploaded.body.data.id}$`));
    const created = uploaded.body.data;
    expect(created.type).toBe("imports");
    expect(created.attributes).toMatchObject({ in_preview: true, source: "csv", file_headers_mappings: {}, file_constants_mappings: {}, tag_list: null, rows_total: 3, account_list_id: alice.list.id });
    expect(created.relationships.user.data).toEqual({ type: "users", id: alice.user.id });
    expect(Object.entries(created.attributes.file_headers).slice(0, 5)).toEqual([["fullname", "fullname"], ["fname", "fname"], ["lname", "lname"], ["spouse_fname", "Spouse-fname"], ["spouse_lname", "spouse-lname"]]);
    expect(created.attributes.file_headers).toMatchObject({ zip_code: "zip-code", referred_by: "referred_by", email_address: "email-address" });
    // Values of the columns that may map to constants, blank as "", names, places and contact details left out.
    expect(created.attributes.file_constants).toEqual({
      greeting: ["Hi John and Jane", "Hello!", ""],
      status: ["Praying", "Praying and giving"],
      amount: ["50", "10", ""],
      frequency: ["Monthly", ""],
      currency: ["CAD", ""],
      newsletter: ["Both"],
      skip: ["No", "Yes", ""],
      likely_giver: ["Yes", "No"],
      appeals: ["Yes", "No"],
    });
    expect(created.relationships.sample_contacts.data).toHaveLength(3);

    const shown = await get(`${csvPath(alice.list.id)}/${created.id}?include=${INCLUDE}`, alice.token);
    expect(shown.status).toBe(200);
    expect(shown.body.data.relationships.sample_contacts.data).toEqual(created.relationships.sample_contacts.data);

    const headersPut = await put(
      `${csvPath(alice.list.id)}/${created.id}?include=${INCLUDE}`,
      { data: { type: "imports", id: created.id, attributes: { file_headers_mappings: CUSTOM_HEADERS_MAPPINGS, file_constants_mappings: { status: [{ id: "", values: ["Praying", "Praying and giving"] }] }, overwrite: true } } },
      alice.token,
    );
    expect(headersPut.status, headersPut.text).toBe(200);
    expect(headersPut.body.data.attributes.file_headers_mappings).toEqual(CUSTOM_HEADERS_MAPPINGS);

    const valuesPut = await put(
      `${csvPath(alice.list.id)}/${created.id}?include=${INCLUDE}`,
      { data: { type: "imports", id: created.id, attributes: { file_constants_mappings: CUSTOM_CONSTANTS_MAPPINGS, overwrite: true } } },
      alice.token,
    );
    expect(valuesPut.status, valuesPut.text).toBe(200);
    expect(valuesPut.body.data.attributes.file_constants_mappings).toEqual(CUSTOM_CONSTANTS_MAPPINGS);

    // The preview: the sample contacts as the mappings build them, with what the preview table shows.
    const included = valuesPut.body.included as Array<{ type: string; id: string; attributes: Record<string, unknown>; relationships?: Record<string, { data: unknown }> }>;
    const find = (type: string, id: string) => included.find((r) => r.type === type && r.id === id)!;
    const samples = valuesPut.body.data.relationships.sample_contacts.data.map((ref: { type: string; id: string }) => find(ref.type, ref.id));
    expect(samples.map((c: { attributes: { name: string } }) => c.attributes.name)).toEqual(["Doe, John and Jane", "Park, Bob", "Man, Joe"]);
    const doe = samples[0];
    expect(doe.attributes).toMatchObject({
      greeting: "Hi John and Jane", envelope_greeting: "Doe family", church_name: "Westside Baptist Church", status: "Partner - Pray",
      pledge_amount: "50.0", pledge_frequency: "1.0", pledge_currency: "CAD", send_newsletter: "Both", likely_to_give: "Most Likely",
      no_appeals: false, website: "http://www.john.doe", notes: "test notes",
    });
    const primary = find("people", (doe.relationships.primary_person.data as { id: string }).id);
    expect(primary.attributes).toMatchObject({ first_name: "John", last_name: "Doe" });
    const spouse = find("people", (doe.relationships.spouse.data as { id: string }).id);
    expect(spouse.attributes).toMatchObject({ first_name: "Jane", last_name: "Doe" });
    const [email] = (primary.relationships!.email_addresses.data as Array<{ id: string }>).map((ref) => find("email_addresses", ref.id));
    expect(email.attributes).toMatchObject({ email: "john@example.com", primary: true });
    const [address] = (doe.relationships.addresses.data as Array<{ id: string }>).map((ref) => find("addresses", ref.id));
    expect(address.attributes).toMatchObject({ street: "1 Example Ave", city: "Example", state: "IL", postal_code: "60201", country: "USA", primary_mailing_address: true });
    // Never stored.
    expect(await db.select().from(schema.contacts).where(inArray(schema.contacts.id, samples.map((c: { id: string }) => c.id)))).toEqual([]);
    // The same import read again answers the same samples.
    const again = await get(`${csvPath(alice.list.id)}/${created.id}?include=sample_contacts`, alice.token);
    expect(again.body.data.relationships.sample_contacts.data).toEqual(valuesPut.body.data.relationships.sample_contacts.data);

    const started = await put(
      `${csvPath(alice.list.id)}/${created.id}?include=${INCLUDE}`,
      { data: { type: "imports", id: created.id, attributes: { in_preview: false, tag_list: "csv-import,2018", overwrite: true } } },
      alice.token,
    );
    expect(started.status, started.text).toBe(200);
    expect(started.body.data.attributes).toMatchObject({ in_preview: false, tag_list: "csv-import,2018" });
    expect(started.body.data.attributes.queued_for_import_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    await waitForCompletion(created.id);

    const stored = await db.select().from(schema.contacts).where(eq(schema.contacts.accountListId, alice.list.id));
    expect(stored.map((c) => c.name).sort()).toEqual(["Doe, John and Jane", "Man, Joe", "Park, Bob"]);
    const storedDoe = stored.find((c) => c.name === "Doe, John and Jane")!;
    expect(storedDoe).toMatchObject({ greeting: "Hi John and Jane", envelopeGreeting: "Doe family", status: "Partner - Pray", pledgeAmount: "50.0", pledgeFrequency: "1.0", pledgeCurrency: "CAD", noAppeals: false, notes: "test notes" });
    expect(stored.find((c) => c.name === "Park, Bob")).toMatchObject({ status: "Partner - Financial", noAppeals: true, pledgeAmount: "10.0" });
    const people = await db.select().from(schema.people).where(eq(schema.people.contactId, storedDoe.id));
    expect(people.map((p) => [p.firstName, p.lastName, p.isPrimary])).toEqual(expect.arrayContaining([["John", "Doe", true], ["Jane", "Doe", false]]));
    const tags = await db.select().from(schema.contactTags).where(eq(schema.contactTags.contactId, storedDoe.id));
    expect(tags.map((t) => t.name).sort()).toEqual(["2018", "bob", "csv-import"]);
    // "Referred by Bob Park": the contact of the same file.
    const [referral] = await db.select().from(schema.contactReferrals).where(eq(schema.contactReferrals.referredToId, storedDoe.id));
    expect(referral.referredById).toBe(stored.find((c) => c.name === "Park, Bob")!.id);

    const outcome = (await get(`${csvPath(alice.list.id)}/${created.id}`, alice.token)).body.data.attributes;
    expect(outcome).toMatchObject({ rows_total: 3, rows_processed: 3, rows_imported: 3, rows_failed: 0, importing: false, error: null });
    expect(outcome.import_completed_at).toBeTruthy();
    // The file is deleted once imported.
    expect(await storedFiles(alice.list.id)).not.toContain(`account_lists/${alice.list.id}/imports/${created.id}.csv`);
    await expectCountsKept();
  });
});

describe("a CSV import as mpdx-react runs it", () => {
  it("uploads through its server route, maps with its own value forms and imports", async () => {
    const viewer = await createViewer();
    const uploaded = await reactUpload(viewer.list.id, viewer.token, reactCsv, "supporters.csv");
    expect(uploaded.status, uploaded.text).toBe(201);
    const { id, relationships } = uploaded.body.data;
    expect(uploaded.body.data.attributes.file_name).toBe("supporters.csv");

    // The GET is sent by the browser, with the JSON:API content type on a request without a body.
    const fetched = await get(`${csvPath(viewer.list.id)}/${id}?include=${INCLUDE}`, viewer.token, { headers: { "content-type": "application/vnd.api+json", Accept: "*/*" } });
    expect(fetched.status).toBe(200);

    const headersMappings = { first_name: "first_name", last_name: "last_name", send_appeals: "appeals", newsletter: "newsletter", status: "status", email_1: "email" };
    const headersPut = await put(
      `${csvPath(viewer.list.id)}/${id}?include=${INCLUDE}`,
      {
        data: {
          type: "imports",
          id,
          attributes: { overwrite: true, file_headers_mappings: headersMappings, file_constants_mappings: { send_appeals: [{ id: "", values: ["Yes", "No"] }] } },
          relationships: { sample_contacts: { data: relationships.sample_contacts.data } },
        },
      },
      viewer.token,
    );
    expect(headersPut.status, headersPut.text).toBe(200);

    // Its values page: send_appeals ids as booleans, "None" as -1, statuses by their lower-cased ids.
    const constantsMappings = {
      send_appeals: [{ id: true, values: ["Yes"] }, { id: false, values: ["No"] }],
      newsletter: [{ id: -1, values: ["n/a"] }, { id: "Physical", values: ["Mail"] }],
      status: [{ id: "partner_financial", values: ["Giving"] }, { id: "partner_pray", values: ["Praying"] }],
    };
    const valuesPut = await put(
      `${csvPath(viewer.list.id)}/${id}?include=${INCLUDE}`,
      { data: { type: "imports", id, attributes: { overwrite: true, file_headers_mappings: headersMappings, file_constants_mappings: constantsMappings }, relationships: {} } },
      viewer.token,
    );
    expect(valuesPut.status, valuesPut.text).toBe(200);

    const started = await put(
      `${csvPath(viewer.list.id)}/${id}?include=${INCLUDE}`,
      { data: { type: "imports", id, attributes: { overwrite: true, file_headers_mappings: headersMappings, tag_list: "csv-import,2024", in_preview: false }, relationships: {} } },
      viewer.token,
    );
    expect(started.status, started.text).toBe(200);
    await waitForCompletion(id);

    const contacts = await db.select().from(schema.contacts).where(eq(schema.contacts.accountListId, viewer.list.id));
    expect(contacts.map((c) => [c.name, c.status, c.sendNewsletter, c.noAppeals]).sort()).toEqual([
      ["Berg, Anna", "Partner - Financial", "Physical", false],
      ["Dahl, Carl", "Partner - Pray", null, true],
    ]);
    const anna = contacts.find((c) => c.name === "Berg, Anna")!;
    const [person] = await db.select().from(schema.people).where(eq(schema.people.contactId, anna.id));
    const emails = await db.select().from(schema.emailAddresses).where(eq(schema.emailAddresses.personId, person.id));
    expect(emails.map((e) => [e.email, e.primary])).toEqual([["anna@example.com", true]]);
    // Eva's e-mail address is not one: her row failed, with the reason.
    const failures = await db.select().from(schema.importRowFailures).where(eq(schema.importRowFailures.importId, id));
    expect(failures).toEqual([{ importId: id, rowNumber: 4, message: "Validation failed: Email is invalid", cells: ["Eva", "", "Yes", "Mail", "Giving", "not-an-email"] }]);
    expect(await storedImport(id)).toMatchObject({ rowsImported: 2, rowsFailed: 1, nextRow: 3 });
  });
});

describe("reading imports", () => {
  it("lists a list's imports oldest first, paged, and shows one by either path", async () => {
    const viewer = await createViewer();
    const first = (await angularUpload(viewer.list.id, viewer.token, customHeaders)).body.data.id;
    await db.update(schema.imports).set({ createdAt: new Date(Date.now() - 86_400_000).toISOString().slice(0, 19) + "Z" }).where(eq(schema.imports.id, first));
    const second = (await angularUpload(viewer.list.id, viewer.token, reactCsv)).body.data.id;
    const listed = await get(`${csvPath(viewer.list.id)}?per_page=1`, viewer.token);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([first]);
    expect(listed.body.meta.pagination).toMatchObject({ total_count: 2, total_pages: 2 });
    expect(listed.body.data[0].relationships.sample_contacts.data).toHaveLength(3);
    const page2 = await get(`${csvPath(viewer.list.id)}?per_page=1&page=2&include=sample_contacts`, viewer.token);
    expect(page2.body.data.map((r: { id: string }) => r.id)).toEqual([second]);
    expect(page2.body.included.filter((r: { type: string }) => r.type === "contacts")).toHaveLength(3);
    const generic = await get(`/api/v2/account_lists/${viewer.list.id}/imports/${first}`, viewer.token);
    expect(generic.status).toBe(200);
    expect(generic.body.data.attributes.source).toBe("csv");
  });

  it("lets only users of the list work with its imports: a coach sees the list of them and is refused the rest", async () => {
    const id = (await angularUpload(alice.list.id, alice.token, reactCsv)).body.data.id;
    // Without a token: nothing at all.
    errorOf(await get(`${csvPath(alice.list.id)}/${id}`, null), 401);
    errorOf(await angularUpload(alice.list.id, "", reactCsv), 401);
    expect((await get(csvPath(alice.list.id), coach.token)).status).toBe(200);
    expect(errorOf(await get(`${csvPath(alice.list.id)}/${id}`, coach.token), 403)).toBeTruthy();
    expect(errorOf(await get(`/api/v2/account_lists/${alice.list.id}/imports/${id}`, coach.token), 403)).toBeTruthy();
    const before = await countRows(schema.imports);
    expect(errorOf(await angularUpload(alice.list.id, coach.token, reactCsv), 403)).toBeTruthy();
    expect(await countRows(schema.imports)).toBe(before);
    const update = await put(`${csvPath(alice.list.id)}/${id}`, { data: { type: "imports", id, attributes: { tag_list: "x", overwrite: true } } }, coach.token);
    errorOf(update, 403);
    expect((await storedImport(id)).tagList).toBe("");
  });

  it("answers another user's import as not found, and their list as forbidden", async () => {
    const id = (await angularUpload(alice.list.id, alice.token, reactCsv)).body.data.id;
    const elsewhere = await get(`${csvPath(bob.list.id)}/${id}`, bob.token);
    expect(errorOf(elsewhere, 404).detail).toBe(`Couldn't find Import with 'id'=${id}`);
    errorOf(await put(`${csvPath(bob.list.id)}/${id}`, { data: { type: "imports", id, attributes: { in_preview: false, overwrite: true } } }, bob.token), 404);
    errorOf(await get(`${csvPath(alice.list.id)}/${id}`, bob.token), 403);
    expect((await get(csvPath(bob.list.id), bob.token)).body.data.map((r: { id: string }) => r.id)).not.toContain(id);
  });
});

describe("mapping and starting", () => {
  async function start(id: string, attributes: Record<string, unknown>, viewer = alice) {
    return put(`${csvPath(viewer.list.id)}/${id}`, { data: { type: "imports", id, attributes: { ...attributes, in_preview: false, overwrite: true } } }, viewer.token);
  }

  async function expectNotStarted(id: string) {
    expect(await storedImport(id)).toMatchObject({ inPreview: true, queuedForImportAt: null });
  }

  it("refuses to start without mappings, or with headers it does not support or the file does not have, with the original's messages", async () => {
    const id = (await angularUpload(alice.list.id, alice.token, customHeaders)).body.data.id;
    const blank = errorOf(await start(id, {}), 400);
    expect(blank).toMatchObject({ detail: "File headers mappings can't be blank", source: { pointer: "/data/attributes/file_headers_mappings" } });

    const unsupported = errorOf(await start(id, { file_headers_mappings: { something_invalid: "fname", first_name: "fname" } }), 400);
    expect(unsupported.detail).toBe(
      'File headers mappings has unsupported headers. One or more of the headers specified in file_headers_mappings is not supported, please refer to the constants endpoints for a list of supported headers. The unsupported headers you specifed are ["something_invalid"]',
    );
    const missing = errorOf(await start(id, { file_headers_mappings: { first_name: "not_in_the_file" } }), 400);
    expect(missing.detail).toBe(
      'File headers mappings has unsupported mappings. One or more of the header mappings was not found in the headers of the given CSV file, refer to attribute "file_headers" for a list of headers extracted from the given file. The invalid headers are: ["not_in_the_file"]',
    );
    await expectNotStarted(id);
  });

  it("refuses constants left unmapped, ids that are no constant's, and values the file does not have", async () => {
    const id = (await angularUpload(alice.list.id, alice.token, customHeaders)).body.data.id;
    const headers = { first_name: "fname", status: "status" };
    const unmapped = await start(id, { file_headers_mappings: headers });
    expect(errorOf(unmapped, 400)).toMatchObject({
      detail: 'File constants mappings is missing mappings. One or more of the header constants specified in file_headers_mappings does not have a mapping specified in file_constants_mappings. The missing constant mappings are: ["status"]',
      source: { pointer: "/data/attributes/file_constants_mappings" },
    });
    const unknownId = await start(id, { file_headers_mappings: headers, file_constants_mappings: { status: [{ id: "What", values: ["Praying"] }, { id: "Partner - Pray", values: ["Praying and giving"] }] } });
    expect(errorOf(unknownId, 400).detail).toBe('File constants mappings has an invalid mapping. For the header "status", you cannot map to the constants: ["What"]');
    const notMapped = await start(id, { file_headers_mappings: { first_name: "fname" }, file_constants_mappings: { status: [] } });
    expect(errorOf(notMapped, 400).detail).toBe('File constants mappings has an invalid mapping. You cannot map to the constants ["status"] because they are not found in file_headers_mappings');
    const notAConstant = await start(id, { file_headers_mappings: { first_name: "fname" }, file_constants_mappings: { first_name: [] } });
    expect(errorOf(notAConstant, 400).detail).toBe('File constants mappings has an invalid mapping. You cannot map to the constant "first_name" because it\'s not a supported MPDX constant.');
    // Only a mapping's own keys count: names every object inherits are no headers or constants.
    const inherited = await start(id, { file_headers_mappings: { first_name: "fname" }, file_constants_mappings: { toString: [{ id: "x", values: [] }] } });
    expect(inherited.status).toBe(400);
    expect(inherited.body.errors[0].detail).toBe('File constants mappings has an invalid mapping. You cannot map to the constant "toString" because it\'s not a supported MPDX constant.');
    const inheritedHeader = await start(id, { file_headers_mappings: { constructor: "toString" } });
    expect(inheritedHeader.status).toBe(400);
    expect(inheritedHeader.body.errors.map((e: { detail: string }) => e.detail)).toEqual([
      expect.stringMatching(/^File headers mappings has unsupported headers\..* \["constructor"\]$/),
      expect.stringMatching(/^File headers mappings has unsupported mappings\..* \["toString"\]$/),
    ]);
    expect(inheritedHeader.body.errors[0].detail).toMatch(/^File headers mappings has unsupported headers\..* \["constructor"\]$/);
    const absentValue = await start(id, { file_headers_mappings: headers, file_constants_mappings: { status: [{ id: "Partner - Pray", values: ["Praying", "Praying and giving", "Maybe"] }] } });
    expect(errorOf(absentValue, 400).detail).toBe('File constants mappings has an invalid mapping. For the header "status", we couldn\'t find the following values in the CSV: ["Maybe"]');
    const partial = await start(id, { file_headers_mappings: headers, file_constants_mappings: { status: [{ id: "Partner - Pray", values: ["Praying"] }] } });
    expect(errorOf(partial, 400).detail).toBe('File constants mappings is missing mappings. For the header "status", we couldn\'t find the following mappings to the CSV values: ["Praying and giving"]');
    await expectNotStarted(id);
    expect((await storedImport(id)).fileHeadersMappings).toEqual({});
  });

  it("keeps the offline-sync rules, and keeps a started import's mappings as they were", async () => {
    const id = await mappedImport();
    const stale = await put(`${csvPath(alice.list.id)}/${id}`, { data: { type: "imports", id, attributes: { tag_list: "a", updated_in_db_at: "2001-01-01T00:00:00Z" } } }, alice.token);
    expect(errorOf(stale, 409).source).toEqual({ pointer: "/data/attributes/updated_in_db_at" });
    const current = (await get(`${csvPath(alice.list.id)}/${id}`, alice.token)).body.data.attributes.updated_in_db_at;
    const fresh = await put(`${csvPath(alice.list.id)}/${id}`, { data: { type: "imports", id, attributes: { tag_list: ["a", "B"], updated_in_db_at: current } } }, alice.token);
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.attributes.tag_list).toBe("a,b");

    expect((await start(id, {})).status).toBe(200);
    const queuedAt = (await storedImport(id)).queuedForImportAt;
    // The same start sent again (a client retrying) changes nothing and queues nothing more.
    expect((await start(id, {})).status).toBe(200);
    expect((await storedImport(id)).queuedForImportAt).toBe(queuedAt);
    const changed = await put(`${csvPath(alice.list.id)}/${id}`, { data: { type: "imports", id, attributes: { file_headers_mappings: { first_name: "fname" }, overwrite: true } } }, alice.token);
    expect(errorOf(changed, 400)).toMatchObject({ detail: "File headers mappings can't be changed once the import has started" });
    await waitForCompletion(id);
  });
});

describe("files the upload refuses", () => {
  async function expectRefused(response: Awaited<ReturnType<typeof angularUpload>>, detail: string | RegExp, viewer = bob) {
    const error = errorOf(response, 400);
    if (typeof detail === "string") expect(error.detail).toBe(detail);
    else expect(error.detail).toMatch(detail);
    expect(error.source).toEqual({ pointer: "/data/attributes/file" });
    expect(await db.select().from(schema.imports).where(eq(schema.imports.accountListId, viewer.list.id))).toEqual([]);
    expect(await storedFiles(viewer.list.id)).toEqual([]);
  }

  it("refuses what is not CSV", async () => {
    await expectRefused(await angularUpload(bob.list.id, bob.token, "<xml></xml>", "export.xml", "text/xml"), "File must be a CSV file (.csv)");
    await expectRefused(await angularUpload(bob.list.id, bob.token, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), "picture.csv"), "File is not a CSV file: it holds binary data");
  });

  it("refuses an empty file, a header row alone, and a header row without names", async () => {
    await expectRefused(await angularUpload(bob.list.id, bob.token, ""), "File is empty");
    await expectRefused(await angularUpload(bob.list.id, bob.token, "first_name,last_name\n"), "File has no rows below its header row");
    await expectRefused(await angularUpload(bob.list.id, bob.token, "first_name,last_name\n,\n\n"), "File has no rows below its header row");
    await expectRefused(await angularUpload(bob.list.id, bob.token, ",,\nJohn,Doe,x\n"), "File must have a header row naming its columns");
  });

  it("refuses malformed quoting, too many columns and headers that name one column twice", async () => {
    await expectRefused(await angularUpload(bob.list.id, bob.token, 'first_name,notes\nJohn,"never closed\nJane,x\n'), /^File is not a valid CSV file: a quoted cell is never closed/);
    await expectRefused(await angularUpload(bob.list.id, bob.token, 'first_name,notes\nJohn,a "quoted" word"x\n'), /^File is not a valid CSV file: a quote in a cell must be doubled or the cell quoted/);
    const wide = Array.from({ length: 251 }, (_, i) => `column ${i}`).join(",");
    await expectRefused(await angularUpload(bob.list.id, bob.token, `${wide}\n1\n`), "File has too many columns (maximum is 250)");
    await expectRefused(await angularUpload(bob.list.id, bob.token, "Email,First Name,email,first_name\na,b,c,d\n"), 'File has headers that name the same column: "Email" and "email", "First Name" and "first_name"');
  });

  it("refuses a file over the size limit, having stored none of it", async () => {
    const row = "Someone,Somewhere,0123456789012345678901234567890123456789012345678901234567890123456789\n";
    const big = "first_name,last_name,notes\n" + row.repeat(Math.ceil((MAX_FILE_SIZE_IN_BYTES + 1) / row.length));
    await expectRefused(await angularUpload(bob.list.id, bob.token, big), `File is too large (maximum is ${MAX_FILE_SIZE_IN_BYTES} bytes)`);
    // Some 50 MB sent through the Worker: its time is the upload's, on a busy machine too.
  }, 90_000);

  it("refuses other fields, a missing file or type, other content types, and a JSON:API body without a file", async () => {
    const noFile = new FormData();
    noFile.append("data[type]", "imports");
    await expectRefused(await request("POST", csvPath(bob.list.id), { token: bob.token, body: noFile }), "File can't be blank");
    const wrongType = form(reactCsv, "a.csv", "text/csv");
    wrongType.set("data[type]", "contacts");
    errorOf(await request("POST", csvPath(bob.list.id), { token: bob.token, body: wrongType }), 409);
    const extra = form(reactCsv, "a.csv", "text/csv");
    extra.append("data[attributes][in_preview]", "false");
    expect(errorOf(await request("POST", csvPath(bob.list.id), { token: bob.token, body: extra }), 400).detail).toMatch(/data\[attributes\]\[in_preview\] is not a field of an upload/);
    await expectRefused(await post(csvPath(bob.list.id), { data: { type: "imports", attributes: { in_preview: true } } }, bob.token), "File can't be blank");
    errorOf(await request("POST", csvPath(bob.list.id), { token: bob.token, body: reactCsv, headers: { "Content-Type": "text/csv" } }), 415);
    const truncated = await request("POST", csvPath(bob.list.id), {
      token: bob.token,
      body: '--b\r\nContent-Disposition: form-data; name="data[attributes][file]"; filename="a.csv"\r\n\r\nfirst_name\nJohn\n',
      headers: { "Content-Type": "multipart/form-data; boundary=b" },
    });
    expect(errorOf(truncated, 400).detail).toMatch(/^The body is not valid multipart\/form-data/);
    // A read sent as POST is no upload, whatever its content type: its multipart body is refused (415).
    const override = await request("POST", csvPath(bob.list.id), { token: bob.token, body: form(reactCsv, "a.csv", "text/csv"), headers: { "X-HTTP-Method-Override": "GET" } });
    errorOf(override, 415);
    // A field sent twice, or countless parts, is refused before it is read on.
    const twice = form(reactCsv, "a.csv", "text/csv");
    twice.append("data[type]", "imports");
    expect(errorOf(await request("POST", csvPath(bob.list.id), { token: bob.token, body: twice }), 400).detail).toBe("data[type] was sent twice");
    const parts = new FormData();
    for (let i = 0; i < 2_000; i++) parts.append(`data[attributes][field${i}]`, "");
    expect(errorOf(await request("POST", csvPath(bob.list.id), { token: bob.token, body: parts }), 400).detail).toMatch(/is not a field of an upload/);
    expect(await db.select().from(schema.imports).where(eq(schema.imports.accountListId, bob.list.id))).toEqual([]);
    expect(await storedFiles(bob.list.id)).toEqual([]);
  });
});

/** A multipart body as a browser streams it: in chunks of `size` bytes, the file part after the type. */
function streamedUpload(listId: string, token: string, file: Uint8Array, size = 16 * 1024): Promise<Response> {
  const encoder = new TextEncoder();
  const head = encoder.encode(
    '--b0undary\r\nContent-Disposition: form-data; name="data[type]"\r\n\r\nimports\r\n' +
      '--b0undary\r\nContent-Disposition: form-data; name="data[attributes][file]"; filename="export.csv"\r\nContent-Type: text/csv\r\n\r\n',
  );
  const tail = encoder.encode("\r\n--b0undary--\r\n");
  const body = new Uint8Array(head.length + file.length + tail.length);
  body.set(head);
  body.set(file, head.length);
  body.set(tail, head.length + file.length);
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= body.length) return controller.close();
      controller.enqueue(body.slice(offset, offset + size));
      offset += size;
    },
  });
  return exports.default.fetch(
    new Request(`https://api.example.org${csvPath(listId)}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "multipart/form-data; boundary=b0undary" },
      body: stream,
    }),
  );
}

/** Windows-1252 text of a spreadsheet of `rows` rows, "Zoë" in its second row. */
function windows1252(rows: number): Uint8Array {
  const text = ["first_name,last_name,notes", "Zo\u00eb,Lan\u00e9,caf\u00e9", ...Array.from({ length: rows - 1 }, (_, i) => `Ann${i},Lee${i},some notes for row ${i}`)].join("\r\n") + "\r\n";
  return Uint8Array.from(text, (character) => character.charCodeAt(0));
}

describe("files as spreadsheets write them", () => {
  it("reads UTF-8 with a byte order mark, Windows-1252, and mixed line ends", async () => {
    const viewer = await createViewer();
    const bom = await angularUpload(viewer.list.id, viewer.token, "\uFEFFContact Name,First Name\r\nDoe,John\r\n");
    expect(bom.body.data.attributes.file_headers).toEqual({ contact_name: "Contact Name", first_name: "First Name" });

    // "Lané,Zoë,Cr\u00e8me" as a Windows spreadsheet saves it, with a curly quote (0x93) for good measure.
    const cp1252 = new Uint8Array([...new TextEncoder().encode("last_name,first_name,greeting\r\nLan"), 0xe9, ...new TextEncoder().encode(",Zo"), 0xeb, ...new TextEncoder().encode(",Hi "), 0x93, 0x41, 0x94, 0x0d, 0x0a]);
    const uploaded = await angularUpload(viewer.list.id, viewer.token, cp1252);
    expect(uploaded.status, uploaded.text).toBe(201);
    expect(uploaded.body.data.attributes.file_constants).toEqual({ greeting: ["Hi \u201cA\u201d"] });
    const id = uploaded.body.data.id;
    const samples = await get(`${csvPath(viewer.list.id)}/${id}?include=sample_contacts`, viewer.token);
    expect(samples.body.included[0].attributes.name).toBe("Lané, Zoë");

    const mixed = await angularUpload(viewer.list.id, viewer.token, "first_name,last_name\nAnn,Lee\r\nBo,Kim\rCy,Ng\n");
    expect(mixed.body.data.attributes.rows_total).toBe(3);
    const mixedSamples = await get(`${csvPath(viewer.list.id)}/${mixed.body.data.id}?include=sample_contacts`, viewer.token);
    expect(mixedSamples.body.included.map((c: { attributes: { name: string } }) => c.attributes.name)).toEqual(["Lee, Ann", "Kim, Bo", "Ng, Cy"]);
  });

  it("reads a Windows-1252 file sent in many chunks, and refuses a bad one mid-way with 400, leaving nothing", async () => {
    const viewer = await createViewer();
    const uploaded = await streamedUpload(viewer.list.id, viewer.token, windows1252(5_000));
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const created = ((await uploaded.json()) as { data: { id: string; attributes: Record<string, unknown> } }).data;
    expect(created.attributes.rows_total).toBe(5_000);
    const samples = await get(`${csvPath(viewer.list.id)}/${created.id}?include=sample_contacts`, viewer.token);
    expect(samples.body.included[0].attributes.name).toBe("Lané, Zoë");
    expect((await storedImport(created.id)).fileEncoding).toBe("windows-1252");

    const broken = new TextEncoder().encode("first_name,notes\n" + "Ann,fine\n".repeat(20_000) + 'Bo,"never closed\n' + "Cy,x\n".repeat(20_000));
    const refused = await streamedUpload(bob.list.id, bob.token, broken);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { errors: Array<{ detail: string }> }).errors[0].detail).toMatch(/^File is not a valid CSV file/);
    expect(await db.select().from(schema.imports).where(eq(schema.imports.accountListId, bob.list.id))).toEqual([]);
    expect(await storedFiles(bob.list.id)).toEqual([]);
  });

  it("keeps the file's column order for the samples and the failed rows, whatever its headers look like", async () => {
    const viewer = await createViewer();
    const uploaded = await angularUpload(viewer.list.id, viewer.token, "first_name,last_name,2023,,email\nJohn,Doe,5,x,john@example.org\n,Nobody,7,y,z\n");
    const id = uploaded.body.data.id;
    const samples = await get(`${csvPath(viewer.list.id)}/${id}?include=sample_contacts`, viewer.token);
    expect(samples.body.included[0].attributes.name).toBe("Doe, John");
    expect((await storedImport(id)).fileHeaderRow).toEqual(["first_name", "last_name", "2023", "", "email"]);
  });
});

describe("the constants the import pages read", () => {
  it("answers csv_import with its supported and required headers, the constants and the size limit enforced", async () => {
    const constants = (await get("/api/v2/constants?fields[constant_list]=csv_import", alice.token)).body.data.attributes.csv_import;
    expect(Object.keys(constants)).toEqual(["constants", "max_file_size_in_bytes", "required_headers", "supported_headers"]);
    expect(constants.max_file_size_in_bytes).toBe(MAX_FILE_SIZE_IN_BYTES);
    expect(constants.required_headers).toEqual({});
    expect(constants.supported_headers).toMatchObject({ first_name: "First Name", send_appeals: "Send Appeals?", zip: "Zip" });
    expect(constants.constants.send_appeals).toEqual([{ id: true, value: "Yes" }, { id: false, value: "No" }]);
    expect(constants.constants.pledge_frequency).toContainEqual({ id: "Monthly", key: "1.0", value: "Monthly" });
    expect(constants.constants.status).toHaveLength(14);
    for (const key of Object.keys(constants.constants)) expect(constants.supported_headers).toHaveProperty(key);
  });
});
