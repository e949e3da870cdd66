/**
 * Every contact and task filter must be served by indexes: this records the SQL the app really runs for each
 * filter (through a recording D1 binding) and fails when SQLite's plan scans a large table from end to end.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { contactFilters } from "../src/resources/contacts/filters";
import { taskFilters } from "../src/resources/tasks/filters";
import { createViewer } from "./helpers/factories";
import { planOf, recordedGet, recordingEnv, type Recorded } from "./helpers/recording-db";

/** Tables that grow with a list's size; a full scan of one of them makes a request cost grow with every list. */
const LARGE_TABLES = [
  "contacts", "people", "addresses", "email_addresses", "phone_numbers", "facebook_accounts", "contact_tags",
  "contact_donor_accounts", "contact_referrals", "donations", "pledges", "pledge_donations", "appeal_contacts",
  "appeal_excluded_contacts", "tasks", "activity_contacts", "task_tags", "comments", "partner_status_logs",
  // Belongs to no list: it grows with every list of the deployment.
  "donor_accounts",
];
const FULL_SCAN = new RegExp(`^SCAN (${LARGE_TABLES.join("|")})(?: AS \\w+)?$`);

const SAMPLE_VALUES: Record<string, string> = {
  status: "Partner - Financial",
  contact_status: "Partner - Financial",
  donation_amount_range: "",
  donation_date: "01/01/2026 - 12/31/2026",
  task_due_date: "01/01/2026 - 12/31/2026",
  date_range: "overdue",
  pledge_late_by: "30_60",
  donation: "first",
  pledge: "outstanding",
  primary_address: "primary",
  contact_type: "person",
  newsletter: "email",
  contact_newsletter: "email",
  likely: "Likely",
  contact_likely: "Likely",
  pledge_frequency: "1.0",
  contact_pledge_frequency: "1.0",
  donation_amount: "10",
  pledge_amount: "10",
  referrer: "any",
  contact_referrer: "any",
  appeal: "no_appeals",
  contact_appeal: "no_appeals",
  appeal_status: "asked",
  related_task_action: "Call",
  activity_type: "Call",
};

function sampleQuery(name: string): string {
  if (name === "account_list_id") return `filter[account_list_id]=${listId}`;
  if (name === "donation_amount_range") return "filter[donation_amount_range][min]=1&filter[donation_amount_range][max]=100";
  if (name === "address_lat_lng") return "filter[address_lat_lng][ne][lat]=50&filter[address_lat_lng][ne][lng]=10&filter[address_lat_lng][sw][lat]=40&filter[address_lat_lng][sw][lng]=0";
  if (name === "notes") return "filter[notes][wildcard_note_search]=call";
  if (name === "appeal_status") return "filter[appeal]=no_appeals&filter[appeal_status]=asked";
  const value =
    SAMPLE_VALUES[name] ??
    (/(_at|_date|_range|^anniversary|^birthday|next_ask)$/.test(name) ? "2026-01-01..2026-12-31" : /^(any_tags|completed|overdue|starred|no_appeals|tasks_all_completed|address_historic|address_valid|pledge_received|status_valid)$/.test(name) ? "true" : /^contact_info_|^opt_out$/.test(name) ? "Yes" : "x");
  return `filter[${name}]=${encodeURIComponent(value)}`;
}

async function fullScans(path: string, token: string): Promise<{ status: number; scans: string[] }> {
  const { response, recorded } = await recordedGet(path, token);
  const scans: string[] = [];
  for (const statement of recorded) {
    if (!/^\s*select/i.test(statement.sql)) continue;
    for (const detail of await planOf(statement)) if (FULL_SCAN.test(detail)) scans.push(`${detail}  in  ${statement.sql.slice(0, 160)}`);
  }
  return { status: response.status, scans };
}

let token: string;
let listId: string;
beforeAll(async () => {
  const viewer = await createViewer();
  ({ token } = viewer);
  listId = viewer.list.id;
});

describe("query plans", () => {
  it.each(Object.keys(contactFilters))("contacts filter %s uses indexes", async (name) => {
    const { status, scans } = await fullScans(`/api/v2/contacts?${sampleQuery(name)}&include=people,addresses`, token);
    expect(status).toBe(200);
    expect(scans).toEqual([]);
  });

  it.each(Object.keys(taskFilters))("tasks filter %s uses indexes", async (name) => {
    const { status, scans } = await fullScans(`/api/v2/tasks?${sampleQuery(name)}`, token);
    expect(status).toBe(200);
    expect(scans).toEqual([]);
  });

  it.each(["/api/v2/contacts?sort=name", "/api/v2/tasks", "/api/v2/tasks?sort=-start_at nulls", "/api/v2/appeals", "/api/v2/account_lists"])(
    "%s uses indexes",
    async (path) => {
      const { status, scans } = await fullScans(path, token);
      expect(status).toBe(200);
      expect(scans).toEqual([]);
    },
  );

  it("reads a list's donor accounts from its contacts' links, never every donor account of the deployment", async () => {
    for (const query of ["", "?include=contacts,organization", "?filter[wildcard_search]=x", "?sort=-updated_at"]) {
      const { status, scans } = await fullScans(`/api/v2/account_lists/${listId}/donor_accounts${query}`, token);
      expect(status, query).toBe(200);
      expect(scans, query).toEqual([]);
    }
  });

  it("reads what every contact row of a page links to (people, tasks, addresses, last six gifts) from indexes alone", async () => {
    const { response, recorded } = await recordedGet("/api/v2/contacts", token);
    expect(response.status).toBe(200);
    const plan = await planOf(recorded.find((entry) => entry.sql.includes('"page_id"'))!);
    for (const index of ["people_contact_id_position_idx", "activity_contacts_contact_id_task_state_idx", "addresses_contact_id_idx", "donations_donor_account_id_donation_date_idx"]) {
      const uses = plan.filter((detail) => detail.includes(` INDEX ${index} `));
      expect(uses.length, index).toBeGreaterThan(0);
      expect(uses.filter((detail) => !detail.includes("COVERING INDEX")), index).toEqual([]);
    }
  });

  it("reads the viewer's lists and a page's kept total through their keys, never every list's rows of the deployment", async () => {
    const viewer = await createViewer();
    const { recorded } = await recordedGet("/api/v2/contacts", viewer.token);
    const planFor = async (pattern: RegExp) => {
      const statement = recorded.find((entry) => pattern.test(entry.sql));
      expect(statement, String(pattern)).toBeDefined();
      return (await planOf(statement!)).join(" | ");
    };
    expect(await planFor(/from "account_list_users"/i)).toMatch(/^SEARCH account_list_users USING COVERING INDEX account_list_users_user_id_account_list_id_idx \(user_id=\?\)$/);
    expect(await planFor(/from "account_list_coaches"/i)).toMatch(/^SEARCH account_list_coaches USING COVERING INDEX account_list_coaches_user_id_account_list_id_idx \(user_id=\?\)$/);
    expect(await planFor(/list_row_counts/)).toMatch(/SEARCH list_row_counts USING INDEX sqlite_autoindex_list_row_counts_1 \(table_name=\? AND account_list_id=\?\)/);
  });

  it("reads the panels and the home pages' summaries from kept rows and indexes, the tasks' contact options from an index alone", async () => {
    for (const path of ["/api/v2/contacts/filters", "/api/v2/tasks/filters", "/api/v2/contacts/analytics", "/api/v2/tasks/analytics", `/api/v2/account_lists/${listId}/analytics`]) {
      const { status, scans } = await fullScans(`${path}${path.includes("account_lists") ? "" : `?filter[account_list_id]=${listId}`}`, token);
      expect(status, path).toBe(200);
      expect(scans, path).toEqual([]);
    }
    const { recorded } = await recordedGet(`/api/v2/tasks/filters?filter[account_list_id]=${listId}`, token);
    const contactOptions = recorded.find((entry) => /"account_list_id" AS account_list_id FROM "contacts"/.test(entry.sql));
    expect(contactOptions).toBeDefined();
    // Walked a slice at a time from the last (name, id) before it: only ever a range of the index.
    const contactPlan = await planOf(contactOptions!);
    expect(contactPlan.filter((detail) => /\bcontacts\b/.test(detail))).toEqual(["SEARCH contacts USING COVERING INDEX contacts_account_list_id_name_idx (account_list_id=? AND (name,id)>(?,?))"]);
    // The week's people from the person_days index alone.
    const week = (await recordedGet(`/api/v2/contacts/analytics?filter[account_list_id]=${listId}`, token)).recorded.find((entry) => entry.sql.includes("person_days"));
    const plan = (await planOf(week!)).join(" | ");
    expect(plan).toContain("COVERING INDEX person_days_account_list_id_month_day_idx");
    expect(plan).not.toMatch(/\b(people|contacts)\b/);
  });

  it("notices a full scan when one happens", async () => {
    // The guard itself must be able to fail: a filter on an unindexed expression scans the table.
    const recorded: Recorded[] = [];
    const db = recordingEnv(recorded).DB;
    await db.prepare("SELECT id FROM contacts WHERE lower(notes) = ?").bind("x").all();
    expect((await planOf(recorded[0])).some((detail) => FULL_SCAN.test(detail))).toBe(true);
  });
});
