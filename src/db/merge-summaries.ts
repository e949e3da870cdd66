/**
 * A summary from the parts several databases answered (src/read/summaries.ts): the home pages' analytics and the filter
 * panels, each part over the viewer's lists placed on its database, put together as one database answers over
 * all of them. Counts add up; a list of options, or a to-many linkage, is every part's entries once each in the
 * order their reported keys give (src/db/list-parts.ts `SummaryOrders`).
 */
import type { ResourceObject } from "../jsonapi/document";
import type { SummaryOrders } from "./list-parts";
import { compareKeys, compareValues } from "./sqlite-order";

export interface SummaryAnswer {
  document: { data: unknown; included?: ResourceObject[]; [member: string]: unknown };
  orders: SummaryOrders;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Values of the same attribute from each part: numbers add up; objects and arrays of the same shape merge member by
 * member (a count by label, say); other values are the same in every part (a period's bounds) or, where they differ,
 * the latest (a date or timestamp), a null giving way to any value.
 */
export function mergeValues(values: unknown[]): unknown {
  const present = values.filter((value) => value !== null && value !== undefined);
  if (present.length === 0) return values[0] ?? null;
  if (present.every((value) => typeof value === "number")) return (present as number[]).reduce((sum, value) => sum + value, 0);
  if (present.every(isObject)) {
    const keys = [...new Set(present.flatMap((value) => Object.keys(value)))];
    return Object.fromEntries(keys.map((key) => [key, mergeValues(present.map((value) => value[key]))]));
  }
  if (present.every(Array.isArray) && present.every((value) => value.length === present[0].length)) {
    return present[0].map((_, index) => mergeValues(present.map((value) => value[index])));
  }
  return present.reduce((latest, value) => (compareValues(value, latest) > 0 ? value : latest));
}

type Linkage = { type: string; id: string };
const keyOf = (object: Linkage) => `${object.type}\u0000${object.id}`;

/** Entries of several parts once each, those a part reported a key for after the others, in the keys' order. */
function ordered<T>(lists: Array<{ entries: T[]; order?: Map<string, unknown[]> }>, idOf: (entry: T) => string, identity: (entry: T) => string): T[] {
  const fixed: T[] = [];
  const keyed: Array<{ entry: T; key: unknown[] }> = [];
  const seen = new Set<string>();
  for (const { entries, order } of lists) {
    for (const entry of entries) {
      if (seen.has(identity(entry))) continue;
      seen.add(identity(entry));
      const key = order?.get(idOf(entry));
      if (key) keyed.push({ entry, key });
      else fixed.push(entry);
    }
  }
  return [...fixed, ...keyed.sort((a, b) => compareKeys(a.key, b.key)).map(({ entry }) => entry)];
}

/** Included resources of the parts, each once. */
function includedOnce(parts: SummaryAnswer[]): ResourceObject[] | undefined {
  if (!parts.some((part) => part.document.included)) return undefined;
  const seen = new Set<string>();
  return parts.flatMap((part) => part.document.included ?? []).filter((object) => !seen.has(keyOf(object)) && seen.add(keyOf(object)) !== undefined);
}

const OWN_TIMESTAMPS = ["created_at", "updated_at", "updated_in_db_at"];

/**
 * A summary resource (`{ data: resource }`) from the parts: the first part's (the database of the viewer's first
 * list, whose id it bears) with every attribute merged and every to-many relationship put together in order.
 */
export function mergeSummaryResources(parts: SummaryAnswer[]): SummaryAnswer["document"] {
  const resources = parts.map((part) => part.document.data as ResourceObject);
  const [first] = resources;
  const merged = first.attributes ? (mergeValues(resources.map((resource) => resource.attributes ?? {})) as Record<string, unknown>) : undefined;
  // The summary's own timestamps are its first list's, as its id is.
  const attributes = merged && { ...merged, ...Object.fromEntries(OWN_TIMESTAMPS.filter((name) => name in first.attributes!).map((name) => [name, first.attributes![name]])) };
  const relationships = first.relationships
    ? Object.fromEntries(
        Object.entries(first.relationships).map(([name, relationship]) => {
          const linkages = resources.map((resource) => resource.relationships?.[name]?.data);
          if (!Array.isArray(relationship.data)) return [name, relationship];
          const data = ordered(
            linkages.map((linkage, index) => ({ entries: (linkage ?? []) as Linkage[], order: parts[index].orders[name] })),
            (entry) => entry.id,
            keyOf,
          );
          return [name, { ...relationship, data }];
        }),
      )
    : undefined;
  const included = includedOnce(parts);
  return {
    ...parts[0].document,
    data: { ...first, ...(attributes ? { attributes } : {}), ...(relationships ? { relationships } : {}) },
    ...(included ? { included } : {}),
  };
}

type PanelItem = { type: string; id: string; attributes: { name: string; options?: Array<{ id: string }>; [member: string]: unknown } };

/**
 * A filter panel (`{ data: items }`) from the parts: every item any part answered (a choice left out where a
 * database has nothing to offer), its options once each, the panel's own first and then those read from the data
 * in their order, the items in the panel's order (by name).
 */
export function mergePanels(parts: SummaryAnswer[]): SummaryAnswer["document"] {
  const byName = new Map<string, PanelItem[]>();
  parts.forEach((part) => {
    for (const item of part.document.data as PanelItem[]) byName.set(item.attributes.name, [...(byName.get(item.attributes.name) ?? []), item]);
  });
  const items = [...byName.values()].map((answers) => {
    const [item] = answers;
    if (!item.attributes.options) return item;
    const options = ordered(
      parts.flatMap((part) => {
        const answered = (part.document.data as PanelItem[]).find((candidate) => candidate.attributes.name === item.attributes.name);
        return answered ? [{ entries: answered.attributes.options ?? [], order: part.orders[item.attributes.name] }] : [];
      }),
      (option) => option.id,
      (option) => option.id,
    );
    return { ...item, attributes: { ...item.attributes, options } };
  });
  return { ...parts[0].document, data: items.sort((a, b) => a.attributes.name.localeCompare(b.attributes.name)) };
}
