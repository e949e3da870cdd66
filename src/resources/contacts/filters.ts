/**
 * Every contact filter. Each one compiles to a condition on the `contacts` row of the enclosing statement
 * (columns written through q()), so appeals (inclusion and exclusion filters) and tasks (contact_* filters)
 * select contacts with exactly the same rules through `contactFilterCondition`.
 */
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { accountLists, contacts, contactTags } from "../../../drizzle/schema";
import { ACTIVE_STATUSES, HIDDEN_STATUSES } from "../../constants";
import { and, containsText, inList, or, q, startsWithText } from "../../db/sql";
import type { DefaultExclusion, FilterDef, RequestContext } from "../../engine/define";
import { accountListFilter, filterConditions } from "../../engine/filter-conditions";
import { tagFilters } from "../../engine/tags";
import { booleanValue, listValue, textValue } from "../../jsonapi/filter-values";
import { camelToSnake, isObject, type ParamValue } from "../../jsonapi/params";
import { addDays, todayIn } from "../../jsonapi/time";
import { isBlank } from "./contact-sql";
import { givingFilters } from "./giving-filters";
import { pledgeFrequencyKey } from "./pledge-frequency";
import { relatedFilters, splitNone } from "./related-filters";
import { wildcardSearch } from "./wildcard-search";
import { booleanFilter, rangeFilter } from "../../engine/filters";

/** Exact choices of a contact column; `none` also matches a blank value. */
function choiceFilter(column: SQLiteColumn): FilterDef {
  return (value) => {
    const { names, none } = splitNone(value);
    return or([names.length > 0 ? inList(q(column), names) : undefined, none ? isBlank(q(column)) : undefined]);
  };
}

function idsFilter(column: SQLiteColumn, negate = false): FilterDef {
  return (value) => {
    const ids = listValue(value).map((id) => id.toLowerCase());
    if (ids.length === 0) return undefined;
    const condition = inList(q(column), ids);
    return negate ? sql`NOT (${condition})` : condition;
  };
}

const status = q(contacts.status);

/** The statuses a status filter names, the pseudo values expanded: active (the nine active ones and blank), hidden (the five), null (blank). */
function statusChoices(value: ParamValue): { names: Set<string>; blank: boolean } {
  const names = new Set<string>();
  let blank = false;
  for (const choice of listValue(value)) {
    if (choice === "active") {
      ACTIVE_STATUSES.forEach((s) => names.add(s));
      blank = true;
    } else if (choice === "hidden") HIDDEN_STATUSES.forEach((s) => names.add(s));
    else if (choice === "null") blank = true;
    else names.add(choice);
  }
  return { names, blank };
}

const statusFilter: FilterDef = (value) => {
  const { names, blank } = statusChoices(value);
  if (names.size === 0 && !blank) return undefined;
  return or([names.size > 0 ? inList(status, [...names]) : undefined, blank ? isBlank(status) : undefined]);
};

/** The maintained-count buckets (see `maintainedCounts`) a status filter selects: its statuses, and '' for blank. */
export function statusBuckets(value: ParamValue): string[] {
  const { names, blank } = statusChoices(value);
  return [...names, ...(blank ? [""] : [])];
}

/** Without a status filter, the five hidden statuses are left out. */
export function hiddenStatusDefault(filters: Record<string, ParamValue>): DefaultExclusion | undefined {
  if (listValue(filters.status).length > 0) return undefined;
  return { column: contacts.status, values: HIDDEN_STATUSES };
}

/** The contact's own pledge currency, or its list's currency when it has none. */
export const effectivePledgeCurrency = sql`COALESCE(NULLIF(${q(contacts.pledgeCurrency)}, ''), (SELECT ${q(accountLists.currency)} FROM ${accountLists} WHERE ${q(accountLists.id)} = ${q(contacts.accountListId)}))`;

/**
 * Days late are counted from late_at to today in the viewer's time zone; buckets include their lower bound:
 * `0_30` is 0 to 29 days, `30_60` 30 to 59, `60_90` 60 to 89, `90` 90 and more. Only financial partners are late.
 */
const pledgeLateBy: FilterDef = (value, ctx) => {
  const buckets = listValue(value).map((choice) => /^(\d+)(?:_(\d+))?$/.exec(choice)).filter((m): m is RegExpExecArray => m !== null);
  if (buckets.length === 0) return undefined;
  const today = todayIn(ctx.viewer.timeZone);
  const lateAt = q(contacts.lateAt);
  return and([
    sql`${status} = 'Partner - Financial'`,
    sql`COALESCE(${lateAt}, '') <> ''`,
    or(
      buckets.map(([, min, max]) =>
        and([sql`${lateAt} <= ${addDays(today, -Number(min))}`, max === undefined ? undefined : sql`${lateAt} > ${addDays(today, -Number(max))}`]),
      ),
    ),
  ]);
};

const newsletterChoices: Record<string, SQL> = {
  all: sql`NOT ${isBlank(q(contacts.sendNewsletter))}`,
  no_value: isBlank(q(contacts.sendNewsletter)),
  none: sql`${q(contacts.sendNewsletter)} = 'None'`,
  address: inList(q(contacts.sendNewsletter), ["Physical", "Both"]),
  email: inList(q(contacts.sendNewsletter), ["Email", "Both"]),
  both: sql`${q(contacts.sendNewsletter)} = 'Both'`,
};

const columnFilters: Record<string, FilterDef> = {
  account_list_id: (value, ctx) => accountListFilter(q(contacts.accountListId), value, ctx),
  status: statusFilter,
  likely: choiceFilter(contacts.likelyToGive),
  church: choiceFilter(contacts.churchName),
  locale: choiceFilter(contacts.locale),
  source: choiceFilter(contacts.source),
  timezone: choiceFilter(contacts.timezone),
  ids: idsFilter(contacts.id),
  not_ids: idsFilter(contacts.id, true),
  user_ids: idsFilter(contacts.userId),
  created_at: rangeFilter("created_at", contacts.createdAt, "timestamp"),
  updated_at: rangeFilter("updated_at", contacts.updatedAt, "timestamp"),
  late_at: rangeFilter("late_at", contacts.lateAt, "date"),
  next_ask: rangeFilter("next_ask", contacts.nextAsk, "date"),
  pledge_received: booleanFilter(contacts.pledgeReceived),
  status_valid: booleanFilter(contacts.statusValid),
  /** true: only contacts who asked not to be in appeals; other values: no filter. */
  no_appeals: (value) => (booleanValue(value) === true ? sql`${q(contacts.noAppeals)} = 1` : undefined),
  /** true: starred; false: not starred. */
  starred: (value) => {
    const wanted = booleanValue(value);
    if (wanted === undefined) return undefined;
    return wanted ? sql`${q(contacts.starredAt)} IS NOT NULL` : sql`${q(contacts.starredAt)} IS NULL`;
  },
  /** person or company (both, or neither: no filter). */
  contact_type: (value) => {
    const types = new Set(listValue(value).map((t) => t.toLowerCase()));
    const person = types.has("person");
    const company = types.has("company");
    if (person === company) return undefined;
    return sql`${q(contacts.isOrganization)} = ${company ? 1 : 0}`;
  },
  newsletter: (value) => {
    const choices = listValue(value);
    if (choices.length === 0) return undefined;
    return or(choices.map((choice) => newsletterChoices[choice] ?? sql`0`));
  },
  /** The name starts with the text, whatever the case. */
  name_like: (value) => {
    const text = textValue(value);
    return text === "" ? undefined : startsWithText(q(contacts.name), text);
  },
  /** `{wildcard_note_search: text}` (or the text itself): the notes contain it. */
  notes: (value) => {
    const text = textValue(isObject(value) ? value.wildcard_note_search : value);
    return text === "" ? undefined : containsText(q(contacts.notes), text);
  },
  wildcard_search: wildcardSearch,
  /** Codes of the effective pledge currency (the list's currency for a contact without its own). */
  pledge_currency: (value) => {
    const codes = listValue(value).map((code) => code.toUpperCase());
    return codes.length === 0 ? undefined : inList(sql`upper(${effectivePledgeCurrency})`, codes);
  },
  /** Frequencies as numbers or keys ("1", "1.0", "0.23076923076923"); `none`/`null`: no frequency. */
  pledge_frequency: (value) => {
    const values = listValue(value);
    if (values.length === 0) return undefined;
    const keys = values.map((v) => pledgeFrequencyKey(v)).filter((k): k is NonNullable<typeof k> => k !== undefined);
    const blank = values.some((v) => v === "none" || v === "null");
    return or([keys.length > 0 ? inList(q(contacts.pledgeFrequency), keys) : undefined, blank ? isBlank(q(contacts.pledgeFrequency)) : undefined]) ?? sql`0`;
  },
  pledge_late_by: pledgeLateBy,
};

export const contactFilters: Record<string, FilterDef> = {
  ...columnFilters,
  ...givingFilters,
  ...relatedFilters,
  ...tagFilters({ table: contactTags, owner: contactTags.contactId, name: contactTags.name }, contacts.id),
};

export interface ContactFilterOptions {
  /** Leave out hidden statuses when the filter object has no status filter (true by default, as lists do). */
  hiddenStatusDefault?: boolean;
}

/**
 * A whole contact filter object (keys in snake_case or camelCase, `reverse_<name>` negations) as one condition on
 * the `contacts` row; undefined when it selects every contact.
 */
export async function contactFilterCondition(
  filters: Record<string, ParamValue>,
  ctx: RequestContext,
  options: ContactFilterOptions = {},
): Promise<SQL | undefined> {
  const normalized: Record<string, ParamValue> = {};
  for (const [key, value] of Object.entries(filters)) normalized[camelToSnake(key)] = value;
  const { conditions } = await filterConditions(
    {
      filters: contactFilters,
      reversibleFilters: true,
      defaultExclusion: options.hiddenStatusDefault === false ? undefined : hiddenStatusDefault,
    },
    ctx,
    normalized,
  );
  return and(conditions);
}
