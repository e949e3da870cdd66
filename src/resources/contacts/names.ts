/**
 * Contacts' names and their people's. A contact's name is written `Last, First`: `Doe, John and Jane` (or `&`) is
 * John Doe and Jane Doe, the first one primary. A name without a comma (a company, a single name) gives one person
 * whose first name is the whole name. Spreadsheets hold people's names in more forms ("John and Jane Doe", "Mr. and
 * Mrs. John Doe"), read by `parseFullName`; `contactName` builds the contact's name from people's names.
 */
import { people } from "../../../drizzle/schema";
import type { BatchStatement, RequestContext } from "../../engine/define";

/** What joins a couple's names: "and" or "&". */
const COUPLE = /\s+(?:and|&)\s+|\s*&\s*/i;

export interface PersonName {
  firstName: string;
  lastName: string | null;
}

export function peopleFromName(name: string): PersonName[] {
  const trimmed = name.trim();
  const comma = trimmed.indexOf(",");
  const lastName = comma < 0 ? "" : trimmed.slice(0, comma).trim();
  const rest = comma < 0 ? "" : trimmed.slice(comma + 1).trim();
  if (lastName === "" || rest === "") return [{ firstName: trimmed.replace(/,\s*$/, "").trim(), lastName: null }];
  const firstNames = rest
    .split(COUPLE)
    .map((part) => part.trim())
    .filter(Boolean);
  return firstNames.map((firstName) => ({ firstName, lastName }));
}

/** Inserts for the people of a new contact, unless the request says `create_default_person: false`. */
export function defaultPeopleWrites(ctx: RequestContext, contactId: string, name: string, createDefaultPerson: unknown): BatchStatement[] {
  if (createDefaultPerson === false || createDefaultPerson === "false") return [];
  const rows = peopleFromName(name).map((person, position) => ({
    id: crypto.randomUUID(),
    contactId,
    firstName: person.firstName,
    lastName: person.lastName,
    isPrimary: position === 0,
    position,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }));
  // Eight values a row: ten rows a statement stay under D1's 100 bound parameters.
  const statements: BatchStatement[] = [];
  for (let start = 0; start < rows.length; start += 10) {
    statements.push(ctx.db.insert(people).values(rows.slice(start, start + 10)) as unknown as BatchStatement);
  }
  return statements;
}

export interface Names {
  firstName: string;
  middleName: string;
  lastName: string;
  spouseFirstName: string;
  spouseMiddleName: string;
  spouseLastName: string;
}

const TITLES = /^(?:(?:mr|mrs|ms|miss|dr|rev|prof)\.?\s*(?:(?:and|&)\s*)?)+\s+/i;
const SUFFIXES = /\s*,?\s+(?:jr|sr|ii|iii|iv|md|phd)\.?$/i;

const words = (text: string) => text.split(/\s+/).filter(Boolean);

/** First, middle and last of one person's "First Middle Last". */
function person(text: string): { first: string; middle: string; last: string } {
  const parts = words(text);
  if (parts.length === 0) return { first: "", middle: "", last: "" };
  if (parts.length === 1) return { first: parts[0], middle: "", last: "" };
  return { first: parts[0], middle: parts.slice(1, -1).join(" "), last: parts[parts.length - 1] };
}

/** The names in a full-name cell; a name it does not hold is "". */
export function parseFullName(full: string): Names {
  const none: Names = { firstName: "", middleName: "", lastName: "", spouseFirstName: "", spouseMiddleName: "", spouseLastName: "" };
  let text = full.replace(/\([^)]*\)/g, " ").replace(/\s+/g, " ").trim().replace(TITLES, "").replace(SUFFIXES, "").trim();
  if (text === "") return none;
  if (text.includes(",")) {
    // "Doe, John and Jane": the last name first, shared by both.
    const [last, rest] = [text.slice(0, text.indexOf(",")).trim(), text.slice(text.indexOf(",") + 1).trim()];
    const [first = "", spouse = ""] = rest.split(COUPLE).map((part) => part.trim());
    const one = person(first);
    const two = person(spouse);
    return { firstName: one.first, middleName: [one.middle, one.last].filter(Boolean).join(" "), lastName: last, spouseFirstName: two.first, spouseMiddleName: [two.middle, two.last].filter(Boolean).join(" "), spouseLastName: spouse ? last : "" };
  }
  text = text.replace(TITLES, "");
  const [first, spouse] = text.split(COUPLE).map((part) => part.trim());
  if (spouse === undefined) {
    const one = person(first);
    return { ...none, firstName: one.first, middleName: one.middle, lastName: one.last };
  }
  // "John and Jane Doe" share the last name; "John Smith and Jane Doe" each have their own.
  const two = person(spouse);
  const one = person(first);
  const shared = words(first).length === 1;
  return {
    firstName: one.first,
    middleName: shared ? "" : one.middle,
    lastName: shared ? two.last : one.last,
    spouseFirstName: two.first,
    spouseMiddleName: two.middle,
    spouseLastName: two.last,
  };
}

/** A word in upper or lower case only is capitalised; one already in mixed case ("McDonald") is kept. */
function titled(word: string): string {
  if (word !== word.toLowerCase() && word !== word.toUpperCase()) return word;
  return word.toLowerCase().replace(/(^|[-'])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase());
}

const titleCase = (text: string) => words(text).map((word) => (word.toLowerCase() === "and" ? "and" : titled(word))).join(" ");

/** "Last, First and Spouse" (or "Last and SpouseLast, First and Spouse" when they differ); "" without any name. */
export function contactName(names: Names): string {
  const lasts = [...new Set([names.lastName, names.spouseLastName].map((name) => name.trim()).filter(Boolean))];
  const firsts = [
    [names.firstName, names.middleName].join(" ").trim(),
    [names.spouseFirstName, names.spouseMiddleName].join(" ").trim(),
  ].filter(Boolean);
  const last = lasts.join(" and ");
  const first = firsts.join(" and ");
  return titleCase(last && first ? `${last}, ${first}` : last || first);
}
