/**
 * Records around donations, pledges and appeals (organizations, designation and donor accounts, contacts,
 * rates), inserted directly so each test states exactly what it starts from.
 */
import { eq } from "drizzle-orm";
import * as schema from "../../drizzle/schema";
import { db, timestamps, uuid } from "./factories";

export async function createOrganization() {
  const organization = { id: uuid(), name: `Organization ${uuid().slice(0, 6)}`, ...timestamps() };
  await db.insert(schema.organizations).values(organization);
  return organization;
}

export async function createDesignationAccount(accountListId: string, overrides: Partial<typeof schema.designationAccounts.$inferInsert> = {}) {
  const account = { id: uuid(), accountListId, name: "Ministry Fund", designationNumber: "1000", currency: "USD", ...timestamps(), ...overrides };
  await db.insert(schema.designationAccounts).values(account);
  return account;
}

export async function createDonorAccount(organizationId: string, overrides: Partial<typeof schema.donorAccounts.$inferInsert> = {}) {
  const account = { id: uuid(), organizationId, accountNumber: uuid().slice(0, 8), name: "Donor", ...timestamps(), ...overrides };
  await db.insert(schema.donorAccounts).values(account);
  return account;
}

export async function createContact(accountListId: string, overrides: Partial<typeof schema.contacts.$inferInsert> = {}) {
  const contact = { id: uuid(), accountListId, name: `Contact ${uuid().slice(0, 6)}`, ...timestamps(), ...overrides };
  await db.insert(schema.contacts).values(contact);
  return contact;
}

export async function linkDonorAccount(contactId: string, donorAccountId: string) {
  await db.insert(schema.contactDonorAccounts).values({ id: uuid(), contactId, donorAccountId, ...timestamps() });
}

export async function createAppealRow(accountListId: string, overrides: Partial<typeof schema.appeals.$inferInsert> = {}) {
  const appeal = { id: uuid(), accountListId, name: `Appeal ${uuid().slice(0, 6)}`, ...timestamps(), ...overrides };
  await db.insert(schema.appeals).values(appeal);
  return appeal;
}

export async function createDonationRow(
  record: { accountListId: string; designationAccountId: string; donorAccountId: string },
  overrides: Partial<typeof schema.donations.$inferInsert> = {},
) {
  const donation = { id: uuid(), amount: "10.0", currency: "USD", donationDate: "2026-01-15", ...record, ...timestamps(), ...overrides };
  await db.insert(schema.donations).values(donation);
  return donation;
}

export async function createPledgeRow(record: { accountListId: string; contactId: string }, overrides: Partial<typeof schema.pledges.$inferInsert> = {}) {
  const pledge = { id: uuid(), amount: "10.0", ...record, ...timestamps(), ...overrides };
  await db.insert(schema.pledges).values(pledge);
  return pledge;
}

/** Sets the rate of each code (units per 1 USD), replacing any stored one. */
export async function setRates(rates: Record<string, string>) {
  for (const [code, rate] of Object.entries(rates)) {
    await db.delete(schema.currencyRates).where(eq(schema.currencyRates.code, code));
    await db.insert(schema.currencyRates).values({ code, rate, updatedAt: "2026-01-01T00:00:00Z" });
  }
}

/** A whole stored row, for comparing before and after a refused request. */
export async function storedRow<T extends typeof schema.donations | typeof schema.pledges | typeof schema.appeals>(table: T, id: string) {
  const [row] = await db.select().from(table as typeof schema.donations).where(eq((table as typeof schema.donations).id, id));
  return row as Record<string, unknown> | undefined;
}
