/**
 * The sample contacts of an import: its first rows (at most four) built as contacts under the current mappings,
 * never stored, answered as the import's `sample_contacts` and, when asked for, included with their addresses,
 * people and those people's e-mail addresses and phone numbers. Their ids are derived from the import's id and
 * the row, so reading the same import twice answers the same document.
 */
import { derivedId } from "../../db/derived-ids";
import type { RequestContext, ResourceDef } from "../../engine/define";
import type { Identifier, ResourceObject } from "../../jsonapi/document";
import { draftContact, type ContactDraft, type DraftRecord, type ImportRules } from "./row-contact";

export function sampleDrafts(importId: string, sampleRows: string[][], rules: ImportRules): ContactDraft[] {
  return sampleRows.map((cells, index) => draftContact(cells, rules, (part) => derivedId("sample-contact", importId, index, part)));
}

const identifier = (record: DraftRecord | ResourceObject): Identifier => ({ type: "def" in record ? record.def.type : record.type, id: record.id });

/** A record's attributes as the API answers them: what it holds, else its columns' defaults. */
function attributesOf(record: DraftRecord, ctx: RequestContext): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const [name, attribute] of Object.entries(record.def.attributes) as Array<[string, ResourceDef["attributes"][string]]>) {
    const column = attribute.column;
    if (!column || attribute.default === false) continue;
    if (name === "created_at" || name === "updated_at" || name === "updated_in_db_at") {
      attributes[name] = ctx.now;
      continue;
    }
    let value: unknown = column.hasDefault && typeof column.default !== "object" ? column.default : null;
    if (name in record.attributes && record.attributes[name] !== null) {
      const result = attribute.write?.parse(record.attributes[name], ctx);
      value = result?.ok ? result.value : record.attributes[name];
      if (value !== null && value !== undefined) value = column.mapFromDriverValue(column.mapToDriverValue(value));
    }
    attributes[name] = value ?? null;
  }
  return attributes;
}

/** A sample contact and its records as resource objects: the contact first. */
export function sampleResources(draft: ContactDraft, ctx: RequestContext): { contact: ResourceObject; related: Map<string, ResourceObject> } {
  const related = new Map<string, ResourceObject>();
  const add = (record: DraftRecord, relationships: ResourceObject["relationships"] = {}, extra: Record<string, unknown> = {}) => {
    const object: ResourceObject = { ...identifier(record), attributes: { ...attributesOf(record, ctx), ...extra }, relationships };
    related.set(`${record.def.type}/${record.id}`, object);
    return object;
  };
  const people = draft.people.map((person) =>
    add(person.person, {
      email_addresses: { data: person.emails.map((email) => identifier(add(email))) },
      phone_numbers: { data: person.phones.map((phone) => identifier(add(phone))) },
    }),
  );
  const addresses = draft.addresses.map((address) => add(address));
  const contact: ResourceObject = {
    ...identifier(draft.contact),
    attributes: { ...attributesOf(draft.contact, ctx), tag_list: draft.tags },
    relationships: {
      addresses: { data: addresses.map(identifier) },
      people: { data: people.map(identifier) },
      primary_person: { data: people[0] ? identifier(people[0]) : null },
      spouse: { data: people[1] ? identifier(people[1]) : null },
    },
  };
  return { contact, related };
}

/** The related records an include path reaches from a sample contact (`primary_person.email_addresses`, ...). */
export function includedSamples(contacts: ResourceObject[], related: Map<string, ResourceObject>, paths: string[][]): ResourceObject[] {
  const found = new Map<string, ResourceObject>();
  for (const path of paths) {
    let frontier: ResourceObject[] = contacts;
    for (const step of path) {
      const next: ResourceObject[] = [];
      for (const object of frontier) {
        const data = object.relationships?.[step]?.data;
        for (const target of Array.isArray(data) ? data : data ? [data] : []) {
          const record = related.get(`${target.type}/${target.id}`);
          if (record) next.push(record);
        }
      }
      next.forEach((record) => found.set(`${record.type}/${record.id}`, record));
      frontier = next;
    }
  }
  return [...found.values()];
}
