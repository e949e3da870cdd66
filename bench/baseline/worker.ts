/**
 * The limit the benchmark compares the service with: the default contacts page (same attributes, same
 * relationship linkage, same order and default status filter, same total count) answered by ONE hand-written
 * SQL statement and JSON.stringify, with no framework, no token check and no viewer look-up (the viewer's
 * account lists come in the `lists` query parameter). `/contacts/filtered` answers the benchmark's heavy filter set
 * the same way, so that the growth of a filtered page with the dataset can be compared with a hand-written one's.
 * `/bare` answers a constant: the cost of the HTTP path alone;
 * `/db` runs `SELECT 1`, which the load runner uses to wait until D1 has finished the requests a load left behind.
 * Not part of the service: bench/run.ts builds it and runs it next to the service, on the same D1 database.
 */

interface D1Like {
  prepare(sql: string): { bind(...values: unknown[]): { all(): Promise<{ results: Array<Record<string, unknown>>; meta: { rows_read: number } }> } };
}

interface Env {
  DB: D1Like;
}

const HIDDEN_STATUSES = ["Not Interested", "Unresponsive", "Never Ask", "Research Abandoned", "Expired Referral"];
const SYMBOLS: Record<string, string> = { USD: "$", CAD: "$", EUR: "€", GBP: "£", AUD: "$", NZD: "$" };
const JSONAPI = "application/vnd.api+json; charset=utf-8";

// The contact's tasks, joined once for all the last_* dates and the open-task count.
const TASK_SUMMARY = `
  SELECT json_array(
    substr(MAX(CASE WHEN t.completed = 1 THEN t.completed_at END), 1, 10),
    substr(MAX(CASE WHEN t.completed = 1 AND t.activity_type = 'Appointment' THEN t.completed_at END), 1, 10),
    substr(MAX(CASE WHEN t.completed = 1 AND t.activity_type IN ('Letter', 'Support Letter', 'Reminder Letter') THEN t.completed_at END), 1, 10),
    substr(MAX(CASE WHEN t.completed = 1 AND t.activity_type = 'Call' THEN t.completed_at END), 1, 10),
    substr(MAX(CASE WHEN t.completed = 1 AND t.activity_type = 'Pre Call Letter' THEN t.completed_at END), 1, 10),
    substr(MAX(CASE WHEN t.completed = 1 AND t.activity_type = 'Thank' THEN t.completed_at END), 1, 10),
    SUM(t.completed = 0))
  FROM activity_contacts ac JOIN tasks t ON t.id = ac.task_id WHERE ac.contact_id = c.id`;

// The unary plus keeps SQLite from walking the list's donations by date (donations_account_list_id_donation_date_idx)
// looking for this contact's: the contact's own donations come from donations_donor_account_id_donation_date_idx.
const DONATIONS_OF_CONTACT = `donations d WHERE d.donor_account_id IN (SELECT donor_account_id FROM contact_donor_accounts WHERE contact_id = c.id) AND +d.account_list_id = c.account_list_id`;

const SCOPE = `account_list_id IN (SELECT value FROM json_each(?1)) AND COALESCE(status, '') NOT IN (SELECT value FROM json_each(?2))`;

// The heavy filter set of the benchmark: status, any of the tags, a current city, a gift in a date range and a
// search over names, notes, e-mails, phones and donor account numbers. Written the way that measured fastest by
// hand: the nested CASE checks the cheap conditions first and runs each costlier subquery only for the contacts
// that passed the ones before it (plain ANDs let SQLite run them in another order, about twice as slow).
const SEARCHED = `instr(lower(c.name), lower(?7)) > 0 OR instr(lower(c.notes), lower(?7)) > 0
  OR EXISTS (SELECT 1 FROM people p WHERE p.contact_id = c.id AND (instr(lower(p.first_name), lower(?7)) > 0
    OR instr(lower(COALESCE(p.last_name, '')), lower(?7)) > 0 OR instr(lower(p.first_name || ' ' || COALESCE(p.last_name, '')), lower(?7)) > 0
    OR instr(lower(COALESCE(p.last_name, '') || ', ' || p.first_name), lower(?7)) > 0))
  OR EXISTS (SELECT 1 FROM people p JOIN email_addresses e ON e.person_id = p.id WHERE p.contact_id = c.id AND instr(lower(e.email), lower(?7)) > 0)
  OR EXISTS (SELECT 1 FROM people p JOIN phone_numbers n ON n.person_id = p.id WHERE p.contact_id = c.id AND instr(lower(n.number), lower(?7)) > 0)
  OR EXISTS (SELECT 1 FROM contact_donor_accounts x JOIN donor_accounts a ON a.id = x.donor_account_id WHERE x.contact_id = c.id AND instr(lower(a.account_number), lower(?7)) > 0)`;
const FILTERED = `c.account_list_id IN (SELECT value FROM json_each(?1)) AND c.status IN (SELECT value FROM json_each(?2))
  AND c.id IN (SELECT contact_id FROM addresses WHERE city = ?3 AND historic = 0)
  AND CASE WHEN EXISTS (SELECT 1 FROM contact_tags t WHERE t.contact_id = c.id AND t.name IN (SELECT value FROM json_each(?4)))
    THEN CASE WHEN EXISTS (SELECT 1 FROM contact_donor_accounts x JOIN donations d ON d.donor_account_id = x.donor_account_id
        WHERE x.contact_id = c.id AND +d.account_list_id = c.account_list_id AND d.donation_date >= ?5 AND d.donation_date < ?6)
      THEN (${SEARCHED}) ELSE 0 END
    ELSE 0 END`;

/** The page's contacts with everything the document shows, from the `page` rows and their `total`. */
const pageSql = (page: string, total: string) => `
WITH page AS (${page})
SELECT
  ${total} AS total, c.*,
  COALESCE(NULLIF(c.pledge_currency, ''), (SELECT currency FROM account_lists WHERE id = c.account_list_id)) AS effective_currency,
  (SELECT json_group_array(name) FROM (SELECT name FROM contact_tags WHERE contact_id = c.id ORDER BY name)) AS tags,
  (SELECT MAX(d.donation_date) FROM ${DONATIONS_OF_CONTACT}) AS last_donation,
  (${TASK_SUMMARY}) AS task_summary,
  (SELECT json_group_array(task_id) FROM (SELECT task_id FROM activity_contacts WHERE contact_id = c.id ORDER BY task_id)) AS task_ids,
  (SELECT json_group_array(json_array(id, is_primary)) FROM (SELECT id, is_primary FROM people WHERE contact_id = c.id ORDER BY position, created_at, id)) AS people,
  (SELECT json_group_array(id) FROM (SELECT id FROM addresses WHERE contact_id = c.id ORDER BY created_at, id)) AS addresses,
  (SELECT json_group_array(donor_account_id) FROM contact_donor_accounts WHERE contact_id = c.id) AS donor_accounts,
  (SELECT json_group_array(json_array(id, appeal_id)) FROM appeal_contacts WHERE contact_id = c.id) AS appeal_contacts,
  (SELECT json_group_array(id) FROM appeal_excluded_contacts WHERE contact_id = c.id) AS excluded,
  (SELECT json_group_array(id) FROM pledges WHERE contact_id = c.id) AS pledges,
  (SELECT json_group_array(id) FROM (SELECT d.id FROM ${DONATIONS_OF_CONTACT} ORDER BY d.donation_date DESC, d.created_at DESC LIMIT 6)) AS last_six,
  (SELECT json_group_array(json_array(id, referred_to_id)) FROM contact_referrals WHERE referred_by_id = c.id) AS referrals_by_me,
  (SELECT json_group_array(json_array(id, referred_by_id)) FROM contact_referrals WHERE referred_to_id = c.id) AS referrals_to_me
FROM page c ORDER BY c.created_at, c.id`;

const PAGE_SQL = pageSql(`SELECT * FROM contacts WHERE ${SCOPE} ORDER BY created_at, id LIMIT ?3 OFFSET ?4`, `(SELECT count(*) FROM contacts WHERE ${SCOPE})`);

// The window counts the matches while the page is taken, so the filter runs once (page 1 always has a row to
// carry the count when anything matches; the benchmark asks for page 1 only).
const FILTERED_PAGE_SQL = pageSql(
  `SELECT c.*, count(*) OVER () AS matches FROM contacts c WHERE ${FILTERED} ORDER BY c.created_at, c.id LIMIT ?8 OFFSET ?9`,
  "c.matches",
);

function money(units: unknown): string | null {
  if (typeof units !== "number") return null;
  const negative = units < 0;
  const abs = Math.abs(units);
  const whole = Math.trunc(abs / 10000);
  const fraction = String(abs % 10000).padStart(4, "0").replace(/0+$/, "") || "0";
  return `${negative ? "-" : ""}${whole}.${fraction}`;
}

const ids = (type: string, list: string[]) => ({ data: list.map((id) => ({ type, id })) });
const one = (type: string, id: string | null | undefined) => ({ data: id ? { type, id } : null });
const parse = <T>(text: unknown): T[] => (typeof text === "string" ? (JSON.parse(text) as T[]) : []);

type Row = Record<string, unknown>;

function contact(c: Row) {
  const [lastActivity, lastAppointment, lastLetter, lastCall, lastPreCall, lastThank, open] = JSON.parse(String(c.task_summary)) as [
    string | null, string | null, string | null, string | null, string | null, string | null, number | null,
  ];
  const persons = parse<[string, number]>(c.people);
  const primary = persons.find(([, isPrimary]) => isPrimary === 1)?.[0] ?? null;
  const primaryOrFirst = primary ?? persons[0]?.[0] ?? null;
  const spouse = persons.find(([personId]) => personId !== primaryOrFirst)?.[0] ?? null;
  const appealRows = parse<[string, string]>(c.appeal_contacts);
  const byMe = parse<[string, string]>(c.referrals_by_me);
  const toMe = parse<[string, string]>(c.referrals_to_me);
  return {
    id: c.id,
    type: "contacts",
    attributes: {
      name: c.name, status: c.status, likely_to_give: c.likely_to_give, send_newsletter: c.send_newsletter,
      church_name: c.church_name, deceased: c.deceased === 1, direct_deposit: c.direct_deposit === 1,
      magazine: c.magazine === 1, missionary_pages_banner: c.missionary_pages_banner === 1, no_appeals: c.no_appeals === 1,
      no_gift_aid: c.no_gift_aid === 1, pledge_received: c.pledge_received === 1, status_valid: c.status_valid === 1,
      envelope_greeting: c.envelope_greeting, greeting: c.greeting, late_at: c.late_at, locale: c.locale,
      next_ask: c.next_ask, notes: c.notes, notes_saved_at: c.notes_saved_at, pledge_amount: money(c.pledge_amount),
      pledge_currency: c.effective_currency, pledge_currency_symbol: SYMBOLS[String(c.effective_currency)] ?? c.effective_currency ?? null,
      pledge_frequency: c.pledge_frequency, pledge_start_date: c.pledge_start_date,
      preferred_contact_method: c.preferred_contact_method, relationship_code: c.relationship_code, source: c.source,
      starred_at: c.starred_at, timezone: c.timezone, website: c.website, avatar: c.avatar, square_avatar: c.avatar,
      suggested_changes: typeof c.suggested_changes === "string" ? JSON.parse(c.suggested_changes) : {},
      tag_list: parse<string>(c.tags), last_donation: c.last_donation, last_activity: lastActivity,
      last_appointment: lastAppointment, last_letter: lastLetter, last_phone_call: lastCall, last_pre_call: lastPreCall,
      last_thank: lastThank, uncompleted_tasks_count: open ?? 0,
      created_at: c.created_at, updated_at: c.updated_at, updated_in_db_at: c.updated_at,
    },
    relationships: {
      account_list: one("account_lists", c.account_list_id as string),
      user: one("users", c.user_id as string | null),
      people: ids("people", persons.map(([personId]) => personId)),
      primary_person: one("people", primary),
      primary_or_first_person: one("people", primaryOrFirst),
      spouse: one("people", spouse),
      addresses: ids("addresses", parse<string>(c.addresses)),
      donor_accounts: ids("donor_accounts", parse<string>(c.donor_accounts)),
      appeal_contacts: ids("appeal_contacts", appealRows.map(([rowId]) => rowId)),
      appeals: ids("appeals", appealRows.map(([, appealId]) => appealId)),
      excluded_appeal_contacts: ids("excluded_appeal_contacts", parse<string>(c.excluded)),
      pledges: ids("pledges", parse<string>(c.pledges)),
      tasks: ids("tasks", parse<string>(c.task_ids)),
      last_six_donations: ids("donations", parse<string>(c.last_six)),
      contact_referrals_by_me: ids("contact_referrals", byMe.map(([rowId]) => rowId)),
      contact_referrals_to_me: ids("contact_referrals", toMe.map(([rowId]) => rowId)),
      contacts_referred_by_me: ids("contacts", byMe.map(([, other]) => other)),
      contacts_that_referred_me: ids("contacts", toMe.map(([, other]) => other)),
    },
  };
}

function pageOf(url: URL) {
  const page = Math.max(1, Number(url.searchParams.get("page") ?? 1));
  const perPage = Math.max(1, Number(url.searchParams.get("per_page") ?? 25));
  return { page, perPage, offset: (page - 1) * perPage };
}

const listParam = (url: URL, name: string) => (url.searchParams.get(name) ?? "").split(",").filter(Boolean);

function pageResponse(rows: Row[], rowsRead: number, page: { page: number; perPage: number }, filter: Record<string, string>): Response {
  const total = Number(rows[0]?.total ?? 0);
  const document = {
    data: rows.map(contact),
    meta: {
      pagination: { page: page.page, per_page: page.perPage, total_count: total, total_pages: Math.ceil(total / page.perPage) },
      sort: null,
      filter,
    },
  };
  return new Response(JSON.stringify(document), {
    headers: { "Content-Type": JSONAPI, "X-D1-Round-Trips": "1", "X-D1-Queries": "1", "X-D1-Rows-Read": String(rowsRead) },
  });
}

async function contactsPage(url: URL, env: Env): Promise<Response> {
  const page = pageOf(url);
  const { results, meta } = await env.DB.prepare(PAGE_SQL)
    .bind(JSON.stringify(listParam(url, "lists")), JSON.stringify(HIDDEN_STATUSES), page.perPage, page.offset)
    .all();
  return pageResponse(results, meta.rows_read, page, {});
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The heavy filter set: `status`, `tags` (any), `city`, `donation_date` (from..to, both days included), `wildcard_search`. */
async function filteredContactsPage(url: URL, env: Env): Promise<Response> {
  const page = pageOf(url);
  const [from, to] = (url.searchParams.get("donation_date") ?? "").split("..");
  const filter = Object.fromEntries([...url.searchParams].filter(([name]) => !["lists", "page", "per_page"].includes(name)));
  const { results, meta } = await env.DB.prepare(FILTERED_PAGE_SQL)
    .bind(
      JSON.stringify(listParam(url, "lists")),
      JSON.stringify(listParam(url, "status")),
      url.searchParams.get("city") ?? "",
      JSON.stringify(listParam(url, "tags")),
      from,
      nextDay(to),
      url.searchParams.get("wildcard_search") ?? "",
      page.perPage,
      page.offset,
    )
    .all();
  return pageResponse(results, meta.rows_read, page, filter);
}

const BARE = JSON.stringify({ data: { id: "bare", type: "bare", attributes: { ok: true } } });

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/contacts") return contactsPage(url, env);
    if (url.pathname === "/contacts/filtered") return filteredContactsPage(url, env);
    if (url.pathname === "/bare") return new Response(BARE, { headers: { "Content-Type": JSONAPI } });
    // Queued behind whatever D1 is still running: answers fast only once the database is idle.
    if (url.pathname === "/db") return Response.json((await env.DB.prepare("SELECT 1 AS one").bind().all()).results);
    return new Response("Not found", { status: 404 });
  },
};
