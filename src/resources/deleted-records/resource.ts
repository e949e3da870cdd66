import { sql } from "drizzle-orm";
import { deletedRecords } from "../../../drizzle/schema";
import { inList, q, timestampInRange } from "../../db/sql";
import { string, timestamp } from "../../engine/attributes";
import { defineResource, type FilterDef } from "../../engine/define";
import { belongsTo } from "../../engine/relationships";
import { badRequest } from "../../jsonapi/errors";
import { dateRangeError, listValue, parseDateRange, textValue } from "../../jsonapi/filter-values";
import { addDays, parseTimestamp } from "../../jsonapi/time";

/** The types `filter[types]` takes, each with the stored type it names: a task is stored as `Activity`, its original name. */
const DELETABLE_TYPES: Record<string, string> = { Contact: "Contact", Task: "Activity", Activity: "Activity", Donation: "Donation" };

/**
 * `filter[since_date]`: a range, or a single instant meaning from then until a day after now (the Android app
 * sends the instant it last synced, and a deletion in the meantime must not fall outside).
 */
const sinceDate: FilterDef = (value, ctx) => {
  const text = textValue(value).trim();
  if (text.includes("..")) return timestampInRange(q(deletedRecords.deletedAt), parseDateRange("since_date", text));
  const from = parseTimestamp(text);
  if (!from) throw dateRangeError("since_date");
  const until = parseTimestamp(addDays(ctx.now.slice(0, 10), 1) + ctx.now.slice(10))!;
  return sql`${q(deletedRecords.deletedAt)} >= ${from} AND ${q(deletedRecords.deletedAt)} < ${until}`;
};

/** `filter[types]=Contact,Task`: the kinds of record, by the original's model names. */
const types: FilterDef = (value) => {
  const named = listValue(value);
  const unknown = named.filter((type) => !Object.hasOwn(DELETABLE_TYPES, type));
  if (unknown.length > 0) {
    throw badRequest(`filter[types] takes ${Object.keys(DELETABLE_TYPES).join(", ")}; not ${unknown.join(", ")}`, { parameter: "filter[types]" });
  }
  return named.length > 0 ? inList(q(deletedRecords.deletableType), [...new Set(named.map((type) => DELETABLE_TYPES[type]))]) : undefined;
};

/** What offline clients learn deletions from (drizzle/deleted-records.ts): read-only, written by the deletes themselves. */
export const deletedRecordResource = defineResource({
  type: "deleted_records",
  model: "DeletedRecord",
  table: deletedRecords,
  accountListColumn: deletedRecords.accountListId,
  attributes: {
    deletable_id: string(deletedRecords.deletableId),
    deletable_type: string(deletedRecords.deletableType),
    deleted_at: timestamp(deletedRecords.deletedAt),
    deleted_from_id: string(deletedRecords.deletedFromId),
    deleted_from_type: string(deletedRecords.deletedFromType),
  },
  relationships: {
    // The list, or a donation's designation account: the identifier names which.
    deleted_from: {
      type: "account_lists",
      alsoTypes: ["designation_accounts"],
      kind: "one",
      identifierMembers: true,
      select: () =>
        sql`json_object('id', ${q(deletedRecords.deletedFromId)}, 'type', CASE ${q(deletedRecords.deletedFromType)} WHEN 'DesignationAccount' THEN 'designation_accounts' ELSE 'account_lists' END)`,
    },
    deleted_by: belongsTo("users", deletedRecords.deletedById),
  },
  sorts: { created_at: deletedRecords.createdAt, updated_at: deletedRecords.updatedAt },
  filters: { since_date: sinceDate, types },
});
