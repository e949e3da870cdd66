/**
 * Records linked to contacts that the API shows only through contacts (includes and linkage): addresses,
 * donor accounts and referrals. Read-only here.
 */
import { sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { addresses, contactDonorAccounts, contactReferrals, contacts, donations, donorAccounts } from "../../../drizzle/schema";
import { inList, q } from "../../db/sql";
import { stored } from "../../engine/attributes";
import { defineResource, type RequestContext } from "../../engine/define";
import { belongsTo } from "../../engine/relationships";

export const addressResource = defineResource({
  type: "addresses",
  model: "Address",
  table: addresses,
  attributes: {
    street: stored(addresses.street),
    city: stored(addresses.city),
    state: stored(addresses.state),
    region: stored(addresses.region),
    metro_area: stored(addresses.metroArea),
    country: stored(addresses.country),
    postal_code: stored(addresses.postalCode),
    location: stored(addresses.location),
    primary_mailing_address: stored(addresses.primaryMailingAddress),
    historic: stored(addresses.historic),
    valid: stored(addresses.valid),
    source: stored(addresses.source),
    latitude: stored(addresses.latitude),
    longitude: stored(addresses.longitude),
  },
  relationships: {},
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

export const donorAccountResource = defineResource({
  type: "donor_accounts",
  model: "DonorAccount",
  table: donorAccounts,
  includeScope: donorOfViewersLists,
  attributes: {
    account_number: stored(donorAccounts.accountNumber),
    name: stored(donorAccounts.name),
  },
  relationships: {
    organization: belongsTo("organizations", donorAccounts.organizationId),
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
  attributes: {},
  relationships: {
    referred_by: belongsTo("contacts", contactReferrals.referredById),
    referred_to: belongsTo("contacts", contactReferrals.referredToId),
  },
});
