/** The requests the benchmark measures, and the checks that are timed rather than loaded. */
import { randomUUID } from "node:crypto";
import { benchIds } from "./dataset";
import { median, probe, type Probe, type Request } from "./load";

export interface Target {
  api: string;
  baseline: string;
  token: string;
}

export interface Scenario {
  name: string;
  request: Request;
  /** Requests of the service answered in one HTTP request (the batch endpoint). */
  items?: number;
  /** A ratio of the baseline the scenario must reach. */
  minRatio?: number;
  /** D1 rows one request may read, at every size (what D1 bills). */
  maxRowsRead?: number;
  /**
   * Rows of its answer the request may read besides `maxRowsRead`, one each, where the answer is itself the list's
   * rows (the tasks' panel answers every contact of the list as an option): what they are, and how many it answered.
   */
  answered?: { what: string; count: (body: string) => number };
  /**
   * A report's bound (the issue of the reports): `maxRowsRead`, or twice the rows its answer shows where that is
   * more. What the rows are, and how many the answer showed.
   */
  shownTwice?: { what: string; count: (body: string) => number };
  /** What the answer lists besides (options read from the data, people and contacts): shown beside the rows read. */
  shows?: { what: string; count: (body: string) => number };
  /**
   * What the first request does that the next ones do not (a look kept until its inputs change): the request is
   * asked once before it is measured, and that first one's rows read are shown beside.
   */
  firstAsked?: string;
}

const JSONAPI = "application/vnd.api+json";

const isoDate = (daysFromToday: number) => new Date(Date.now() + daysFromToday * 86_400_000).toISOString().slice(0, 10);

export const HEAVY = "contacts: heavy filter set";
/** The same filter set answered by the baseline's one hand-written statement. */
export const HEAVY_BASELINE = "baseline: heavy filter set, one hand-written statement";

/** The realistic heavy filter set: status, tags matched with any_tags, a city, a donation date range, a search. */
export function heavyContactFilters(): Record<string, string> {
  return {
    status: "Partner - Financial,Partner - Special",
    tags: "prayer,monthly",
    any_tags: "true",
    city: "Springfield",
    donation_date: `${isoDate(-365)}..${isoDate(0)}`,
    wildcard_search: "son",
  };
}

export function query(params: Record<string, string | number>): string {
  return Object.entries(params)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join("&");
}

const filterParams = (filters: Record<string, string>) => Object.fromEntries(Object.entries(filters).map(([k, v]) => [`filter[${k}]`, v]));

export function apiGet(target: Target, path: string): Request {
  return { url: `${target.api}${path}`, headers: { Authorization: `Bearer ${target.token}`, Accept: JSONAPI } };
}

function apiPost(target: Target, path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return {
    method: "POST",
    url: `${target.api}${path}`,
    headers: { Authorization: `Bearer ${target.token}`, Accept: JSONAPI, "Content-Type": JSONAPI, ...headers },
    body: JSON.stringify(body),
  };
}

/** Paths of `count` of the sampled contacts (visible to the viewer, spread over their lists). */
export function contactPaths(contactIds: string[], count: number, query = ""): string[] {
  if (contactIds.length < count) throw new Error(`only ${contactIds.length} sample contacts, ${count} needed`);
  return contactIds.slice(0, count).map((id) => `/api/v2/contacts/${id}${query}`);
}

/**
 * Items of the batch and background-batch checks: a contact with a sparse fieldset, so that the checks measure
 * the batching machinery (dispatch, authentication, bookkeeping) rather than the contact's computed fields,
 * which the "one contact" scenario measures.
 */
export const BATCH_ITEM_QUERY = "?fields[contacts]=name,status,pledge_amount,pledge_frequency,send_newsletter";

export function batchBody(paths: string[]) {
  return { requests: paths.map((path) => ({ method: "GET", path })) };
}

type PanelBody = { data?: Array<{ attributes: { name: string; options?: Array<{ id: string }> } }> };
/** The panel's own options, not read from the data. */
const FIXED_OPTIONS = new Set(["", "none", "any", "no_appeals"]);

/** The options a panel read from the list's data (every item's, less its own). */
function dataOptions(body: string): number {
  const items = (JSON.parse(body) as PanelBody).data ?? [];
  const fixed = ["status", "pledge_frequency", "pledge_late_by", "newsletter", "likely", "contact_type", "primary_address", "donation", "donation_amount_range", "donation_date", "task_due_date", "notes", "pledge_received"];
  return items.filter((item) => !fixed.includes(item.attributes.name) && !item.attributes.name.startsWith("contact_info")).flatMap((item) => item.attributes.options ?? []).filter((option) => !FIXED_OPTIONS.has(option.id)).length;
}

/** The people and contacts of a contacts' analytics answer (this week's birthdays and anniversaries). */
function weekDays(body: string): number {
  const relationships = (JSON.parse(body) as { data?: { relationships?: Record<string, { data?: unknown[] }> } }).data?.relationships ?? {};
  return Object.values(relationships).reduce((sum, relationship) => sum + (relationship.data?.length ?? 0), 0);
}

/** The contact options of a tasks' panel answer (its `contact_ids` item, less `-- Any --`). */
function contactOptions(body: string): number {
  const items = (JSON.parse(body) as { data?: Array<{ attributes: { name: string; options?: Array<{ id: string }> } }> }).data ?? [];
  return (items.find((item) => item.attributes.name === "contact_ids")?.attributes.options ?? []).filter((option) => option.id !== "").length;
}

export function scenarios(target: Target, contactIds: string[]): Scenario[] {
  const list1 = benchIds.lists[0];
  const batchPaths = contactPaths(contactIds, 50, BATCH_ITEM_QUERY);
  return [
    { name: "baseline: bare constant route", request: { url: `${target.baseline}/bare` } },
    { name: "baseline: contacts page, one hand-written statement", request: { url: `${target.baseline}/contacts?lists=${benchIds.viewerLists.join(",")}` } },
    {
      name: HEAVY_BASELINE,
      request: { url: `${target.baseline}/contacts/filtered?${query({ lists: benchIds.viewerLists.join(","), ...heavyContactFilters() })}` },
    },
    { name: "constants", request: apiGet(target, "/api/v2/constants") },
    { name: "contacts: default page", request: apiGet(target, "/api/v2/contacts"), minRatio: 0.7, maxRowsRead: 1000 },
    { name: HEAVY, request: apiGet(target, `/api/v2/contacts?${query(filterParams(heavyContactFilters()))}`), minRatio: 0.5 },
    { name: "contacts: include=people,addresses", request: apiGet(target, "/api/v2/contacts?include=people,addresses") },
    { name: "contacts: one contact", request: apiGet(target, contactPaths(contactIds, 1)[0]) },
    { name: "tasks: default order", request: apiGet(target, "/api/v2/tasks"), maxRowsRead: 1000 },
    { name: "tasks: date_range=overdue", request: apiGet(target, "/api/v2/tasks?filter[date_range]=overdue"), maxRowsRead: 2000 },
    { name: "appeals: list", request: apiGet(target, "/api/v2/appeals") },
    { name: "account list: show (computed fields)", request: apiGet(target, `/api/v2/account_lists/${list1}`), maxRowsRead: 100 },
    // The clients' home pages and offline sync: each reads in proportion to its answer, not to the list.
    { name: "home: tasks analytics", request: apiGet(target, `/api/v2/tasks/analytics?filter[account_list_id]=${list1}`), maxRowsRead: 2000 },
    {
      name: "home: contacts analytics (the web app's POST)",
      request: apiPost(target, "/api/v2/contacts/analytics", { filter: { account_list_id: list1 }, data: { type: "analytics" } }, { "X-HTTP-Method-Override": "GET" }),
      maxRowsRead: 2000,
      shows: { what: "birthdays and anniversaries", count: weekDays },
    },
    {
      name: "home: contacts filter panel",
      request: apiGet(target, `/api/v2/contacts/filters?filter[account_list_id]=${list1}`),
      maxRowsRead: 2000,
      // Its options from the data (referrers, gift amounts, ...) are a kept row or an index step each.
      answered: { what: "option read from the data", count: dataOptions },
    },
    {
      name: "home: tasks filter panel",
      request: apiGet(target, `/api/v2/tasks/filters?filter[account_list_id]=${list1}`),
      maxRowsRead: 2000,
      // Its contact_ids options are every contact of the list, with name and id, as the original answers them.
      answered: { what: "contact option answered", count: contactOptions },
    },
    { name: "home: account list analytics", request: apiGet(target, `/api/v2/account_lists/${list1}/analytics`), maxRowsRead: 2000 },
    {
      name: "home: deleted records (the Android app's sync)",
      request: apiGet(target, `/api/v2/deleted_records?${query({ "filter[types]": "Contact", "filter[since_date]": `${isoDate(-30)}T00:00:00Z`, per_page: 500 })}`),
      maxRowsRead: 2000,
    },
    { name: "batch: 50 GET contacts (sparse fields)", request: apiPost(target, "/api/v2/batch", batchBody(batchPaths)), items: 50 },
    ...reportScenarios(target),
  ];
}

/** The gifts and partners a donation report lists: it may read two rows a gift (the gift and its contact) and one a partner. */
function listedGifts(body: string): number {
  const attributes = (JSON.parse(body) as { data?: { attributes?: { donor_infos?: unknown[]; donation_infos?: unknown[]; currency_groups?: Record<string, { donation_infos: Array<{ months: Array<{ donations: unknown[] }> }> }> } } }).data?.attributes ?? {};
  const grouped = Object.values(attributes.currency_groups ?? {}).flatMap((group) => group.donation_infos.flatMap((info) => info.months.flatMap((month) => month.donations)));
  return grouped.length + (attributes.donation_infos?.length ?? 0) + (attributes.donor_infos?.length ?? 0);
}

/** The rows of an expected monthly totals answer. */
function expectedRows(body: string): number {
  return (JSON.parse(body) as { data?: { attributes?: { expected_donations?: unknown[] } } }).data?.attributes?.expected_donations?.length ?? 0;
}

/** The reports (src/resources/reports/), each as its client asks for list 1: kept sums, or rows in proportion to the answer. */
function reportScenarios(target: Target): Scenario[] {
  const list = benchIds.lists[0];
  const report = (name: string, path: string, extra: Partial<Scenario> = {}): Scenario => ({
    name: `reports: ${name}`,
    request: apiGet(target, `/api/v2/reports/${path}${path.includes("?") ? "&" : "?"}filter[account_list_id]=${list}`),
    maxRowsRead: 2000,
    ...extra,
  });
  const endOfMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
  const firstOfMonth = (back: number) => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - back, 1)).toISOString().slice(0, 10);
  return [
    report("goal progress", "goal_progress"),
    report("monthly giving graph (13 months)", `monthly_giving_graph?filter[donation_date]=${firstOfMonth(12)}..${endOfMonth}`),
    report("14-month report, salary currency", `salary_currency_donations?filter[month_range]=${firstOfMonth(13)}...${endOfMonth}`, { shownTwice: { what: "gift or partner listed", count: listedGifts } }),
    report("14-month report, donor currency", "donor_currency_donations", { shownTwice: { what: "gift or partner listed", count: listedGifts } }),
    report("expected monthly totals", "expected_monthly_totals", { shownTwice: { what: "row answered", count: expectedRows } }),
    {
      name: "reports: partner giving analysis (mpdx-react's POST)",
      request: apiPost(
        target,
        "/api/v2/reports/partner_giving_analysis",
        { data: { type: "partner_giving_analysis" }, filter: { account_list_id: list, any_tags: false }, page: 1, per_page: 10, sort: "-donation_period_sum" },
        { "X-HTTP-Method-Override": "GET" },
      ),
      maxRowsRead: 2000,
    },
    report("appointment results (4 weeks)", "appointment_results?filter[range]=4w"),
    report("pledge histories (13 months)", "pledge_histories"),
    report("activity results (4 weeks)", "activity_results"),
    report("donation monthly totals (a year)", `donation_monthly_totals?filter[month_range]=${firstOfMonth(11)}..${endOfMonth}`),
    report("year donations", "year_donations", { shownTwice: { what: "gift or partner listed", count: listedGifts } }),
    { ...report("monthly losses graph", ""), request: apiGet(target, `/api/v2/reports/monthly_losses_graphs/${list}`) },
    // The web app's Tools menu counts what its fix-up and merge pages list, on every page it opens.
    {
      name: "tools: analytics (the Tools menu's counts)",
      request: apiGet(target, `/api/v2/tools/analytics?filter[account_list_id]=${list}`),
      maxRowsRead: 2000,
      firstAsked: "looks for the list's duplicates",
    },
  ];
}

export interface RoundTripRow {
  name: string;
  probe: Probe;
}

/** Requests whose D1 counts must not depend on the page size or the number of filters. */
function apiPut(target: Target, path: string, body: unknown): Request {
  return { ...apiPost(target, path, body), method: "PUT" };
}

/**
 * A contact update on its own and the same update sideposting 10 new addresses: the nested records are looked up
 * together and written in the contact's batch, so the second costs one round trip more than the first, not ten.
 */
function sidepostRows(target: Target, contactId: string): Array<[string, Request]> {
  const update = (relationships: Record<string, unknown>, included: unknown[]) =>
    apiPut(target, `/api/v2/contacts/${contactId}`, { data: { type: "contacts", id: contactId, attributes: { notes: "bench", overwrite: true }, relationships }, included });
  const ids = Array.from({ length: 10 }, () => crypto.randomUUID());
  const addresses = { addresses: { data: ids.map((id) => ({ type: "addresses", id })) } };
  const entries = ids.map((id, n) => ({ type: "addresses", id, attributes: { street: `${n} Bench Rd`, city: "Benchville" } }));
  return [
    ["contact update", update({}, [])],
    ["contact update sideposting 10 addresses", update(addresses, entries)],
  ];
}

export async function roundTripRows(target: Target, contactId?: string): Promise<RoundTripRow[]> {
  const heavy = filterParams(heavyContactFilters());
  const requests: Array<[string, string]> = [
    ["contacts per_page=25", "/api/v2/contacts?per_page=25"],
    ["contacts per_page=100", "/api/v2/contacts?per_page=100"],
    ["contacts 0 filters", "/api/v2/contacts"],
    ["contacts 5 filters", `/api/v2/contacts?${query(heavy)}`],
    ["contacts 5 filters per_page=100", `/api/v2/contacts?${query({ ...heavy, per_page: 100 })}`],
    ["contacts include=people", "/api/v2/contacts?include=people"],
    ["contacts include=people,addresses", "/api/v2/contacts?include=people,addresses"],
    ["tasks per_page=25", "/api/v2/tasks?per_page=25"],
    ["tasks per_page=100", "/api/v2/tasks?per_page=100"],
    ["tasks 3 filters", `/api/v2/tasks?${query({ "filter[date_range]": "overdue", "filter[activity_type]": "Call,Email", "filter[starred]": "false" })}`],
  ];
  const rows: RoundTripRow[] = [];
  for (const [name, path] of requests) rows.push({ name, probe: await probe(apiGet(target, path)) });
  for (const [name, request] of contactId ? sidepostRows(target, contactId) : []) rows.push({ name, probe: await probe(request) });
  return rows;
}

export interface BatchComparison {
  singlesMs: number;
  batchMs: number;
  ratio: number;
  statuses: string;
}

/** The same 50 GETs sent one after another versus in one POST /api/v2/batch (median of several rounds). */
export async function compareBatch(target: Target, contactIds: string[], rounds = 5): Promise<BatchComparison> {
  const paths = contactPaths(contactIds, 50, BATCH_ITEM_QUERY);
  const singles: number[] = [];
  const batches: number[] = [];
  const statuses = new Map<number, number>();
  for (let round = 0; round < rounds + 1; round++) {
    const started = performance.now();
    for (const path of paths) {
      const response = await fetch(`${target.api}${path}`, { headers: { Authorization: `Bearer ${target.token}`, Accept: JSONAPI } });
      await response.arrayBuffer();
      if (round === 0) statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }
    if (round > 0) singles.push(performance.now() - started);
    const batchProbe = await probe(apiPost(target, "/api/v2/batch", batchBody(paths)));
    if (round > 0) batches.push(batchProbe.ms);
  }
  const singlesMs = median(singles);
  const batchMs = median(batches);
  return { singlesMs, batchMs, ratio: singlesMs / batchMs, statuses: [...statuses].map(([s, n]) => `${n}x${s}`).join(" ") };
}

export interface BackgroundRun {
  ms: number | null;
  status: number;
  detail: string;
}

/** POST a background batch of 100 GETs and time it until `pending` reaches 0. */
export async function timeBackgroundBatch(target: Target, contactIds: string[], timeoutMs = 60_000): Promise<BackgroundRun> {
  const paths = contactPaths(contactIds, 100, BATCH_ITEM_QUERY).map((p) => p.replace(/^\//, ""));
  const body = {
    data: {
      type: "background_batches",
      attributes: {},
      relationships: {
        requests: {
          data: paths.map((path) => ({ type: "background_batch_requests", id: randomUUID(), attributes: { path, request_method: "GET" } })),
        },
      },
    },
  };
  const started = performance.now();
  const created = await probe(apiPost(target, "/api/v2/background_batches", body));
  if (created.status !== 201) return { ms: null, status: created.status, detail: created.body.slice(0, 300) };
  const id = (JSON.parse(created.body) as { data: { id: string } }).data.id;
  for (;;) {
    const shown = await probe(apiGet(target, `/api/v2/background_batches/${id}`));
    const pending = (JSON.parse(shown.body) as { data?: { attributes?: { pending?: number } } }).data?.attributes?.pending;
    if (shown.status === 200 && pending === 0) {
      const ms = performance.now() - started;
      const done = await probe(apiGet(target, `/api/v2/background_batches/${id}?include=requests`));
      const statuses = new Map<number, number>();
      for (const item of (JSON.parse(done.body) as { included?: Array<{ attributes: { response_status: number } }> }).included ?? []) {
        statuses.set(item.attributes.response_status, (statuses.get(item.attributes.response_status) ?? 0) + 1);
      }
      return { ms, status: 200, detail: [...statuses].map(([s, n]) => `${n}x${s}`).join(" ") };
    }
    if (performance.now() - started > timeoutMs) return { ms: null, status: shown.status, detail: `pending ${pending} after ${timeoutMs / 1000} s` };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
