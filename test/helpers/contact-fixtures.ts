/**
 * Contacts and the records around them (people, contact details, addresses, gifts, tasks, appeals, referrals,
 * status logs), inserted directly so each contact test states exactly what it starts from.
 */
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import * as schema from "../../drizzle/schema";
import { get } from "./api";
import { db, timestamps, uuid } from "./factories";

type Insert<T extends { $inferInsert: unknown }> = Partial<T["$inferInsert"]>;

export async function insertContact(accountListId: string, name: string, overrides: Insert<typeof schema.contacts> = {}) {
  const contact = { id: uuid(), accountListId, name, ...timestamps(), ...overrides };
  await db.insert(schema.contacts).values(contact);
  return contact;
}

export async function insertPerson(contactId: string, firstName: string, overrides: Insert<typeof schema.people> = {}) {
  const person = { id: uuid(), contactId, firstName, ...timestamps(), ...overrides };
  await db.insert(schema.people).values(person);
  return person;
}

export async function insertEmail(personId: string, email: string, overrides: Insert<typeof schema.emailAddresses> = {}) {
  const row = { id: uuid(), personId, email, ...timestamps(), ...overrides };
  await db.insert(schema.emailAddresses).values(row);
  return row;
}

export async function insertPhone(personId: string, number: string, location: string, overrides: Insert<typeof schema.phoneNumbers> = {}) {
  const row = { id: uuid(), personId, number, location, ...timestamps(), ...overrides };
  await db.insert(schema.phoneNumbers).values(row);
  return row;
}

export async function insertFacebook(personId: string, username = "someone") {
  await db.insert(schema.facebookAccounts).values({ id: uuid(), personId, username, ...timestamps() });
}

export async function insertAddress(contactId: string, overrides: Insert<typeof schema.addresses> = {}) {
  const row = { id: uuid(), contactId, ...timestamps(), ...overrides };
  await db.insert(schema.addresses).values(row);
  return row;
}

export async function insertTags(contactId: string, names: string[]) {
  await db.insert(schema.contactTags).values(names.map((name) => ({ contactId, name })));
}

/** Gifts to one account list: one organization and designation account, a donor account per contact. */
/**
 * Giving to a list: its designation account, donor accounts and gifts, written on `on` (the database the list is
 * placed on; the directory by default). The organization is the directory's, copied to the list's database.
 */
export async function givingTo(accountListId: string, on: typeof db = db) {
  const organization = { id: uuid(), name: `Organization ${uuid().slice(0, 6)}`, ...timestamps() };
  await db.insert(schema.organizations).values(organization);
  if (on !== db) await on.insert(schema.organizations).values(organization);
  const designation = { id: uuid(), accountListId, name: "Ministry Fund", designationNumber: "1000", currency: "USD", ...timestamps() };
  await on.insert(schema.designationAccounts).values(designation);
  const donorAccounts = new Map<string, string>();
  async function donorAccountOf(contactId: string, accountNumber?: string) {
    let id = donorAccounts.get(contactId);
    if (!id) {
      id = uuid();
      await on.insert(schema.donorAccounts).values({ id, organizationId: organization.id, accountNumber: accountNumber ?? uuid().slice(0, 8), ...timestamps() });
      await on.insert(schema.contactDonorAccounts).values({ id: uuid(), contactId, donorAccountId: id, ...timestamps() });
      donorAccounts.set(contactId, id);
    }
    return id;
  }
  async function give(contactId: string, amount: string, donationDate: string, overrides: Insert<typeof schema.donations> = {}) {
    const row = {
      id: uuid(),
      accountListId,
      designationAccountId: designation.id,
      donorAccountId: await donorAccountOf(contactId),
      amount,
      currency: "USD",
      donationDate,
      ...timestamps(),
      ...overrides,
    };
    await on.insert(schema.donations).values(row);
    return row;
  }
  return { organization, designation, give, donorAccountOf };
}

export async function insertTask(accountListId: string, contactIds: string[], overrides: Insert<typeof schema.tasks> = {}) {
  const task = { id: uuid(), accountListId, subject: "Something to do", ...timestamps(), ...overrides };
  await db.insert(schema.tasks).values(task);
  for (const contactId of contactIds) await db.insert(schema.activityContacts).values({ id: uuid(), taskId: task.id, contactId, ...timestamps() });
  return task;
}

export async function insertAppeal(accountListId: string, name = "Appeal") {
  const appeal = { id: uuid(), accountListId, name, ...timestamps() };
  await db.insert(schema.appeals).values(appeal);
  return appeal;
}

export async function askInAppeal(appealId: string, contactId: string) {
  await db.insert(schema.appealContacts).values({ id: uuid(), appealId, contactId, ...timestamps() });
}

export async function excludeFromAppeal(appealId: string, contactId: string) {
  await db.insert(schema.appealExcludedContacts).values({ id: uuid(), appealId, contactId, reasons: ["no_appeals"], ...timestamps() });
}

export async function insertPledge(accountListId: string, contactId: string, overrides: Insert<typeof schema.pledges> = {}) {
  const pledge = { id: uuid(), accountListId, contactId, amount: "50.0", ...timestamps(), ...overrides };
  await db.insert(schema.pledges).values(pledge);
  return pledge;
}

export async function insertReferral(referredById: string, referredToId: string) {
  const row = { id: uuid(), referredById, referredToId, ...timestamps() };
  await db.insert(schema.contactReferrals).values(row);
  return row;
}

export async function insertStatusLog(contactId: string, recordedOn: string, overrides: Insert<typeof schema.partnerStatusLogs> = {}) {
  await db.insert(schema.partnerStatusLogs).values({ id: uuid(), contactId, recordedOn, ...timestamps(), ...overrides });
}

export async function storedContact(id: string) {
  const [row] = await db.select().from(schema.contacts).where(eq(schema.contacts.id, id));
  return row;
}

/** The names a contact list answers, in its order (sorted by name unless the query says otherwise). */
export async function listedNames(token: string, query: string): Promise<string[]> {
  const separator = query === "" ? "" : "&";
  const response = await get(`/api/v2/contacts?per_page=500&sort=name${separator}${query}`, token);
  if (response.status !== 200) throw new Error(`${response.status} ${response.text}`);
  return response.body.data.map((contact: { attributes: { name: string } }) => contact.attributes.name);
}

export const contactBody = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  data: { type: "contacts", attributes, ...extra },
});

/**
 * Checks a filter selects exactly `expected` (names) and that its `reverse_` form selects every other contact
 * the plain list shows. `query` starts with the filter itself, e.g. `filter[city]=Orlando`.
 */
export async function expectFilter(token: string, query: string, expected: string[]): Promise<void> {
  const name = /^filter\[([A-Za-z_]+)\]/.exec(query)?.[1]?.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
  if (!name) throw new Error(`query must start with a filter: ${query}`);
  const everyone = await listedNames(token, "");
  const selected = await listedNames(token, query);
  const wanted = [...expected].sort();
  expect(selected, query).toEqual(wanted);
  const reversed = await listedNames(token, `${query}&filter[reverse_${name}]=true`);
  const others = everyone.filter((n) => !expected.includes(n));
  expect(reversed, `reverse of ${query}`).toEqual(others);
}

export function daysFromToday(days: number): string {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
