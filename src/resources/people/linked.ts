/**
 * Records linked to contacts that the API shows only through contacts (includes and linkage): addresses,
 * donor accounts and referrals. Read-only here.
 */
import { addresses, contactReferrals, donorAccounts } from "../../../drizzle/schema";
import { stored } from "../../engine/attributes";
import { defineResource } from "../../engine/define";
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

export const contactReferralResource = defineResource({
  type: "contact_referrals",
  model: "ContactReferral",
  table: contactReferrals,
  attributes: {},
  relationships: {
    referred_by: belongsTo("contacts", contactReferrals.referredById),
    referred_to: belongsTo("contacts", contactReferrals.referredToId),
  },
});
