/**
 * Records linked to contacts that the API shows only through contacts (includes and linkage): addresses,
 * donor accounts and referrals. Read-only here.
 */
import { sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { addresses, contactReferrals, contacts, donorAccounts } from "../../../drizzle/schema";
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

export const donorAccountResource = defineResource({
  type: "donor_accounts",
  model: "DonorAccount",
  table: donorAccounts,
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
