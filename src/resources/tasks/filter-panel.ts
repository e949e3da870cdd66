/**
 * The tasks' filter panel (`GET /api/v2/tasks/filters`): the original's task filters, most of them a contact
 * filter applied to the tasks' contacts (`contact_<name>`), drawn as the contacts' panel draws it.
 */
import { sql } from "drizzle-orm";
import { contactNameStamps, contacts } from "../../../drizzle/schema";
import { ACTIVITIES } from "../../constants";
import { q } from "../../db/sql";
import type { PanelFilter } from "../../read/filter-panels";
import { CONTACT_PANEL } from "../contacts/filter-panel";

/** A contact filter of the contacts' panel under the task filter's name; its default is the task list's (none). */
function throughContacts(taskFilter: string, contactFilter = taskFilter.replace(/^contact_/, "")): PanelFilter {
  const filter = CONTACT_PANEL.find((candidate) => candidate.name === contactFilter);
  if (!filter) throw new Error(`no contact filter ${contactFilter} for ${taskFilter}`);
  return { ...filter, name: taskFilter, defaultSelection: undefined, noAnyOption: undefined };
}

export const TASK_PANEL: PanelFilter[] = [
  {
    name: "activity_type",
    title: "Action",
    type: "multiselect",
    options: [{ name: "-- None --", id: "none" }, ...ACTIVITIES.map((activity) => ({ name: activity, id: activity }))],
  },
  {
    name: "contact_ids",
    title: "Contacts",
    type: "multiselect",
    read: (list) => sql`SELECT ${q(contacts.id)} AS id, ${q(contacts.name)} AS name, ${q(contacts.accountListId)} AS account_list_id FROM ${contacts} WHERE ${q(contacts.accountListId)} = ${list} ORDER BY ${q(contacts.name)}, ${q(contacts.id)}`,
    manyOptions: ["id", "name", "account_list_id"],
    optionsStamp: (list) => sql`SELECT ${q(contactNameStamps.stamp)} AS stamp FROM ${contactNameStamps} WHERE ${q(contactNameStamps.accountListId)} = ${list}`,
  },
  throughContacts("contact_church"),
  throughContacts("contact_city"),
  throughContacts("contact_country"),
  throughContacts("contact_info_addr", "contact_info_addr"),
  throughContacts("contact_info_email", "contact_info_email"),
  throughContacts("contact_info_mobile", "contact_info_mobile"),
  throughContacts("contact_info_phone", "contact_info_phone"),
  throughContacts("contact_info_work_phone", "contact_info_work_phone"),
  throughContacts("contact_likely"),
  throughContacts("contact_metro_area"),
  throughContacts("contact_newsletter"),
  throughContacts("contact_pledge_frequency"),
  throughContacts("contact_referrer"),
  throughContacts("contact_region"),
  throughContacts("contact_state"),
  throughContacts("contact_status"),
  throughContacts("contact_timezone"),
  throughContacts("contact_type", "contact_type"),
  throughContacts("contact_designation_account_id"),
];
