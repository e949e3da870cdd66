/**
 * Choosing an appeal's contacts on create. `inclusion_filter` picks the candidates among the list's contacts
 * (all its filters must hold, as on the contact list); a candidate matching any `exclusion_filter` entry is not
 * asked but recorded as excluded, with the entries it matched as `reasons`. Without an inclusion filter no
 * contact is asked and every contact of the list is a candidate for exclusion. Both sets are written by
 * INSERT ... SELECT in the appeal's own batch, so the choice is atomic with the appeal and costs no round trip
 * per contact.
 */
import { sql, type SQL } from "drizzle-orm";
import { appealContacts, appealExcludedContacts, contacts } from "../../../drizzle/schema";
import { and, q, randomUuid } from "../../db/sql";
import type { BatchStatement, ParseResult, RequestContext, Row } from "../../engine/define";
import { ApiError, validationFailed } from "../../jsonapi/errors";
import { isBlankValue } from "../../jsonapi/filter-values";
import { camelToSnake, type ParamValue } from "../../jsonapi/params";
import { contactFilterCondition, contactFilters } from "../contacts/filters";

type ContactFilter = Record<string, ParamValue>;

/** Clients send numbers and booleans where the query string would carry text; filters read text. */
function asParamValue(value: unknown): ParamValue | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.map(asParamValue).filter((v): v is ParamValue => v !== undefined);
  if (typeof value === "object") return toContactFilter(value as Record<string, unknown>);
  return undefined;
}

function toContactFilter(object: Record<string, unknown>): ContactFilter {
  const filter: ContactFilter = {};
  for (const [key, value] of Object.entries(object)) {
    const converted = asParamValue(value);
    if (converted !== undefined) filter[camelToSnake(key)] = converted;
  }
  return filter;
}

/** The write rule of inclusion_filter / exclusion_filter: an object of contact filter names to values. */
export function parseContactFilter(value: unknown): ParseResult {
  if (value === null || value === undefined) return { ok: true, value: null };
  if (typeof value !== "object" || Array.isArray(value)) return { ok: false, message: "must be an object" };
  return { ok: true, value: toContactFilter(value as Record<string, unknown>) };
}

/** A filter's own errors (bad date range, unknown choice) point at the appeal attribute that carried it. */
async function withPointer<T>(attribute: string, build: () => T | Promise<T>): Promise<T> {
  try {
    return await build();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 400) throw error;
    throw validationFailed(error.errors.map((e) => ({ attribute, message: e.detail ?? e.title, pointer: `/data/attributes/${attribute}` })));
  }
}

/** `json_array` of the names of the exclusion entries the contact matches, NULLs dropped: the contact's reasons. */
async function exclusionReasons(exclusion: ContactFilter, ctx: RequestContext): Promise<SQL | undefined> {
  const cases: SQL[] = [];
  for (const [name, value] of Object.entries(exclusion)) {
    const filter = contactFilters[name];
    // As in lists (filterConditions), a blank entry is no filter.
    if (!filter || isBlankValue(value)) continue;
    const condition = await withPointer("exclusion_filter", () => filter(value, ctx, exclusion));
    if (condition) cases.push(sql`CASE WHEN COALESCE((${condition}), 0) THEN ${name} END`);
  }
  if (cases.length === 0) return undefined;
  return sql`(SELECT json_group_array(value) FROM json_each(json_array(${sql.join(cases, sql`, `)})) WHERE value IS NOT NULL)`;
}

export async function contactSelectionWrites(appealId: string, changes: Row, ctx: RequestContext): Promise<BatchStatement[]> {
  const inclusion = changes.inclusion_filter as ContactFilter | null | undefined;
  const exclusion = (changes.exclusion_filter as ContactFilter | null | undefined) ?? {};
  // Without an inclusion filter nobody is asked, but the exclusion filter still records the list's contacts it matches:
  // a client that only excludes means those contacts to be kept out of the appeal.
  const candidates = and([
    sql`${q(contacts.accountListId)} = ${String(changes.account_list)}`,
    inclusion ? await withPointer("inclusion_filter", () => contactFilterCondition(inclusion, ctx)) : undefined,
  ])!;
  const reasons = await exclusionReasons(exclusion, ctx);
  const now = ctx.now;
  const statements: unknown[] = [];
  if (reasons) {
    statements.push(
      ctx.db.insert(appealExcludedContacts).select(sql`SELECT ${randomUuid()}, ${appealId}, contact_id, reasons, ${now}, ${now}
        FROM (SELECT ${q(contacts.id)} AS contact_id, ${reasons} AS reasons FROM ${contacts} WHERE ${candidates})
        WHERE reasons <> '[]'`),
    );
  }
  if (inclusion) {
    // Insert-selects list every column in table order. Excluded contacts were written first, so "not excluded" is a lookup rather than the conditions again.
    statements.push(
      ctx.db.insert(appealContacts).select(sql`SELECT ${randomUuid()}, ${appealId}, ${q(contacts.id)}, ${now}, ${now} FROM ${contacts}
        WHERE ${candidates} AND NOT EXISTS (SELECT 1 FROM ${appealExcludedContacts}
          WHERE ${q(appealExcludedContacts.appealId)} = ${appealId} AND ${q(appealExcludedContacts.contactId)} = ${q(contacts.id)})`),
    );
  }
  return statements as BatchStatement[];
}
