/**
 * People of contacts and their contact details: read-only declarations, so that contacts can include them
 * (`include=people.email_addresses`) and show their linkage. They are written through their contact.
 */
import {
  emailAddresses,
  facebookAccounts,
  familyRelationships,
  linkedinAccounts,
  people,
  phoneNumbers,
  twitterAccounts,
  websites,
} from "../../../drizzle/schema";
import { stored } from "../../engine/attributes";
import { defineResource, type AttributeDef } from "../../engine/define";
import { belongsTo, hasMany } from "../../engine/relationships";

const ofPerson = (type: string, table: PersonDetailTable | typeof familyRelationships) => hasMany(type, table.id, table.personId, people.id);

export const personResource = defineResource({
  type: "people",
  model: "Person",
  table: people,
  attributes: {
    first_name: stored(people.firstName),
    last_name: stored(people.lastName),
    middle_name: stored(people.middleName),
    title: stored(people.title),
    suffix: stored(people.suffix),
    gender: stored(people.gender),
    marital_status: stored(people.maritalStatus),
    birthday_day: stored(people.birthdayDay),
    birthday_month: stored(people.birthdayMonth),
    birthday_year: stored(people.birthdayYear),
    anniversary_day: stored(people.anniversaryDay),
    anniversary_month: stored(people.anniversaryMonth),
    anniversary_year: stored(people.anniversaryYear),
    deceased: stored(people.deceased),
    optout_enewsletter: stored(people.optoutEnewsletter),
    alma_mater: stored(people.almaMater),
    employer: stored(people.employer),
    occupation: stored(people.occupation),
  },
  relationships: {
    email_addresses: ofPerson("email_addresses", emailAddresses),
    phone_numbers: ofPerson("phone_numbers", phoneNumbers),
    facebook_accounts: ofPerson("facebook_accounts", facebookAccounts),
    linkedin_accounts: ofPerson("linkedin_accounts", linkedinAccounts),
    twitter_accounts: ofPerson("twitter_accounts", twitterAccounts),
    websites: ofPerson("websites", websites),
    family_relationships: ofPerson("family_relationships", familyRelationships),
  },
});

type PersonDetailTable =
  | typeof emailAddresses
  | typeof phoneNumbers
  | typeof facebookAccounts
  | typeof linkedinAccounts
  | typeof twitterAccounts
  | typeof websites;

/** A contact detail of one person: its own fields and the `person` it belongs to. */
function personDetail(type: string, model: string, table: PersonDetailTable, attributes: Record<string, AttributeDef>) {
  return defineResource({
    type,
    model,
    table,
    attributes,
    relationships: { person: belongsTo("people", table.personId) },
  });
}

export const emailAddressResource = personDetail("email_addresses", "EmailAddress", emailAddresses, {
  email: stored(emailAddresses.email),
  primary: stored(emailAddresses.primary),
  historic: stored(emailAddresses.historic),
  valid: stored(emailAddresses.valid),
  location: stored(emailAddresses.location),
  source: stored(emailAddresses.source),
});

export const phoneNumberResource = personDetail("phone_numbers", "PhoneNumber", phoneNumbers, {
  number: stored(phoneNumbers.number),
  location: stored(phoneNumbers.location),
  primary: stored(phoneNumbers.primary),
  historic: stored(phoneNumbers.historic),
  valid: stored(phoneNumbers.valid),
  source: stored(phoneNumbers.source),
});

export const facebookAccountResource = personDetail("facebook_accounts", "FacebookAccount", facebookAccounts, {
  username: stored(facebookAccounts.username),
});

export const linkedinAccountResource = personDetail("linkedin_accounts", "LinkedinAccount", linkedinAccounts, {
  public_url: stored(linkedinAccounts.publicUrl),
});

export const twitterAccountResource = personDetail("twitter_accounts", "TwitterAccount", twitterAccounts, {
  screen_name: stored(twitterAccounts.screenName),
  primary: stored(twitterAccounts.primary),
});

export const websiteResource = personDetail("websites", "Website", websites, {
  url: stored(websites.url),
  primary: stored(websites.primary),
});

export const familyRelationshipResource = defineResource({
  type: "family_relationships",
  model: "FamilyRelationship",
  table: familyRelationships,
  attributes: { relationship: stored(familyRelationships.relationship) },
  relationships: {
    person: belongsTo("people", familyRelationships.personId),
    related_person: belongsTo("people", familyRelationships.relatedPersonId),
  },
});
