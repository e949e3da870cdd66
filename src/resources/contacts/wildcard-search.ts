import { sql, type SQL } from "drizzle-orm";
import { contactDonorAccounts, contacts, donorAccounts, emailAddresses, people, phoneNumbers } from "../../../drizzle/schema";
import { and, containsText, or, q } from "../../db/sql";
import type { FilterDef } from "../../engine/define";
import { textValue } from "../../jsonapi/filter-values";
import { hasContactPerson, personIdsOfContact } from "./contact-sql";

const PHONE_PUNCTUATION = [" ", "-", "(", ")", ".", "+", "/"];

function digitsOnly(expression: SQL): SQL {
  return PHONE_PUNCTUATION.reduce((inner, mark) => sql`replace(${inner}, ${mark}, '')`, expression);
}

/**
 * Text contained, whatever the case, in the contact's name (every word of the text, in any order, so
 * "John Doe" finds "Doe, John"), its notes, its people's names, e-mail addresses and phone numbers (compared
 * digit by digit when the text is a phone number), or its donor account numbers.
 */
export const wildcardSearch: FilterDef = (value) => {
  const text = textValue(value);
  if (text === "") return undefined;
  const words = text.split(/[\s,]+/).filter(Boolean);
  const name = q(contacts.name);
  const digits = text.replace(/\D/g, "");
  const looksLikePhone = digits.length >= 3 && /^[\d\s\-().+/]+$/.test(text);
  const phoneMatch = or([
    containsText(q(phoneNumbers.number), text),
    looksLikePhone ? sql`instr(${digitsOnly(q(phoneNumbers.number))}, ${digits}) > 0` : undefined,
  ]);
  const first = q(people.firstName);
  const last = sql`COALESCE(${q(people.lastName)}, '')`;
  return or([
    and(words.map((word) => containsText(name, word))),
    containsText(q(contacts.notes), text),
    hasContactPerson(
      or([containsText(first, text), containsText(last, text), containsText(sql`${first} || ' ' || ${last}`, text), containsText(sql`${last} || ', ' || ${first}`, text)]),
    ),
    sql`EXISTS (SELECT 1 FROM ${emailAddresses} WHERE ${q(emailAddresses.personId)} IN (${personIdsOfContact}) AND ${containsText(q(emailAddresses.email), text)})`,
    sql`EXISTS (SELECT 1 FROM ${phoneNumbers} WHERE ${q(phoneNumbers.personId)} IN (${personIdsOfContact}) AND ${phoneMatch})`,
    sql`EXISTS (SELECT 1 FROM ${contactDonorAccounts} JOIN ${donorAccounts} ON ${q(donorAccounts.id)} = ${q(contactDonorAccounts.donorAccountId)} WHERE ${q(contactDonorAccounts.contactId)} = ${q(contacts.id)} AND ${containsText(q(donorAccounts.accountNumber), text)})`,
  ]);
};
