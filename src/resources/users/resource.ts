import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import {
  accountListCoaches,
  accountListUsers,
  emailAddresses,
  facebookAccounts,
  familyRelationships,
  linkedinAccounts,
  masterPeople,
  phoneNumbers,
  twitterAccounts,
  users,
  websites,
} from "../../../drizzle/schema";
import { boolean, derived, integer, string, withWrite } from "../../engine/attributes";
import { defineResource, type BatchStatement, type RequestContext } from "../../engine/define";
import { inList, q } from "../../db/sql";
import { belongsToStamped, hasMany, manyBy } from "../../engine/relationships";
import { parsePreferences, preferenceColumns, readPreferences } from "./preferences";

const NAME_LENGTH = 255;
const text = (column: SQLiteColumn) => string(column, { maxLength: NAME_LENGTH });

/** The user's own contact details are the rows of the people tables for users.person_id. */
const personDetails = (type: string, table: { id: SQLiteColumn; personId: SQLiteColumn; createdAt: SQLiteColumn }) =>
  hasMany(type, table.id, table.personId, users.personId, { orderBy: table.createdAt });

/** The users a viewer may be shown (as users and coaches of a list): those who share one of the viewer's lists, and the viewer. */
export function usersSharingAList(ctx: RequestContext): SQL {
  return sql`(${q(users.id)} = ${ctx.viewer.id}
    OR ${q(users.id)} IN (SELECT ${q(accountListUsers.userId)} FROM ${accountListUsers} WHERE ${inList(q(accountListUsers.accountListId), ctx.viewer.readableListIds)})
    OR ${q(users.id)} IN (SELECT ${q(accountListCoaches.userId)} FROM ${accountListCoaches} WHERE ${inList(q(accountListCoaches.accountListId), ctx.viewer.readableListIds)}))`;
}

/**
 * The signed-in user (`/api/v2/user`). Other users appear only as included `users` of account lists; their
 * preferences are private and answered as null.
 */
export const userResource = defineResource({
  type: "users",
  model: "User",
  table: users,
  scope: (ctx) => sql`${users.id} = ${ctx.viewer.id}`,
  includeScope: usersSharingAList,
  attributes: {
    first_name: string(users.firstName, { required: true, maxLength: NAME_LENGTH }),
    last_name: text(users.lastName),
    legal_first_name: text(users.legalFirstName),
    middle_name: text(users.middleName),
    suffix: text(users.suffix),
    title: text(users.title),
    alma_mater: text(users.almaMater),
    employer: text(users.employer),
    gender: text(users.gender),
    marital_status: text(users.maritalStatus),
    occupation: text(users.occupation),
    avatar: string(users.avatar, { maxLength: 2048 }),
    anniversary_day: integer(users.anniversaryDay, { min: 1, max: 31 }),
    anniversary_month: integer(users.anniversaryMonth, { min: 1, max: 12 }),
    anniversary_year: integer(users.anniversaryYear, { min: 1, max: 9999 }),
    birthday_day: integer(users.birthdayDay, { min: 1, max: 31 }),
    birthday_month: integer(users.birthdayMonth, { min: 1, max: 12 }),
    birthday_year: integer(users.birthdayYear, { min: 1, max: 9999 }),
    deceased: boolean(users.deceased),
    optout_enewsletter: boolean(users.optoutEnewsletter),
    // This service keeps no link from a user to contacts, so the list is always empty.
    parent_contacts: derived([], () => []),
    preferences: withWrite(
      derived(preferenceColumns, (row, ctx) => (row.id === ctx.viewer.id ? readPreferences(row, ctx) : null)),
      (value) =>
        typeof value === "object" && value !== null && !Array.isArray(value) ? { ok: true, value } : { ok: false, message: "must be an object" },
    ),
  },
  relationships: {
    // Only lists the viewer can see: another user's other lists are none of the viewer's business. Read from the
    // viewer (Viewer.listsOfMembers), which holds them whole whichever database the request runs on.
    account_lists: manyBy("account_lists", (ctx) => sql`coalesce((SELECT value FROM json_each(${JSON.stringify(ctx.viewer.listsOfMembers)}) WHERE key = ${q(users.id)}), '[]')`),
    email_addresses: personDetails("email_addresses", emailAddresses),
    phone_numbers: personDetails("phone_numbers", phoneNumbers),
    facebook_accounts: personDetails("facebook_accounts", facebookAccounts),
    linkedin_accounts: personDetails("linkedin_accounts", linkedinAccounts),
    twitter_accounts: personDetails("twitter_accounts", twitterAccounts),
    websites: personDetails("websites", websites),
    family_relationships: personDetails("family_relationships", familyRelationships),
    master_person: belongsToStamped("master_people", users.masterPersonId, masterPeople),
  },
  hooks: {
    beforeUpdate: (changes, _existing, _input, ctx) => {
      if (!changes.preferences) return;
      const { values, errors } = parsePreferences(changes.preferences as Record<string, unknown>, ctx);
      if (errors.length > 0) return errors;
      changes.preferences = values;
    },
    // Preferences span several columns, so they are written by a second statement of the same atomic batch.
    sideWrites: (id, changes, _input, ctx) => {
      const values = changes.preferences as Record<string, unknown> | undefined;
      if (!values || Object.keys(values).length === 0) return [];
      return [ctx.db.update(users).set(values).where(sql`${users.id} = ${id}`) as unknown as BatchStatement];
    },
  },
});

/**
 * The person behind a user across organizations (`include=master_person`): its identity and timestamps. Shown for
 * the master person of a user the viewer may see.
 */
export const masterPersonResource = defineResource({
  type: "master_people",
  model: "MasterPerson",
  table: masterPeople,
  includeScope: (ctx) => sql`EXISTS (SELECT 1 FROM ${users} WHERE ${q(users.masterPersonId)} = ${q(masterPeople.id)} AND ${usersSharingAList(ctx)})`,
  attributes: {},
  relationships: {},
});
