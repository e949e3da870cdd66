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
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { contacts, users } from "../../../drizzle/schema";
import { inList, q } from "../../db/sql";
import { stored } from "../../engine/attributes";
import { defineResource, type AttributeDef, type RequestContext } from "../../engine/define";
import { belongsTo, hasMany } from "../../engine/relationships";
import { usersSharingAList } from "../users/resource";

/**
 * The people a viewer may be shown: those of contacts in the viewer's lists, and those standing for users who
 * share a list with the viewer. Checked on every include, because a link between people (a family
 * relationship) could otherwise lead to a person of someone else's list.
 */
function visiblePerson(ctx: RequestContext): SQL {
  return sql`(EXISTS (SELECT 1 FROM ${contacts} WHERE ${q(contacts.id)} = ${q(people.contactId)} AND ${inList(q(contacts.accountListId), ctx.viewer.readableListIds)})
    OR EXISTS (SELECT 1 FROM ${users} WHERE ${q(users.personId)} = ${q(people.id)} AND ${usersSharingAList(ctx)}))`;
}

/** Rows of a person's details (e-mail addresses, family relationships, ...) the viewer may be shown: those of a visible person. */
const ofVisiblePerson = (personId: SQLiteColumn) => (ctx: RequestContext) =>
  sql`EXISTS (SELECT 1 FROM ${people} WHERE ${q(people.id)} = ${q(personId)} AND ${visiblePerson(ctx)})`;

const ofPerson = (type: string, table: PersonDetailTable | typeof familyRelationships) => hasMany(type, table.id, table.personId, people.id);

export const personResource = defineResource({
  type: "people",
  model: "Person",
  table: people,
  includeScope: visiblePerson,
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
    includeScope: ofVisiblePerson(table.personId),
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
  includeScope: ofVisiblePerson(familyRelationships.personId),
  attributes: { relationship: stored(familyRelationships.relationship) },
  relationships: {
    person: belongsTo("people", familyRelationships.personId),
    related_person: belongsTo("people", familyRelationships.relatedPersonId),
  },
});
