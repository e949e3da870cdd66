/**
 * Contact exports as both web apps drive them: the POST that stores the export's filters, then the browser's
 * download with `?access_token=`, once; the files' columns, order and content; who may download what.
 */
import { eq } from "drizzle-orm";
import { exports } from "cloudflare:workers";
import { unzipSync, strFromU8 } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { errorOf, get, post } from "./helpers/api";
import { assertDescribed } from "./helpers/described";
import { addToList, createAccountList, createUser, createViewer, db, uuid } from "./helpers/factories";
import { insertAddress, insertContact, insertEmail, insertPerson, insertPhone, insertTags } from "./helpers/contact-fixtures";

/** What a browser sends when the web app points it at the download link. */
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

/** Opens a download link as the browser does: no Authorization header, the token in the query string. */
async function download(path: string, token: string): Promise<Response> {
  const url = `https://api.example.org${path}${path.includes("?") ? "&" : "?"}access_token=${token}`;
  const headers = { Accept: BROWSER_ACCEPT };
  const response = await exports.default.fetch(new Request(url, { headers }));
  await assertDescribed("GET", url, headers, response.clone(), undefined);
  return response;
}

/** The AngularJS app's body (export.service.ts): jsonapi-serializer drops the undefined id. */
const angularBody = (filter: Record<string, unknown>) => ({ data: { type: "export_logs", attributes: { params: { filter } } } });
/** mpdx-react's body (createExportedContacts): label type and sort sent as null for CSV and XLSX. */
const reactBody = (filter: Record<string, unknown>) => ({ data: { attributes: { params: { filter, type: null, sort: null } }, type: "export_logs" } });

async function storedLog(id: string) {
  const [row] = await db.select().from(schema.exportLogs).where(eq(schema.exportLogs.id, id));
  return row;
}

const exportLogCount = async () => (await db.select().from(schema.exportLogs)).length;

const CONTACT_HEADER =
  '"Contact Name","First Name","Last Name","Spouse First Name","Greeting","Envelope Greeting","Mailing Street Address","Mailing City",' +
  '"Mailing State","Mailing Postal Code","Mailing Country","Status","Commitment Amount","Commitment Currency","Commitment Frequency",' +
  '"Newsletter","Commitment Received","Tags","Primary Email","Spouse Email","Other Email","Spouse Other Email","Primary Phone",' +
  '"Spouse Phone","Other Phone","Spouse Other Phone"';

const DOE_ROW =
  '"Doe, John and Jane",John,Doe,Jane,John and Jane,John and Jane Doe,"1 Main St\nApt 2",Springfield,IL,62701,,Partner - Financial,' +
  '100.0,USD,Monthly,Both,Yes,"abroad, family",john@example.org,jane@example.org,john.work@example.org,,555-0100,555-0200,555-0101,';

const ROE_ROW = "Roe Ann,Ann,Roe,,Dear Ann,Roe Ann,,,,,Canada,Partner - Pray,,CAD,Quarterly,Physical,No,,,,,,,,,";

describe("contact exports", () => {
  let owner: Awaited<ReturnType<typeof createViewer>>;
  let doe: { id: string };
  let roe: { id: string };
  let hidden: { id: string };

  beforeAll(async () => {
    owner = await createViewer({ homeCountry: "United States" });
    const listId = owner.list.id;
    doe = await insertContact(listId, "Doe, John and Jane", {
      status: "Partner - Financial",
      pledgeAmount: "100.0",
      sendNewsletter: "Both",
      pledgeReceived: true,
    });
    const john = await insertPerson(doe.id, "John", { lastName: "Doe", isPrimary: true, position: 0 });
    const jane = await insertPerson(doe.id, "Jane", { lastName: "Doe", position: 1 });
    await insertEmail(john.id, "john@example.org", { primary: true });
    await insertEmail(john.id, "old@example.org", { historic: true });
    await insertEmail(john.id, "john.work@example.org");
    await insertEmail(jane.id, "jane@example.org", { primary: true });
    await insertPhone(john.id, "555-0100", "mobile", { primary: true });
    await insertPhone(john.id, "555-0101", "work");
    await insertPhone(jane.id, "555-0200", "mobile", { primary: true });
    await insertAddress(doe.id, { street: "9 Old Rd", city: "Oldtown", historic: true });
    await insertAddress(doe.id, { street: "1 Main St\r\nApt 2", city: "Springfield", state: "IL", postalCode: "62701", country: "United States", primaryMailingAddress: true });
    await insertTags(doe.id, ["family", "abroad"]);

    // A company-like contact with one person, a greeting of its own and an address abroad.
    roe = await insertContact(listId, "Roe Ann", { status: "Partner - Pray", greeting: "Dear Ann", pledgeCurrency: "CAD", pledgeFrequency: "3.0", sendNewsletter: "Physical" });
    await insertPerson(roe.id, "Ann", { lastName: "Roe", isPrimary: true });
    await insertAddress(roe.id, { country: "Canada" });

    // Nobody alive: left out of the contacts sheet, still in the mailing CSV.
    const zed = await insertContact(listId, "Zed, Zoe", { status: "Partner - Financial" });
    await insertPerson(zed.id, "Zoe", { lastName: "Zed", deceased: true, isPrimary: true });

    hidden = await insertContact(listId, "Hidden, Harry", { status: "Never Ask" });
    await insertPerson(hidden.id, "Harry", { lastName: "Hidden", isPrimary: true });
  });

  async function created(body: unknown, path = "/api/v2/contacts/exports", token = owner.token): Promise<string> {
    const response = await post(path, body, token);
    expect(response.status, response.text.slice(0, 300)).toBe(201);
    return response.body.data.id;
  }

  it("stores the AngularJS app's export and answers it as an export log", async () => {
    const filter = { account_list_id: owner.list.id, newsletter: "address", status: "active" };
    const response = await post("/api/v2/contacts/exports", angularBody(filter), owner.token);
    expect(response.status).toBe(201);
    const { data } = response.body;
    expect(data.type).toBe("export_logs");
    expect(data.attributes.params).toEqual({ filter });
    expect(data.attributes.export_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(data.relationships.user.data).toEqual({ type: "users", id: owner.user.id });
    expect(response.headers.get("location")).toBe(`https://api.example.org/api/v2/contacts/exports/${data.id}`);
    const stored = await storedLog(data.id);
    expect(stored).toMatchObject({ userId: owner.user.id, type: "Contacts", active: true });
    expect(JSON.parse(stored.params)).toEqual({ filter });
  });

  it("downloads the contact list's export as CSV once, through the access_token in the link", async () => {
    // The contact list's "Export CSV" with nothing selected sends the list's filters, cleaned.
    const id = await created(angularBody({ account_list_id: owner.list.id }));
    const today = () => new Date().toISOString().slice(0, 10).replace(/-/g, "");
    const daysAround = [today()];
    const response = await download(`/api/v2/contacts/exports/${id}.csv`, owner.token);
    daysAround.push(today());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    // Named for the day of the download (UTC), whichever side of midnight the request fell.
    expect(daysAround.map((day) => `attachment; filename="contacts-${day}.csv"`)).toContain(response.headers.get("content-disposition"));
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("etag")).toBeNull();
    // Name order; the contact nobody alive stands for is left out, as are hidden statuses without a status filter.
    expect(await response.text()).toBe(`${CONTACT_HEADER}\n${DOE_ROW}\n${ROE_ROW}\n`);
    expect((await storedLog(id)).active).toBe(false);

    // A second download of the same export is refused, as the original refused it, and writes nothing.
    const again = await download(`/api/v2/contacts/exports/${id}.csv`, owner.token);
    expect(again.status).toBe(403);
    const body = (await again.json()) as { errors: Array<{ detail: string }> };
    expect(body.errors[0].detail).toBe(`Not allowed to perform that action on the resource with ID ${id} of type export_logs`);
    const xlsxAgain = await download(`/api/v2/contacts/exports/${id}.xlsx`, owner.token);
    expect(xlsxAgain.status).toBe(403);
  });

  it("exports the selected contacts of an appeal, hidden ones included, as the appeal page asks", async () => {
    const filter = { account_list_id: owner.list.id, ids: [hidden.id, roe.id].join(","), status: "active,hidden,null" };
    const id = await created(angularBody(filter));
    const text = await (await download(`/api/v2/contacts/exports/${id}.csv`, owner.token)).text();
    const rows = text.trim().split("\n").slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^"Hidden, Harry",Harry,Hidden,,Harry,Harry Hidden,,,,,,Never Ask,/);
    expect(rows[1]).toBe(ROE_ROW);
  });

  it("downloads the dashboard's physical newsletter export as XLSX: a zip whose Contacts sheet has the CSV's rows", async () => {
    const id = await created(angularBody({ account_list_id: owner.list.id, newsletter: "address", status: "active" }));
    const response = await download(`/api/v2/contacts/exports/${id}.xlsx`, owner.token);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="contacts-\d{8}\.xlsx"$/);
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(["[Content_Types].xml", "_rels/.rels", "xl/_rels/workbook.xml.rels", "xl/styles.xml", "xl/workbook.xml", "xl/worksheets/sheet1.xml"]);
    expect(strFromU8(files["xl/workbook.xml"])).toContain('<sheet name="Contacts" sheetId="1" r:id="rId1"/>');
    const sheet = strFromU8(files["xl/worksheets/sheet1.xml"]);
    const rows = [...sheet.matchAll(/<row r="(\d+)">(.*?)<\/row>/gs)].map(([, , cells]) =>
      [...cells.matchAll(/<c r="([A-Z])\d+"(?: t="inlineStr")?>(?:<is><t xml:space="preserve">(.*?)<\/t><\/is>|<v>(.*?)<\/v>)<\/c>/gs)].map(([, column, text, number]) => [column, text ?? Number(number)]),
    );
    // Physical or Both newsletters, active: Doe and Roe.
    expect(rows).toHaveLength(3);
    expect(rows[0].map(([, title]) => title)).toEqual(CONTACT_HEADER.slice(1, -1).split('","'));
    expect(Object.fromEntries(rows[1])).toMatchObject({ A: "Doe, John and Jane", B: "John", G: "1 Main St\nApt 2", M: 100, O: "Monthly", R: "abroad, family", S: "john@example.org", Y: "555-0101" });
    expect(rows[1].map(([column]) => column)).not.toContain("K");
    expect(Object.fromEntries(rows[2])).toMatchObject({ A: "Roe Ann", E: "Dear Ann", K: "Canada", N: "CAD", O: "Quarterly" });
  });

  it("stores mpdx-react's mail-merge export and downloads its mailing CSV, one row per contact", async () => {
    const filter = { account_list_id: owner.list.id, newsletter: "address", status: "active" };
    const response = await post("/api/v2/contacts/exports/mailing", reactBody(filter), owner.token);
    expect(response.status).toBe(201);
    expect(response.body.data.attributes.params).toEqual({ filter, type: null, sort: null });
    const id = response.body.data.id;
    expect((await storedLog(id)).type).toBe("Contacts Mailing");
    const file = await download(`/api/v2/contacts/exports/mailing/${id}.csv`, owner.token);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(
      "Contact Name,Greeting,Envelope Greeting,Mailing Street Address,Mailing City,Mailing State,Mailing Postal Code,Mailing Country,Address Block\n" +
        '"Doe, John and Jane",John and Jane,John and Jane Doe,"1 Main St\nApt 2",Springfield,IL,62701,,"John and Jane Doe\n1 Main St\nApt 2\nSpringfield IL  62701"\n' +
        'Roe Ann,Dear Ann,Roe Ann,,,,,Canada,"Roe Ann\nCANADA"\n',
    );
    expect((await download(`/api/v2/contacts/exports/mailing/${id}.csv`, owner.token)).status).toBe(403);
  });

  it("downloads mpdx-react's XLSX export, and a mailing export's XLSX is the contacts sheet", async () => {
    const filter = { account_list_id: owner.list.id, status: "Partner - Financial" };
    const id = await created(reactBody(filter), "/api/v2/contacts/exports/mailing");
    const files = unzipSync(new Uint8Array(await (await download(`/api/v2/contacts/exports/mailing/${id}.xlsx`, owner.token)).arrayBuffer()));
    const sheet = strFromU8(files["xl/worksheets/sheet1.xml"]);
    expect(sheet).toContain('<c r="A1" t="inlineStr"><is><t xml:space="preserve">Contact Name</t></is></c>');
    // Financial partners with someone alive: Doe only (Zed's one person is deceased).
    expect(sheet.match(/<row /g)).toHaveLength(2);
    expect(sheet).toContain('<c r="A2" t="inlineStr"><is><t xml:space="preserve">Doe, John and Jane</t></is></c>');
  });

  it("answers the export log itself where no file is asked for, and that takes the export too", async () => {
    const id = await created(angularBody({}));
    const shown = await get(`/api/v2/contacts/exports/${id}`, owner.token);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({ id, type: "export_logs", attributes: { params: { filter: {} } } });
    expect((await download(`/api/v2/contacts/exports/${id}.csv`, owner.token)).status).toBe(403);
  });

  it("answers a HEAD of the link as the download would begin, and leaves the export to download", async () => {
    const id = await created(angularBody({}));
    const url = `https://api.example.org/api/v2/contacts/exports/${id}.xlsx?access_token=${owner.token}`;
    const looked = await exports.default.fetch(new Request(url, { method: "HEAD" }));
    expect(looked.status).toBe(200);
    expect(looked.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect((await storedLog(id)).active).toBe(true);
    expect((await download(`/api/v2/contacts/exports/${id}.xlsx`, owner.token)).status).toBe(200);
    expect((await exports.default.fetch(new Request(url, { method: "HEAD" }))).status).toBe(403);
  });

  it("answers a file format it does not make as an unknown route, leaving the export to download", async () => {
    const id = await created(angularBody({}));
    errorOf(await get(`/api/v2/contacts/exports/${id}.pdf`, owner.token), 404);
    errorOf(await get(`/api/v2/contacts/exports/mailing/${id}.pdf`, owner.token), 404);
    expect((await storedLog(id)).active).toBe(true);
    expect((await download(`/api/v2/contacts/exports/${id}.csv`, owner.token)).status).toBe(200);
  });

  it("exports every list of the user's own when no list is named, in one name order", async () => {
    const user = await createUser();
    const first = await createAccountList(user);
    const second = await createAccountList(user);
    for (const [listId, name] of [[first.id, "Beta"], [second.id, "Alpha"], [first.id, "Gamma"], [second.id, "Delta"]]) {
      const contact = await insertContact(listId, name);
      await insertPerson(contact.id, name, { isPrimary: true });
    }
    const id = await created(angularBody({}), "/api/v2/contacts/exports", user.token);
    const text = await (await download(`/api/v2/contacts/exports/${id}.csv`, user.token)).text();
    expect(text.trim().split("\n").slice(1).map((line) => line.split(",")[0])).toEqual(["Alpha", "Beta", "Delta", "Gamma"]);
  });
});

describe("cells a spreadsheet would read as more than text", () => {
  it("writes a formula-like CSV cell as text and keeps it as written in the XLSX, escaped", async () => {
    const viewer = await createViewer();
    const contact = await insertContact(viewer.list.id, "Smith & Sons <Ltd>", { greeting: "=HYPERLINK(\"x\")" });
    await insertPerson(contact.id, "Sam", { isPrimary: true });
    const body = angularBody({ account_list_id: viewer.list.id });
    const csvId = (await post("/api/v2/contacts/exports", body, viewer.token)).body.data.id;
    const csv = await (await download(`/api/v2/contacts/exports/${csvId}.csv`, viewer.token)).text();
    expect(csv.split("\n")[1]).toMatch(/^Smith & Sons <Ltd>,Sam,,,"'=HYPERLINK\(""x""\)",Smith & Sons <Ltd>,/);
    const xlsxId = (await post("/api/v2/contacts/exports", body, viewer.token)).body.data.id;
    const files = unzipSync(new Uint8Array(await (await download(`/api/v2/contacts/exports/${xlsxId}.xlsx`, viewer.token)).arrayBuffer()));
    const sheet = strFromU8(files["xl/worksheets/sheet1.xml"]);
    expect(sheet).toContain('<c r="A2" t="inlineStr"><is><t xml:space="preserve">Smith &amp; Sons &lt;Ltd&gt;</t></is></c>');
    expect(sheet).toContain('<c r="E2" t="inlineStr"><is><t xml:space="preserve">=HYPERLINK(&quot;x&quot;)</t></is></c>');
  });
});

describe("who may export what", () => {
  it("answers another user's export as not found, and leaves it to its owner", async () => {
    const owner = await createViewer();
    const stranger = await createViewer();
    const id = (await post("/api/v2/contacts/exports", angularBody({}), owner.token)).body.data.id;
    for (const path of [`${id}.csv`, `${id}.xlsx`, `mailing/${id}.csv`, id]) {
      const response = await download(`/api/v2/contacts/exports/${path}`, stranger.token);
      expect(response.status).toBe(404);
      const body = (await response.json()) as { errors: Array<{ detail: string }> };
      expect(body.errors[0].detail).toBe(`Couldn't find ExportLog with 'id'=${id}`);
    }
    expect((await download(`/api/v2/contacts/exports/${id}.csv`, owner.token)).status).toBe(200);
    errorOf(await get(`/api/v2/contacts/exports/${uuid()}.csv`, owner.token), 404);
  });

  it("needs a token, in the header or the link", async () => {
    const owner = await createViewer();
    const id = (await post("/api/v2/contacts/exports", angularBody({}), owner.token)).body.data.id;
    errorOf(await get(`/api/v2/contacts/exports/${id}.csv`, null), 401);
    errorOf(await post("/api/v2/contacts/exports", angularBody({}), null), 401);
    const withHeader = await exports.default.fetch(new Request(`https://api.example.org/api/v2/contacts/exports/${id}.csv`, { headers: { Authorization: `Bearer ${owner.token}` } }));
    expect(withHeader.status).toBe(200);
    await withHeader.text();
  });

  it("exports a coach nothing of the lists they coach: naming one is 404 and stores nothing", async () => {
    const owner = await createViewer();
    const coach = await createViewer();
    await addToList(owner.list.id, coach.user.id, "coach");
    const coached = await insertContact(owner.list.id, "Coached, Contact");
    await insertPerson(coached.id, "Contact", { isPrimary: true });
    const mine = await insertContact(coach.list.id, "Mine, Contact");
    await insertPerson(mine.id, "Contact", { isPrimary: true });
    const before = await exportLogCount();
    const refused = errorOf(await post("/api/v2/contacts/exports", angularBody({ account_list_id: owner.list.id }), coach.token), 404);
    expect(refused.detail).toBe(`Resource 'AccountList' with id '${owner.list.id}' does not exist`);
    expect(await exportLogCount()).toBe(before);
    const id = (await post("/api/v2/contacts/exports", angularBody({}), coach.token)).body.data.id;
    const text = await (await download(`/api/v2/contacts/exports/${id}.csv`, coach.token)).text();
    expect(text).toContain("Mine, Contact");
    expect(text).not.toContain("Coached");
  });
});

describe("bad export requests", () => {
  it("refuses params that are not an object, a filter that is not one, and a malformed filter value, storing nothing", async () => {
    const { token } = await createViewer();
    const before = await exportLogCount();
    const cases: Array<[unknown, string, string]> = [
      [{ data: { type: "export_logs", attributes: { params: "filter=all" } } }, "/data/attributes/params", "Params must be an object"],
      [{ data: { type: "export_logs", attributes: { params: { filter: ["status"] } } } }, "/data/attributes/params", "Params filter must be an object"],
      [angularBody({ created_at: "yesterday-ish" }), "/data/attributes/params/filter", ""],
    ];
    for (const [body, pointer, detail] of cases) {
      const error = errorOf(await post("/api/v2/contacts/exports", body, token), 400);
      expect(error.source).toEqual({ pointer });
      if (detail) expect(error.detail).toBe(detail);
    }
    const wrongType = errorOf(await post("/api/v2/contacts/exports/mailing", { data: { type: "contacts", attributes: { params: {} } } }, token), 409);
    expect(wrongType.source).toEqual({ pointer: "/data/type" });
    expect(await exportLogCount()).toBe(before);
  });
});
