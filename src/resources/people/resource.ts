/**
 * People of contacts and their contact details. Contacts include them (`include=people.email_addresses`); they
 * are written through their contact (sideposting) or their own nested routes, scoped through the contact's list.
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
import { recordNotFound } from "../../jsonapi/errors";
import { boolean, email, integer, phone, string } from "../../engine/attributes";
import { defineResource, type AttributeDef, type BatchStatement, type RequestContext } from "../../engine/define";
import { ownedScopes, ownerRelationship } from "../../engine/owned";
import { onePrimaryHooks } from "../../engine/primary";
import { contactOwner, personOwner } from "./owners";
import { belongsTo, hasMany, sideposted } from "../../engine/relationships";
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

/** A person the viewer may name (as a comment's author): one they may be shown, else not found. */
export async function checkVisiblePerson(id: string, ctx: RequestContext): Promise<void> {
  const [row] = await ctx.db.select({ id: people.id }).from(people).where(sql`${q(people.id)} = ${id} AND ${visiblePerson(ctx)}`).limit(1);
  if (!row) throw recordNotFound("Person", id);
}

/** Rows of a person's details (e-mail addresses, family relationships, ...) the viewer may be shown: those of a visible person. */
const ofVisiblePerson = (personId: SQLiteColumn) => (ctx: RequestContext) =>
  sql`EXISTS (SELECT 1 FROM ${people} WHERE ${q(people.id)} = ${q(personId)} AND ${visiblePerson(ctx)})`;

const DAY = { min: 1, max: 31 };
const MONTH = { min: 1, max: 12 };
const YEAR = { min: 1, max: 9999 };

/** A person's details of one kind, written with the person when sideposted. */
const ofPerson = (type: string, table: PersonDetailTable | typeof familyRelationships) =>
  sideposted(hasMany(type, table.id, table.personId, people.id), { parent: "person" });

export const personResource = defineResource({
  type: "people",
  model: "Person",
  table: people,
  includeScope: visiblePerson,
  ...ownedScopes(contactOwner, people.contactId),
  attributes: {
    first_name: string(people.firstName, { required: true }),
    last_name: string(people.lastName),
    middle_name: string(people.middleName),
    title: string(people.title),
    suffix: string(people.suffix),
    gender: string(people.gender),
    marital_status: string(people.maritalStatus),
    birthday_day: integer(people.birthdayDay, DAY),
    birthday_month: integer(people.birthdayMonth, MONTH),
    birthday_year: integer(people.birthdayYear, YEAR),
    anniversary_day: integer(people.anniversaryDay, DAY),
    anniversary_month: integer(people.anniversaryMonth, MONTH),
    anniversary_year: integer(people.anniversaryYear, YEAR),
    deceased: boolean(people.deceased),
    optout_enewsletter: boolean(people.optoutEnewsletter),
    alma_mater: string(people.almaMater),
    employer: string(people.employer),
    occupation: string(people.occupation),
  },
  relationships: {
    email_addresses: ofPerson("email_addresses", emailAddresses),
    phone_numbers: ofPerson("phone_numbers", phoneNumbers),
    facebook_accounts: ofPerson("facebook_accounts", facebookAccounts),
    linkedin_accounts: ofPerson("linkedin_accounts", linkedinAccounts),
    twitter_accounts: ofPerson("twitter_accounts", twitterAccounts),
    websites: ofPerson("websites", websites),
    family_relationships: ofPerson("family_relationships", familyRelationships),
    // The parent, fixed by the route or the contact a person is sideposted with; listed only when asked for.
    contact: ownerRelationship(contactOwner, people.contactId, { default: false, listedAs: "contacts" }),
    // The same contact under the name the home page's birthdays ask for (the original's person with parent contact).
    parent_contact: { ...belongsTo("contacts", people.contactId), default: false },
  },
  hooks: {
    // A person belongs to a contact: the route or parent gives it, or (bulk create) the item names it.
    beforeCreate: (values) => (values.contact ? [] : [{ attribute: "contact", message: "can't be blank", pointer: "/data/relationships/contact" }]),
    // The first person of a contact is its primary person, so `primary_person` names someone as soon as anyone is there.
    sideWrites: (id, _values, _input, ctx) => [
      ctx.db
        .update(people)
        .set({ isPrimary: true })
        .where(
          sql`${people.id} = ${id} AND NOT EXISTS (SELECT 1 FROM ${people} AS other WHERE other.contact_id = ${q(people.contactId)} AND other.id <> ${id} AND other.is_primary = 1)`,
        ) as unknown as BatchStatement,
    ],
  },
});

type PersonDetailTable =
  | typeof emailAddresses
  | typeof phoneNumbers
  | typeof facebookAccounts
  | typeof linkedinAccounts
  | typeof twitterAccounts
  | typeof websites;

/**
 * A contact detail of one person: its own fields and the `person` it belongs to. Details with a `primary` flag
 * keep one primary per person.
 */
function personDetail(type: string, model: string, table: PersonDetailTable, attributes: Record<string, AttributeDef>, storedAs?: string) {
  const hasPrimary = "primary" in table && "primary" in attributes;
  return defineResource({
    type,
    model,
    table,
    storedAs,
    includeScope: ofVisiblePerson(table.personId),
    ...ownedScopes(personOwner, table.personId),
    attributes,
    relationships: { person: ownerRelationship(personOwner, table.personId) },
    hooks: hasPrimary
      ? onePrimaryHooks({
          attribute: "primary",
          column: (table as typeof emailAddresses).primary,
          owner: table.personId,
          idColumn: table.id,
          historic: "historic" in attributes ? "historic" : undefined,
        })
      : undefined,
  });
}

export const emailAddressResource = personDetail("email_addresses", "EmailAddress", emailAddresses, {
  email: email(emailAddresses.email, { required: true }),
  primary: boolean(emailAddresses.primary),
  historic: boolean(emailAddresses.historic),
  valid: boolean(emailAddresses.valid),
  location: string(emailAddresses.location),
  source: string(emailAddresses.source),
});

export const phoneNumberResource = personDetail("phone_numbers", "PhoneNumber", phoneNumbers, {
  number: phone(phoneNumbers.number, { required: true }),
  location: string(phoneNumbers.location),
  primary: boolean(phoneNumbers.primary),
  historic: boolean(phoneNumbers.historic),
  valid: boolean(phoneNumbers.valid),
  source: string(phoneNumbers.source),
});

export const facebookAccountResource = personDetail("facebook_accounts", "FacebookAccount", facebookAccounts, {
  username: string(facebookAccounts.username, { required: true }),
}, "person_facebook_accounts");

export const linkedinAccountResource = personDetail("linkedin_accounts", "LinkedinAccount", linkedinAccounts, {
  public_url: string(linkedinAccounts.publicUrl, { required: true }),
}, "person_linkedin_accounts");

export const twitterAccountResource = personDetail("twitter_accounts", "TwitterAccount", twitterAccounts, {
  screen_name: string(twitterAccounts.screenName, { required: true }),
  primary: boolean(twitterAccounts.primary),
}, "person_twitter_accounts");

export const websiteResource = personDetail("websites", "Website", websites, {
  url: string(websites.url, { required: true }),
  primary: boolean(websites.primary),
}, "person_websites");

export const familyRelationshipResource = defineResource({
  type: "family_relationships",
  model: "FamilyRelationship",
  table: familyRelationships,
  includeScope: ofVisiblePerson(familyRelationships.personId),
  ...ownedScopes(personOwner, familyRelationships.personId),
  attributes: { relationship: string(familyRelationships.relationship, { required: true }) },
  relationships: {
    person: ownerRelationship(personOwner, familyRelationships.personId),
    related_person: ownerRelationship(personOwner, familyRelationships.relatedPersonId),
  },
});
