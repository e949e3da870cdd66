/**
 * Records linked to contacts: addresses, donor accounts and referrals. Addresses and referrals are written
 * through their contact (sideposting) or nested routes; donor accounts are only linked and unlinked.
 */
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { addresses, contactDonorAccounts, contactReferrals, contacts, donations, donorAccounts } from "../../../drizzle/schema";
import { inList, q } from "../../db/sql";
import { boolean, computed, decimal, stored, string } from "../../engine/attributes";
import { defineResource, type RequestContext, type Row } from "../../engine/define";
import { formatMoney } from "../../decimal";
import { DATE } from "../../jsonapi/formats";
import { ownedScopes, ownerRelationship } from "../../engine/owned";
import { onePrimaryHooks } from "../../engine/primary";
import { belongsTo, manyBy } from "../../engine/relationships";
import { contactOwner } from "./owners";

export const addressResource = defineResource({
  type: "addresses",
  model: "Address",
  table: addresses,
  ...ownedScopes(contactOwner, addresses.contactId),
  attributes: {
    street: string(addresses.street),
    city: string(addresses.city),
    state: string(addresses.state),
    region: string(addresses.region),
    metro_area: string(addresses.metroArea),
    country: string(addresses.country),
    postal_code: string(addresses.postalCode),
    location: string(addresses.location),
    primary_mailing_address: boolean(addresses.primaryMailingAddress),
    historic: boolean(addresses.historic),
    valid: boolean(addresses.valid),
    source: string(addresses.source),
    latitude: decimal(addresses.latitude, { min: -90, max: 90 }),
    longitude: decimal(addresses.longitude, { min: -180, max: 180 }),
  },
  relationships: {
    // The parent, fixed by the route or the contact an address is sideposted with; listed only when asked for.
    contact: ownerRelationship(contactOwner, addresses.contactId, { default: false }),
  },
  // One primary mailing address per contact; a historic address stays as history but is never the primary one.
  hooks: onePrimaryHooks({
    attribute: "primary_mailing_address",
    column: addresses.primaryMailingAddress,
    owner: addresses.contactId,
    idColumn: addresses.id,
    historic: "historic",
  }),
});

/**
 * A donor account belongs to no list: it is the donor system's record of a giver, which several lists may know.
 * A viewer reaches one that gives to one of their lists or is linked to one of their lists' contacts; only those
 * can be included, and only those can be named by a donation (see `checkLinkable`).
 */
function donorOfViewersLists(ctx: RequestContext) {
  const lists = ctx.viewer.readableListIds;
  return sql`(EXISTS (SELECT 1 FROM ${contactDonorAccounts} JOIN ${contacts} ON ${q(contacts.id)} = ${q(contactDonorAccounts.contactId)}
      WHERE ${q(contactDonorAccounts.donorAccountId)} = ${q(donorAccounts.id)} AND ${inList(q(contacts.accountListId), lists)})
    OR EXISTS (SELECT 1 FROM ${donations} WHERE ${q(donations.donorAccountId)} = ${q(donorAccounts.id)} AND ${inList(q(donations.accountListId), lists)}))`;
}

/**
 * The lists a donor account is seen from: the path's list (`/account_lists/<id>/donor_accounts`), else the viewer's.
 * Its gifts, dates and name are those of these lists only: another list's giving is not shown.
 */
const listsSeenFrom = (ctx: RequestContext) => (ctx.pathParams.account_list_id ? [ctx.pathParams.account_list_id] : ctx.viewer.readableListIds);

const giftsOf = (ctx: RequestContext, aggregate: SQL) =>
  sql`(SELECT ${aggregate} FROM ${donations} WHERE ${q(donations.donorAccountId)} = ${q(donorAccounts.id)} AND ${inList(q(donations.accountListId), listsSeenFrom(ctx))})`;

/** Contacts of those lists linked to the donor account. */
const linkedContacts = (ctx: RequestContext, select: SQL, then: SQL = sql``) =>
  sql`(SELECT ${select} FROM ${contactDonorAccounts} JOIN ${contacts} ON ${q(contacts.id)} = ${q(contactDonorAccounts.contactId)}
    WHERE ${q(contactDonorAccounts.donorAccountId)} = ${q(donorAccounts.id)} AND ${inList(q(contacts.accountListId), listsSeenFrom(ctx))} ${then})`;

/** The name of the list's contact giving through the account, with its number: "Doe, John (1234)". */
function displayName(name: unknown, row: Row): string {
  const number = String(row.account_number ?? "");
  const text = typeof name === "string" ? name.trim() : "";
  if (text === "") return number;
  return number === "" || text.includes(number) ? text : `${text} (${number})`;
}

const NULLABLE_DATE = { anyOf: [DATE, { type: "null" }] };

/** What the Android app and the donation pickers read of a donor account; shown by default at the list's path. */
export const DONOR_ACCOUNT_DETAILS = ["donor_type", "first_donation_date", "last_donation_date", "total_donations", "display_name"];

export const donorAccountResource = defineResource({
  type: "donor_accounts",
  model: "DonorAccount",
  table: donorAccounts,
  includeScope: donorOfViewersLists,
  attributes: {
    account_number: stored(donorAccounts.accountNumber),
    name: stored(donorAccounts.name),
    // The donor system's kind of giver (household, organization) is not kept: always null.
    donor_type: { ...computed(() => sql`NULL`, undefined, { default: false }), schema: { type: "null" } },
    first_donation_date: { ...computed((ctx) => giftsOf(ctx, sql`MIN(${q(donations.donationDate)})`), undefined, { default: false }), schema: NULLABLE_DATE },
    last_donation_date: { ...computed((ctx) => giftsOf(ctx, sql`MAX(${q(donations.donationDate)})`), undefined, { default: false }), schema: NULLABLE_DATE },
    // A decimal string, as the original's BigDecimal: the sum of the account's gifts to these lists.
    total_donations: {
      ...computed((ctx) => giftsOf(ctx, sql`COALESCE(SUM(${q(donations.amount)}), 0)`), (units) => formatMoney(Number(units)), { default: false }),
      schema: { type: "string" },
    },
    display_name: {
      ...computed((ctx) => linkedContacts(ctx, q(contacts.name), sql`ORDER BY ${q(contacts.createdAt)}, ${q(contacts.id)} LIMIT 1`), displayName, { default: false, needs: [donorAccounts.accountNumber] }),
      schema: { type: "string" },
    },
  },
  relationships: {
    organization: belongsTo("organizations", donorAccounts.organizationId),
    contacts: { ...manyBy("contacts", (ctx) => linkedContacts(ctx, sql`json_group_array(${q(contacts.id)})`), { default: false }) },
  },
});

/** A contact of the viewer's lists, by id. */
const viewersContact = (id: SQLiteColumn, ctx: RequestContext) =>
  sql`EXISTS (SELECT 1 FROM ${contacts} WHERE ${q(contacts.id)} = ${q(id)} AND ${inList(q(contacts.accountListId), ctx.viewer.readableListIds)})`;

export const contactReferralResource = defineResource({
  type: "contact_referrals",
  model: "ContactReferral",
  table: contactReferrals,
  // Shown only when both ends are the viewer's: a referral never names a contact of someone else's list.
  includeScope: (ctx) => sql`${viewersContact(contactReferrals.referredById, ctx)} AND ${viewersContact(contactReferrals.referredToId, ctx)}`,
  // A referral is the referred contact's record ("referred to me"); both ends are checked when linked.
  ...ownedScopes(contactOwner, contactReferrals.referredToId),
  attributes: {},
  relationships: {
    referred_by: ownerRelationship(contactOwner, contactReferrals.referredById),
    referred_to: ownerRelationship(contactOwner, contactReferrals.referredToId),
  },
});
