/**
 * Task filters on the tasks' contacts: `contact_<x>=v` selects the tasks having at least one contact that the
 * contact list's own filter `<x>=v` selects, so both lists apply exactly the same rules.
 */
import { sql } from "drizzle-orm";
import { activityContacts, contacts, tasks } from "../../../drizzle/schema";
import { q } from "../../db/sql";
import type { FilterDef } from "../../engine/define";
import type { ParamValue } from "../../jsonapi/params";
import { contactFilters } from "../contacts/filters";

/** Task filter name -> contact filter name. */
const CONTACT_FILTER_NAMES: Record<string, string> = {
  contact_appeal: "appeal",
  contact_church: "church",
  contact_city: "city",
  contact_country: "country",
  contact_metro_area: "metro_area",
  contact_region: "region",
  contact_state: "state",
  contact_designation_account_id: "designation_account_id",
  contact_ids: "ids",
  contact_info_addr: "contact_info_addr",
  contact_info_email: "contact_info_email",
  contact_info_mobile: "contact_info_mobile",
  contact_info_phone: "contact_info_phone",
  contact_info_work_phone: "contact_info_work_phone",
  contact_likely: "likely",
  contact_newsletter: "newsletter",
  contact_pledge_frequency: "pledge_frequency",
  contact_referrer: "referrer",
  contact_status: "status",
  contact_timezone: "timezone",
  contact_type: "contact_type",
};

/** The task filter set as the contact filters name it, for filters that read their companions. */
function asContactFilters(all: Record<string, ParamValue>): Record<string, ParamValue> {
  const renamed: Record<string, ParamValue> = {};
  for (const [name, value] of Object.entries(all)) if (CONTACT_FILTER_NAMES[name]) renamed[CONTACT_FILTER_NAMES[name]] = value;
  return renamed;
}

const taskContacts = sql`SELECT ${q(activityContacts.contactId)} FROM ${activityContacts} WHERE ${q(activityContacts.taskId)} = ${q(tasks.id)}`;

function throughContacts(contactFilter: FilterDef): FilterDef {
  return async (value, ctx, all) => {
    const condition = await contactFilter(value, ctx, asContactFilters(all));
    return condition && sql`EXISTS (SELECT 1 FROM ${contacts} WHERE ${q(contacts.id)} IN (${taskContacts}) AND (${condition}))`;
  };
}

export const taskContactFilters: Record<string, FilterDef> = Object.fromEntries(
  Object.entries(CONTACT_FILTER_NAMES).map(([taskFilter, contactFilter]) => [taskFilter, throughContacts(contactFilters[contactFilter])]),
);
