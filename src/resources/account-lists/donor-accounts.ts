/**
 * `/account_lists/<id>/donor_accounts`: the donor accounts linked to the list's contacts, each once, with what the
 * donation pickers and the Android app read (its gifts to the list, the contact's name it gives as). Donor accounts
 * belong to no list (people/linked.ts); here they are narrowed to the path's list.
 */
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { contactDonorAccounts, contacts, donorAccounts } from "../../../drizzle/schema";
import { containsText, inList, or, q } from "../../db/sql";
import type { FilterDef, RequestContext, ResourceDef } from "../../engine/define";
import { listValue, textValue } from "../../jsonapi/filter-values";
import { clientObject } from "../../jsonapi/params";
import { DONOR_ACCOUNT_DETAILS, donorAccountResource } from "../people/linked";

/**
 * Linked to one of the path list's contacts, and (`and`) to a contact satisfying a further condition: a set of ids
 * read from the list's contacts and their links, never by testing every donor account there is (the table belongs
 * to no list).
 */
const linkedInList = (ctx: RequestContext, and = sql`1`) =>
  sql`${q(donorAccounts.id)} IN (SELECT ${q(contactDonorAccounts.donorAccountId)} FROM ${contacts} JOIN ${contactDonorAccounts} ON ${q(contactDonorAccounts.contactId)} = ${q(contacts.id)}
    WHERE ${q(contacts.accountListId)} = ${ctx.pathParams.account_list_id} AND ${and})`;

/** `filter[contacts]=<ids>`: the accounts of those contacts. */
const linkedContacts: FilterDef = (value, ctx) => {
  const ids = listValue(value).map((id) => id.toLowerCase());
  return ids.length === 0 ? undefined : linkedInList(ctx, inList(q(contacts.id), ids));
};

/** `filter[wildcard_search]=<text>`: in the account's name or number, or the name of the list's contact giving through it. */
const wildcardSearch: FilterDef = (value, ctx) => {
  const text = textValue(value).trim();
  if (text === "") return undefined;
  return or([containsText(q(donorAccounts.name), text), containsText(q(donorAccounts.accountNumber), text), linkedInList(ctx, containsText(q(contacts.name), text))]);
};

const shownByDefault = Object.fromEntries(
  Object.entries(donorAccountResource.attributes).map(([name, attribute]) => [name, DONOR_ACCOUNT_DETAILS.includes(name) ? { ...attribute, default: true } : attribute]),
);

export const listDonorAccountResource: ResourceDef = {
  ...donorAccountResource,
  scope: (ctx) => linkedInList(ctx),
  parentParam: "account_list_id",
  attributes: Object.assign(clientObject(), shownByDefault),
  relationships: Object.assign(clientObject(), donorAccountResource.relationships, { contacts: { ...donorAccountResource.relationships.contacts, default: true } }),
  sorts: Object.assign(clientObject<SQL | SQLiteColumn>(), { created_at: donorAccounts.createdAt, updated_at: donorAccounts.updatedAt }),
  filters: Object.assign(clientObject<FilterDef>(), { contacts: linkedContacts, wildcard_search: wildcardSearch }),
};
