/**
 * Duplicate pairs as the original answers them (`duplicate_record_pairs`): two contacts, or two people, of one list
 * that may be one. Found by the finder (finder.ts) when a client lists them; a client only marks a pair `ignore`
 * ("not a duplicate"), which keeps it from being offered again.
 */
import { sql } from "drizzle-orm";
import { duplicateRecordPairs } from "../../../drizzle/schema";
import { q } from "../../db/sql";
import { boolean, stored } from "../../engine/attributes";
import { defineResource, type FilterDef, type ResourceDef } from "../../engine/define";
import { belongsTo } from "../../engine/relationships";
import type { RelationshipDef } from "../../engine/define";
import { badRequest } from "../../jsonapi/errors";
import { textValue } from "../../jsonapi/filter-values";

/** The original's model name a pair's records have, and their JSON:API type. */
export const CONTACT_RECORDS = { model: "Contact", type: "contacts" } as const;
export const PERSON_RECORDS = { model: "Person", type: "people" } as const;
type Records = typeof CONTACT_RECORDS | typeof PERSON_RECORDS;

/** `filter[ignore]=true|false`. */
const ignore: FilterDef = (value) => {
  const text = textValue(value).trim().toLowerCase();
  if (text === "") return undefined;
  if (text !== "true" && text !== "false") throw badRequest("filter[ignore] takes true or false", { parameter: "filter[ignore]" });
  return sql`${q(duplicateRecordPairs.ignore)} = ${text === "true" ? 1 : 0}`;
};

/** The two records, the older first; a to-many the original includes as `include=records`. */
function records(kind: Records, other: Records): RelationshipDef {
  return {
    type: kind.type,
    // The description's one schema for the type names both kinds of record.
    alsoTypes: [other.type],
    kind: "many",
    select: () => sql`json_array(${q(duplicateRecordPairs.recordOneId)}, ${q(duplicateRecordPairs.recordTwoId)})`,
  };
}

function pairsOf(kind: Records, other: Records) {
  return {
    type: "duplicate_record_pairs",
    model: "DuplicateRecordPair",
    table: duplicateRecordPairs,
    accountListColumn: duplicateRecordPairs.accountListId,
    scope: () => sql`${q(duplicateRecordPairs.recordType)} = ${kind.model}`,
    // A pair of the other kind is not at this path.
    scopeHidesRows: true,
    attributes: {
      reason: stored(duplicateRecordPairs.reason),
      ignore: boolean(duplicateRecordPairs.ignore),
    },
    relationships: {
      account_list: belongsTo("account_lists", duplicateRecordPairs.accountListId),
      records: records(kind, other),
    },
    sorts: { created_at: duplicateRecordPairs.createdAt, updated_at: duplicateRecordPairs.updatedAt },
    filters: { ignore },
  };
}

export const contactPairResource = defineResource(pairsOf(CONTACT_RECORDS, PERSON_RECORDS));

/** The same type over pairs of people: served by the engine as declared, the description's schema is the contacts' (which names both). */
export const personPairResource: ResourceDef = { ...contactPairResource, ...pairsOf(PERSON_RECORDS, CONTACT_RECORDS), relationships: { ...contactPairResource.relationships, records: records(PERSON_RECORDS, CONTACT_RECORDS) } } as ResourceDef;
