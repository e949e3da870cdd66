/**
 * The people a new contact starts with, read from its name. Names are written `Last, First`:
 * `Doe, John and Jane` (or `&`) is John Doe and Jane Doe, the first one primary. A name without a comma (a
 * company, a single name) gives one person whose first name is the whole name.
 */
import { people } from "../../../drizzle/schema";
import type { BatchStatement, RequestContext } from "../../engine/define";

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
    .split(/\s+(?:and|&)\s+|\s*&\s*/i)
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
