/**
 * Records linked to contacts: addresses, donor accounts and referrals. Addresses and referrals are written
 * through their contact (sideposting) or nested routes; donor accounts are only linked and unlinked.
 */
import { sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { addresses, contactDonorAccounts, contactReferrals, contacts, donations, donorAccounts } from "../../../drizzle/schema";
import { inList, q } from "../../db/sql";
import { boolean, decimal, stored, string } from "../../engine/attributes";
import { defineResource, type RequestContext } from "../../engine/define";
import { ownedScopes, ownerRelationship } from "../../engine/owned";
import { onePrimaryHooks } from "../../engine/primary";
import { belongsTo } from "../../engine/relationships";
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
  // A referral is the referred contact's record ("referred to me"); both ends are checked when linked.
  ...ownedScopes(contactOwner, contactReferrals.referredToId),
  attributes: {},
  relationships: {
    referred_by: ownerRelationship(contactOwner, contactReferrals.referredById),
    referred_to: ownerRelationship(contactOwner, contactReferrals.referredToId),
  },
});
