/**
 * A list with partners and gifts dated from the clock, for the reports: Alice's list (USD, a goal of 5,000), a
 * second list of hers, a coach of the first, and a stranger.
 */
import { eq } from "drizzle-orm";
import * as schema from "../../drizzle/schema";
import { addDays, addMonths } from "../../src/jsonapi/time";
import { addToList, createAccountList, createUser, createViewer, db } from "./factories";
import {
  createContact,
  createDesignationAccount,
  createDonationRow,
  createDonorAccount,
  createOrganization,
  linkDonorAccount,
  setRates,
} from "./money-records";

export const today = () => new Date().toISOString().slice(0, 10);
/** The first day of the month `n` months before this one. */
export const monthStart = (n: number) => addMonths(`${today().slice(0, 7)}-01`, -n);
/** The `day`th of the month `n` months ago. */
export const dayOfMonth = (n: number, day: number) => addDays(monthStart(n), day - 1);

export async function reportFixture() {
  await setRates({ CAD: "1.25", EUR: "0.8" });
  const alice = await createViewer({ monthlyGoal: "5000.0", currency: "USD" });
  const other = await createAccountList(alice.user, { currency: "CAD" });
  const coach = await createUser();
  await addToList(alice.list.id, coach.id, "coach");
  const stranger = await createViewer();
  const organization = await createOrganization();
  await db.update(schema.accountLists).set({ salaryOrganizationId: organization.id }).where(eq(schema.accountLists.id, alice.list.id));
  const fund = await createDesignationAccount(alice.list.id, { organizationId: organization.id, balance: "1234.5", currency: "USD" });
  const second = await createDesignationAccount(alice.list.id, { organizationId: organization.id, balance: "100.0", currency: "CAD", designationNumber: "2000" });
  const partner = async (name: string, overrides: Partial<typeof schema.contacts.$inferInsert> = {}) => {
    const contact = await createContact(alice.list.id, { name, ...overrides });
    const donor = await createDonorAccount(organization.id, { name });
    await linkDonorAccount(contact.id, donor.id);
    return { contact, donor };
  };
  // Monthly partner, 100 USD received; a quarterly partner of 300 CAD not yet received; a special giver.
  const jones = await partner("Jones, Ann", { status: "Partner - Financial", pledgeAmount: "100.0", pledgeFrequency: "1.0", pledgeCurrency: "USD", pledgeReceived: true });
  const smith = await partner("Smith, Bo", { status: "Partner - Financial", pledgeAmount: "300.0", pledgeFrequency: "3.0", pledgeCurrency: "CAD", pledgeReceived: false });
  const lee = await partner("Lee, Cy", { status: "Partner - Special" });
  const gift = (who: { donor: { id: string } }, donationDate: string, amount: string, currency = "USD", designation = fund.id) =>
    createDonationRow({ accountListId: alice.list.id, designationAccountId: designation, donorAccountId: who.donor.id }, { donationDate, amount, currency });
  const gifts = [
    await gift(jones, dayOfMonth(0, 1), "100.0"),
    await gift(jones, dayOfMonth(1, 10), "100.0"),
    await gift(jones, dayOfMonth(2, 10), "100.0"),
    await gift(jones, dayOfMonth(3, 10), "100.0"),
    await gift(smith, dayOfMonth(1, 20), "250.0", "CAD", second.id),
    await gift(lee, dayOfMonth(2, 5), "40.0", "EUR"),
    // Older than the reports' windows.
    await gift(jones, dayOfMonth(30, 10), "55.0"),
  ];
  return { alice, other, coach, stranger, organization, fund, second, jones, smith, lee, gifts, gift };
}
