/**
 * The web app's appeal page sorts an appeal's contacts, excluded contacts and pledges by the contact's name, and
 * pledges also by amount and expected date: dotted sorts read the related record's field.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { errorOf, get } from "./helpers/api";
import { excludeFromAppeal, insertAppeal, insertContact, askInAppeal } from "./helpers/contact-fixtures";
import { createViewer } from "./helpers/factories";
import { createPledgeRow } from "./helpers/money-records";

let alice: Awaited<ReturnType<typeof createViewer>>;
let appealId: string;
const names = ["Chang, Edward", "Adams, Zoe", "Chan, Gene", "Baker, Amy"];
const contactIds: Record<string, string> = {};

beforeAll(async () => {
  alice = await createViewer();
  appealId = (await insertAppeal(alice.list.id, "Winter")).id;
  const pledged: Array<[string, string, string | null]> = [
    ["Chang, Edward", "50.0", "2026-03-01"],
    ["Adams, Zoe", "125.5", null],
    ["Chan, Gene", "9.99", "2026-01-15"],
    ["Baker, Amy", "300.0", "2026-02-01"],
  ];
  for (const [name, amount, expectedDate] of pledged) {
    const contact = await insertContact(alice.list.id, name);
    contactIds[name] = contact.id;
    await askInAppeal(appealId, contact.id);
    await createPledgeRow({ accountListId: alice.list.id, contactId: contact.id }, { appealId, amount, expectedDate });
    const excluded = await insertContact(alice.list.id, `${name} (excluded)`);
    contactIds[`${name} (excluded)`] = excluded.id;
    await excludeFromAppeal(appealId, excluded.id);
  }
});

const byName = (ids: string[]) => ids.map((id) => Object.entries(contactIds).find(([, contactId]) => contactId === id)![0]);
type Row = { id: string; attributes: Record<string, unknown>; relationships: { contact: { data: { id: string } } } };
const contactsOf = (data: Row[]) => byName(data.map((row) => row.relationships.contact.data.id));

describe("sorting the appeal page", () => {
  it("sorts appeal contacts and excluded appeal contacts by contact.name, both ways, as the web app asks", async () => {
    const sorted = [...names].sort((a, b) => (a < b ? -1 : 1));
    const asked = await get(`/api/v2/appeals/${appealId}/appeal_contacts?include=contact&sort=contact.name&per_page=500`, alice.token);
    expect(asked.status, asked.text).toBe(200);
    expect(contactsOf(asked.body.data)).toEqual(sorted);
    expect(asked.body.meta.sort).toBe("contact.name");
    const reversed = await get(`/api/v2/appeals/${appealId}/appeal_contacts?sort=-contact.name`, alice.token);
    expect(contactsOf(reversed.body.data)).toEqual([...sorted].reverse());
    const excluded = await get(`/api/v2/appeals/${appealId}/excluded_appeal_contacts?include=contact&sort=contact.name&per_page=2&page=2`, alice.token);
    expect(contactsOf(excluded.body.data)).toEqual(sorted.slice(2).map((name) => `${name} (excluded)`));
  });

  it("sorts pledges by contact.name, amount (as money, not text) and expected_date", async () => {
    const pledges = (sort: string) => get(`/api/v2/account_lists/${alice.list.id}/pledges?filter[appeal_id]=${appealId}&include=contact&sort=${sort}`, alice.token);
    expect(contactsOf((await pledges("contact.name")).body.data)).toEqual(["Adams, Zoe", "Baker, Amy", "Chan, Gene", "Chang, Edward"]);
    expect((await pledges("-amount")).body.data.map((row: Row) => row.attributes.amount)).toEqual(["300.0", "125.5", "50.0", "9.99"]);
    expect((await pledges("expected_date")).body.data.map((row: Row) => row.attributes.expected_date)).toEqual([null, "2026-01-15", "2026-02-01", "2026-03-01"]);
  });

  it("refuses a dotted sort a resource does not declare", async () => {
    const refused = errorOf(await get(`/api/v2/contacts?sort=account_list.name`, alice.token), 400);
    expect(refused.detail).toBe("Sorting by account_list.name is not supported for this endpoint.");
    expect(errorOf(await get(`/api/v2/account_lists/${alice.list.id}/pledges?sort=contact.name.first`, alice.token), 400).detail).toBe("Bad format for sort param.");
  });
});
