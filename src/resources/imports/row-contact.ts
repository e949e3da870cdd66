/**
 * One row of an import's file as a contact: its people (the primary person, and the spouse when a spouse's first
 * name is given), their e-mail addresses and phone numbers (the first of each primary), the primary mailing
 * address, tags and notes. The values go through the same attribute rules as the contacts API, so an import stores
 * nothing the API would refuse; a row the rules refuse is a failure with their messages ("Validation failed:
 * First name can't be blank").
 */
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { RequestContext, ResourceDef, Row } from "../../engine/define";
import { parseTagList } from "../../engine/tags";
import { contactResource } from "../contacts/resource";
import { addressResource } from "../people/linked";
import { emailAddressResource, personResource, phoneNumberResource } from "../people/resource";
import { constantValue } from "./mappings";
import { contactName, parseFullName, type Names } from "../contacts/names";

/** What the rows of one import are read by. */
export interface ImportRules {
  /** Each column's key, in the file's order. */
  columnKeys: string[];
  headersMappings: Record<string, unknown>;
  constantsMappings: Record<string, unknown>;
  tagList: string;
}

/** A record to store: its resource, its attributes as the API takes them, and its parent's id column. */
export interface DraftRecord {
  def: ResourceDef;
  id: string;
  attributes: Record<string, unknown>;
}

export interface DraftPerson {
  person: DraftRecord;
  emails: DraftRecord[];
  phones: DraftRecord[];
}

export interface ContactDraft {
  contact: DraftRecord;
  people: DraftPerson[];
  addresses: DraftRecord[];
  tags: string[];
  /** The name of the contact who referred this one, to be found among the list's contacts. */
  referredBy: string | undefined;
  /** What the row holds that no record can take (a tag too long), each as its field's message. */
  problems: string[];
}

/** A row's value under a supported header: the mapped column's cell, or a constant's stored value. */
function reader(cells: string[], rules: ImportRules) {
  const mapped = Object.keys(rules.headersMappings).length > 0;
  const indexOf = (header: string) => rules.columnKeys.indexOf(mapped ? (Object.hasOwn(rules.headersMappings, header) ? String(rules.headersMappings[header]) : "\u0000") : header);
  return {
    text(header: string): string {
      const index = indexOf(header);
      return index < 0 ? "" : (cells[index] ?? "").trim();
    },
    constant(header: string): string | boolean | null {
      const index = indexOf(header);
      if (index < 0) return null;
      return Object.hasOwn(rules.constantsMappings, header) ? constantValue(header, cells[index] ?? "", rules.constantsMappings) : (cells[index] ?? "").trim() || null;
    },
  };
}

const blankToNull = (text: string) => (text === "" ? null : text);

/** Builds a row's records; `newId` names each (derived ids for sample contacts, fresh ones for an import). */
export function draftContact(cells: string[], rules: ImportRules, newId: (part: string) => string): ContactDraft {
  const row = reader(cells, rules);
  const parsed: Names = parseFullName(row.text("full_name"));
  const names: Names = {
    ...parsed,
    firstName: row.text("first_name") || parsed.firstName,
    lastName: row.text("last_name") || parsed.lastName,
    spouseFirstName: row.text("spouse_first_name") || parsed.spouseFirstName,
  };
  names.spouseLastName = row.text("spouse_last_name") || parsed.spouseLastName || names.lastName;
  if (!names.spouseFirstName) names.spouseLastName = "";
  const sendAppeals = row.constant("send_appeals");
  const received = row.constant("pledge_received");
  const notes = row.text("notes");
  const attributes: Record<string, unknown> = {
    name: contactName(names),
    church_name: blankToNull(row.text("church")),
    greeting: blankToNull(row.text("greeting")),
    envelope_greeting: blankToNull(row.text("envelope_greeting")),
    status: row.constant("status"),
    pledge_amount: blankToNull(row.text("pledge_amount").replace(/,(?=\d{3}\b)/g, "")),
    pledge_frequency: row.constant("pledge_frequency"),
    pledge_currency: row.constant("pledge_currency"),
    send_newsletter: row.constant("newsletter"),
    likely_to_give: row.constant("likely_to_give"),
    // Appeals are sent only to those the file says yes for.
    no_appeals: !(sendAppeals === true || String(sendAppeals).toLowerCase() === "true"),
    website: blankToNull(row.text("website")),
    notes: blankToNull(notes),
  };
  if (received !== null) attributes.pledge_received = received === true || received === "Yes";
  const contact: DraftRecord = { def: contactResource, id: newId("contact"), attributes };

  const details = (owner: string, kind: "email" | "phone", values: string[]) =>
    values
      .filter(Boolean)
      .map((value, index): DraftRecord =>
        kind === "email"
          ? { def: emailAddressResource, id: newId(`${owner}-email-${index}`), attributes: { email: value, primary: index === 0 } }
          : { def: phoneNumberResource, id: newId(`${owner}-phone-${index}`), attributes: { number: value, primary: index === 0 } },
      );
  const people: DraftPerson[] = [
    {
      person: { def: personResource, id: newId("person"), attributes: { first_name: names.firstName, last_name: blankToNull(names.lastName) } },
      emails: details("person", "email", [row.text("email_1"), row.text("email_2")]),
      phones: details("person", "phone", [row.text("phone_1"), row.text("phone_2"), row.text("phone_3")]),
    },
  ];
  if (names.spouseFirstName) {
    people.push({
      person: { def: personResource, id: newId("spouse"), attributes: { first_name: names.spouseFirstName, last_name: blankToNull(names.spouseLastName) } },
      emails: details("spouse", "email", [row.text("spouse_email")]),
      phones: details("spouse", "phone", [row.text("spouse_phone")]),
    });
  }
  const street = row.text("street");
  const addresses: DraftRecord[] = street
    ? [
        {
          def: addressResource,
          id: newId("address"),
          attributes: {
            street,
            city: blankToNull(row.text("city")),
            state: blankToNull(row.text("state")),
            postal_code: blankToNull(row.text("zip")),
            country: blankToNull(row.text("country")),
            metro_area: blankToNull(row.text("metro_area")),
            region: blankToNull(row.text("region")),
            primary_mailing_address: true,
          },
        },
      ]
    : [];
  const problems: string[] = [];
  const tags = [row.text("tags"), rules.tagList].flatMap((list) => {
    const result = parseTagList(list);
    if (!result.ok) problems.push(`Tags ${result.message}`);
    return result.ok ? (result.value as string[]) : [];
  });
  return { contact, people, addresses, tags: [...new Set(tags)], referredBy: blankToNull(row.text("referred_by")) ?? undefined, problems };
}

/** Records of a draft in writing order: the contact, its people, their details, its addresses. */
export function draftRecords(draft: ContactDraft): DraftRecord[] {
  return [draft.contact, ...draft.people.flatMap((p) => [p.person, ...p.emails, ...p.phones]), ...draft.addresses];
}

/** "first_name" → "First name", as the original's validation messages name fields. */
const humanized = (attribute: string) => attribute.charAt(0).toUpperCase() + attribute.slice(1).replace(/_/g, " ");

/** What the attribute's column stores for a value its rule accepted. */
function stored(column: SQLiteColumn, value: unknown): unknown {
  return value === null || value === undefined ? null : column.mapToDriverValue(value);
}

/**
 * Each record's stored row (column name to stored value), checked by its resource's attribute rules; or the
 * failure message naming every refused value.
 */
export function checkedRows(draft: ContactDraft, ctx: RequestContext): { rows: Map<DraftRecord, Row> } | { failure: string } {
  const problems: string[] = [...draft.problems];
  const rows = new Map<DraftRecord, Row>();
  for (const record of draftRecords(draft)) {
    const row: Row = {};
    for (const [name, value] of Object.entries(record.attributes)) {
      const attribute = record.def.attributes[name];
      const rule = attribute?.write;
      if (!rule || !attribute.column) throw new Error(`${record.def.type}.${name} is not a stored, writable attribute`);
      if (value === null && !rule.required) {
        row[attribute.column.name] = null;
        continue;
      }
      const result = rule.parse(value, ctx);
      if (result.ok) row[attribute.column.name] = stored(attribute.column, result.value);
      else problems.push(`${humanized(name === "number" ? "phone" : name)} ${result.message}`);
    }
    rows.set(record, row);
  }
  if (!draft.contact.attributes.name) problems.push("Name can't be blank");
  if (problems.length > 0) return { failure: `Validation failed: ${problems.join(", ")}` };
  return { rows };
}
