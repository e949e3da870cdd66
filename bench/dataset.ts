/**
 * The benchmark dataset, generated inside SQLite: every table is filled by ONE `INSERT ... SELECT` over a recursive
 * counter, so 100,000 contacts with their people, details, donations and tasks take seconds, not minutes.
 * Values are deterministic functions of the row number (multiplicative hashing), so every run and every size has
 * the same proportions: a filter selects the same share of contacts at 1,000 as at 100,000.
 *
 * Shape per contact (averages): 1.5 people (each with an e-mail, 80% with a phone), 1.2 addresses, 2 tags,
 * a donor account with 10 donations, 0.4 pledges, 5 tasks (one activity contact each, 25% with a comment).
 * Four account lists (50/20/20/10% of the contacts), 10 appeals and 2 designation accounts each; two users:
 * the viewer (user of lists 1 and 2, coach of list 3) and the owner of lists 3 and 4.
 */

export const LIST_COUNT = 4;
export const APPEALS_PER_LIST = 10;

const MULTIPLIERS = [
  2654435761, 2246822519, 3266489917, 668265263, 374761393, 2869860233, 1597334677, 3812015801, 2166136261, 1181783497,
  4093911763, 2057227217, 1500450271, 3735928559, 2479098899, 1073741827, 2891336453, 2971215073, 3210233709, 1103515245,
];

/** A pseudo-random integer in [0, modulus) from an integer SQL expression; each salt is an independent sequence. */
function hash(expression: string, salt: number, modulus: number): string {
  return `((((${expression}) * ${MULTIPLIERS[salt % MULTIPLIERS.length]}) % 4294967296) >> 8) % ${modulus}`;
}

const TABLE_CODES = {
  organization: 0x0001,
  user: 0x0002,
  accountList: 0x0003,
  listUser: 0x0004,
  listCoach: 0x0005,
  designationAccount: 0x0006,
  contact: 0x0c00,
  person: 0x0c01,
  email: 0x0c02,
  phone: 0x0c03,
  address: 0x0c04,
  statusLog: 0x0c05,
  referral: 0x0c06,
  donorAccount: 0x0d00,
  contactDonorAccount: 0x0d01,
  donation: 0x0d02,
  appeal: 0x0a00,
  appealContact: 0x0a01,
  pledge: 0x0a02,
  excluded: 0x0a03,
  task: 0x0e00,
  activityContact: 0x0e01,
  comment: 0x0e02,
} as const;
type Table = keyof typeof TABLE_CODES;

/** A UUID-shaped id, unique per (table, key), scattered like random ids so indexes see realistic key order. */
export function uuidSql(table: Table, key: string): string {
  const k = `(${key})`;
  return `printf('%08x-%04x-4%03x-8%03x-%012x', (${k} * 2654435761) % 4294967296, ${TABLE_CODES[table]}, ((${k} * 2246822519) >> 12) % 4096, ((${k} * 3266489917) >> 12) % 4096, ${k})`;
}

/** The same id computed in TypeScript (for the ids the scenarios request). */
export function uuid(table: Table, key: number): string {
  const k = BigInt(key);
  const hex = (value: bigint, width: number) => value.toString(16).padStart(width, "0");
  return `${hex((k * 2654435761n) % 4294967296n, 8)}-${hex(BigInt(TABLE_CODES[table]), 4)}-4${hex(((k * 2246822519n) >> 12n) % 4096n, 3)}-8${hex(((k * 3266489917n) >> 12n) % 4096n, 3)}-${hex(k, 12)}`;
}

/** Picks item `index` of a fixed list with substr on one padded string: no JSON parsing per row. */
function pick(items: readonly string[], index: string): string {
  const width = Math.max(...items.map((s) => s.length));
  const packed = items.map((s) => s.padEnd(width, " ")).join("").replace(/'/g, "''");
  return `rtrim(substr('${packed}', (${index}) * ${width} + 1, ${width}))`;
}

/** A list of weighted choices expanded to 100 slots, picked by a hash in [0, 100). */
function weighted(choices: Array<[string, number]>): string[] {
  const slots: string[] = [];
  for (const [value, weight] of choices) for (let i = 0; i < weight; i++) slots.push(value);
  if (slots.length !== 100) throw new Error(`weights add up to ${slots.length}, not 100`);
  return slots;
}

const STATUS_SLOTS = weighted([
  ["Partner - Financial", 30],
  ["Partner - Special", 8],
  ["Partner - Pray", 8],
  ["Never Contacted", 12],
  ["Ask in Future", 6],
  ["Cultivate Relationship", 5],
  ["Contact for Appointment", 4],
  ["Appointment Scheduled", 3],
  ["Call for Decision", 3],
  ["Not Interested", 5],
  ["Unresponsive", 4],
  ["Never Ask", 2],
  ["Research Abandoned", 2],
  ["Expired Referral", 3],
  ["", 5],
]);
const FIRST_NAMES = ["James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William", "Elizabeth", "David", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen", "Daniel", "Nancy", "Matthew", "Lisa", "Anthony", "Betty", "Mark", "Margaret", "Paul", "Sandra", "Steven", "Ashley", "Andrew", "Emily", "Joshua", "Donna", "Kevin", "Michelle", "Brian", "Carol"];
const LAST_NAMES = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts"];
const PLACES: Array<[string, string, string]> = [
  ["Springfield", "IL", "United States"], ["Portland", "OR", "United States"], ["Austin", "TX", "United States"],
  ["Denver", "CO", "United States"], ["Orlando", "FL", "United States"], ["Columbus", "OH", "United States"],
  ["Nashville", "TN", "United States"], ["Phoenix", "AZ", "United States"], ["Raleigh", "NC", "United States"],
  ["Madison", "WI", "United States"], ["Boise", "ID", "United States"], ["Atlanta", "GA", "United States"],
  ["Richmond", "VA", "United States"], ["Omaha", "NE", "United States"], ["Tulsa", "OK", "United States"],
  ["Fresno", "CA", "United States"], ["Seattle", "WA", "United States"], ["Dayton", "OH", "United States"],
  ["Toronto", "ON", "Canada"], ["Calgary", "AB", "Canada"],
];
const TAGS = ["prayer", "monthly", "newsletter", "church", "family", "board", "vip", "major-donor", "alumni", "staff", "volunteer", "friend", "neighbor", "coworker", "student", "mentor", "missions", "local", "international", "retired"];
const CHURCHES = ["Grace Church", "First Baptist", "City Chapel", "Hope Fellowship", "St. Mark's", "Redeemer", "Calvary", "New Life", "Trinity", "Cornerstone"];
const FREQUENCIES = weighted([["1.0", 70], ["3.0", 10], ["12.0", 10], ["0.46153846153846", 5], ["6.0", 5]]);
const ACTIVITIES = ["Call", "Appointment", "Email", "Text Message", "Social Message", "Letter", "Newsletter - Physical", "Newsletter - Email", "Pre Call Letter", "Reminder Letter", "Support Letter", "Thank", "To Do", "Talk to In Person", "Prayer Request"];
const NEXT_ACTIONS = ["Call", "Email", "Text Message", "Appointment", "Thank", "None"];
const LIST_CURRENCIES = ["USD", "USD", "CAD", "EUR"];

/** Timestamp text `YYYY-MM-DDTHH:MM:SSZ` for `now` shifted by an SQL expression in seconds. */
const at = (seconds: string) => `strftime('%Y-%m-%dT%H:%M:%SZ', 'now', printf('%+d seconds', ${seconds}))`;
/** Date text `YYYY-MM-DD` for today shifted by an SQL expression in days. */
const day = (days: string) => `date('now', printf('%+d days', ${days}))`;

const counter = (limit: string) => `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${limit})`;

/** Stands for a counter over a range of contact numbers; statements using it are run once per chunk. */
const CONTACT_RANGE = "/*contact range*/";
/**
 * Contacts per statement: bounds each statement's rows (up to 20 donations per contact) and time whatever the size.
 * Local D1 drops the connection of a write statement that runs for about 8 seconds.
 */
const CHUNK = 2_500;

/** The account list (1..4) of contact n: 50% list 1, 20% list 2, 20% list 3, 10% list 4. */
const listOf = (n: string) => `(CASE WHEN ${hash(n, 0, 10)} < 5 THEN 1 WHEN ${hash(n, 0, 10)} < 7 THEN 2 WHEN ${hash(n, 0, 10)} < 9 THEN 3 ELSE 4 END)`;
/** Lists 1 and 2 belong to user 1 (the viewer), 3 and 4 to user 2. */
const ownerOf = (list: string) => `(CASE WHEN ${list} <= 2 THEN 1 ELSE 2 END)`;
const listCurrency = (list: string) => pick(LIST_CURRENCIES, `${list} - 1`);

const firstName = (n: string) => pick(FIRST_NAMES, hash(n, 1, FIRST_NAMES.length));
const spouseName = (n: string) => pick(FIRST_NAMES, hash(n, 2, FIRST_NAMES.length));
const lastName = (n: string) => pick(LAST_NAMES, hash(n, 3, LAST_NAMES.length));
const hasSpouse = (n: string) => `((${n}) % 2 = 0)`;
const statusOf = (n: string) => `NULLIF(${pick(STATUS_SLOTS, hash(n, 4, 100))}, '')`;

export interface Statement {
  label: string;
  sql: string;
}

/** The statements that fill an empty, migrated database with `contacts` contacts (a label may repeat: one per chunk). */
export function datasetStatements(contacts: number): Statement[] {
  const statements: Statement[] = [];
  const add = (label: string, sql: string) => {
    if (!sql.includes(CONTACT_RANGE)) return statements.push({ label, sql });
    for (let from = 1; from <= contacts; from += CHUNK) {
      const to = Math.min(contacts, from + CHUNK - 1);
      statements.push({ label, sql: sql.replace(CONTACT_RANGE, `WITH RECURSIVE seq(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM seq WHERE n < ${to})`) });
    }
  };

  add("organizations", `INSERT INTO organizations (id, name, api_class, oauth, created_at, updated_at) VALUES (${uuidSql("organization", "1")}, 'Bench Mission', 'DataServer', 0, ${at("-200000000")}, ${at("-200000000")})`);
  add("currency rates", `INSERT INTO currency_rates (code, rate, updated_at) VALUES ('USD', '1.0', ${at("0")}), ('CAD', '1.35', ${at("0")}), ('EUR', '0.92', ${at("0")}), ('GBP', '0.79', ${at("0")})`);
  // A rate a month for the last 15 months, as an operator keeping monthly rates would: the reports convert on dates.
  add(
    "currency rate history",
    `INSERT INTO currency_rate_history (code, exchanged_on, rate, updated_at)
      ${counter("15")} SELECT codes.code, ${day("-30 * (n - 1)")}, printf('%.4f', codes.rate * (1 + ((n % 5) - 2) / 100.0)), ${at("0")}
      FROM seq, (SELECT 'CAD' AS code, 1.35 AS rate UNION ALL SELECT 'EUR', 0.92 UNION ALL SELECT 'GBP', 0.79) AS codes`,
  );
  add(
    "users",
    `INSERT INTO users (id, email, first_name, last_name, time_zone, created_at, updated_at) VALUES
      (${uuidSql("user", "1")}, 'viewer@bench.example', 'Vera', 'Viewer', 'America/Chicago', ${at("-150000000")}, ${at("-150000000")}),
      (${uuidSql("user", "2")}, 'owner@bench.example', 'Owen', 'Owner', 'UTC', ${at("-150000000")}, ${at("-150000000")})`,
  );
  add(
    "account lists",
    `INSERT INTO account_lists (id, name, currency, monthly_goal, active_mpd_start_at, active_mpd_finish_at, active_mpd_monthly_goal, salary_organization_id, created_at, updated_at)
     ${counter(String(LIST_COUNT))}
     SELECT ${uuidSql("accountList", "n")}, 'Bench list ' || n, ${listCurrency("n")}, (4000 + n * 500) * 10000, ${day("-200")}, ${day("165")}, 1500 * 10000,
       ${uuidSql("organization", "1")}, ${at("-140000000")}, ${at("-140000000")} FROM seq`,
  );
  add(
    "list users and coaches",
    `INSERT INTO account_list_users (id, account_list_id, user_id, created_at, updated_at)
     ${counter(String(LIST_COUNT))}
     SELECT ${uuidSql("listUser", "n")}, ${uuidSql("accountList", "n")}, ${uuidSql("user", ownerOf("n"))}, ${at("-140000000")}, ${at("-140000000")} FROM seq`,
  );
  add(
    "coach",
    `INSERT INTO account_list_coaches (id, account_list_id, user_id, created_at, updated_at) VALUES (${uuidSql("listCoach", "1")}, ${uuidSql("accountList", "3")}, ${uuidSql("user", "1")}, ${at("-100000000")}, ${at("-100000000")})`,
  );
  add("default lists", `UPDATE users SET default_account_list_id = CASE id WHEN ${uuidSql("user", "1")} THEN ${uuidSql("accountList", "1")} ELSE ${uuidSql("accountList", "3")} END`);
  add(
    "designation accounts",
    `INSERT INTO designation_accounts (id, account_list_id, organization_id, designation_number, name, balance, balance_updated_at, currency, active, created_at, updated_at)
     ${counter(String(LIST_COUNT * 2))}
     SELECT ${uuidSql("designationAccount", "n")}, ${uuidSql("accountList", "(n + 1) / 2")}, ${uuidSql("organization", "1")}, printf('%07d', 1000 + n),
       'Staff account ' || n, (2000 + n * 300) * 10000, ${at("-86400")}, ${listCurrency("(n + 1) / 2")}, 1, ${at("-140000000")}, ${at("-140000000")} FROM seq`,
  );
  add(
    "appeals",
    `INSERT INTO appeals (id, account_list_id, name, amount, description, end_date, active, created_at, updated_at)
     ${counter(String(LIST_COUNT * APPEALS_PER_LIST))}
     SELECT ${uuidSql("appeal", "n")}, ${uuidSql("accountList", `(n - 1) / ${APPEALS_PER_LIST} + 1`)}, 'Appeal ' || n, (5000 + (n % 7) * 2500) * 10000,
       'Year-end and project appeal ' || n, ${day("(n % 12) * 30 - 120")}, CASE WHEN n % 5 = 0 THEN 0 ELSE 1 END,
       ${at(`-40000000 + n * 600000`)}, ${at(`-40000000 + n * 600000`)} FROM seq`,
  );
  add("primary appeals", `UPDATE account_lists SET primary_appeal_id = ${uuidSql("appeal", `(CAST(substr(id, -12) AS INTEGER) - 1) * ${APPEALS_PER_LIST} + 1`)}`);

  // Contacts: created over five years in row order, so the default order (created_at, id) follows n.
  const span = 157_680_000;
  add(
    "contacts",
    `INSERT INTO contacts (id, account_list_id, user_id, name, status, likely_to_give, send_newsletter, church_name, deceased, direct_deposit,
       magazine, no_appeals, pledge_received, is_organization, envelope_greeting, greeting, late_at, locale, next_ask, notes, notes_saved_at,
       pledge_amount, pledge_currency, pledge_frequency, pledge_start_date, source, starred_at, timezone, created_at, updated_at)
     ${CONTACT_RANGE}
     SELECT ${uuidSql("contact", "n")}, ${uuidSql("accountList", "list")}, ${uuidSql("user", ownerOf("list"))},
       ${lastName("n")} || ', ' || ${firstName("n")} || CASE WHEN ${hasSpouse("n")} THEN ' and ' || ${spouseName("n")} ELSE '' END,
       status,
       NULLIF(${pick(["", "Least Likely", "Likely", "Most Likely"], hash("n", 5, 4))}, ''),
       NULLIF(${pick(["", "Physical", "Email", "Both", "None"], hash("n", 6, 5))}, ''),
       CASE WHEN ${hash("n", 7, 10)} < 3 THEN ${pick(CHURCHES, hash("n", 8, CHURCHES.length))} END,
       ${hash("n", 9, 100)} = 0, ${hash("n", 10, 10)} = 0, ${hash("n", 11, 5)} = 0, ${hash("n", 12, 20)} = 0,
       partner AND ${hash("n", 13, 10)} < 6, ${hash("n", 14, 20)} = 0,
       ${firstName("n")} || ' ' || ${lastName("n")}, ${firstName("n")} || CASE WHEN ${hasSpouse("n")} THEN ' and ' || ${spouseName("n")} ELSE '' END,
       CASE WHEN status = 'Partner - Financial' AND ${hash("n", 15, 100)} < 15 THEN ${day(`-${hash("n", 16, 120)}`)} END,
       ${pick(["en", "en", "en", "en", "en", "en", "en", "en", "es", "fr"], hash("n", 17, 10))},
       CASE WHEN ${hash("n", 18, 5)} = 0 THEN ${day(hash("n", 19, 365))} END,
       CASE WHEN ${hash("n", 7, 10)} < 3 THEN 'Met at a conference; prefers e-mail. Follow up on the building project.' END,
       CASE WHEN ${hash("n", 7, 10)} < 3 THEN ${at(`-${hash("n", 9, 30000000)}`)} END,
       CASE WHEN partner THEN (25 + ${hash("n", 1, 20)} * 25) * 10000 END,
       CASE WHEN ${hash("n", 2, 10)} = 0 THEN 'CAD' END,
       CASE WHEN partner THEN ${pick(FREQUENCIES, hash("n", 3, 100))} END,
       CASE WHEN partner THEN ${day(`-${hash("n", 4, 2000)}`)} END,
       ${pick(["MPDX", "MPDX", "TntImport", "GoogleImport", "DataServer"], hash("n", 5, 5))},
       CASE WHEN ${hash("n", 6, 20)} = 0 THEN ${at(`-${hash("n", 7, 9000000)}`)} END,
       ${pick(["America/Chicago", "America/New_York", "America/Denver", "America/Los_Angeles", "America/Toronto"], hash("n", 8, 5))},
       ${at(`-${span} + n * ${Math.floor(span / contacts)}`)}, ${at(`-${span} + n * ${Math.floor(span / contacts)} + ${hash("n", 9, 86400)}`)}
     FROM (SELECT n, ${listOf("n")} AS list, ${statusOf("n")} AS status, COALESCE(${statusOf("n")} LIKE 'Partner%', 0) AS partner FROM seq)`,
  );
  add(
    "people",
    `INSERT INTO people (id, contact_id, first_name, last_name, gender, birthday_day, birthday_month, birthday_year, anniversary_day, anniversary_month,
       is_primary, position, created_at, updated_at)
     ${CONTACT_RANGE}
     SELECT ${uuidSql("person", "2 * n + k")}, ${uuidSql("contact", "n")}, CASE k WHEN 0 THEN ${firstName("n")} ELSE ${spouseName("n")} END, ${lastName("n")},
       CASE k WHEN 0 THEN 'male' ELSE 'female' END,
       CASE WHEN ${hash("2 * n + k", 10, 10)} < 7 THEN 1 + ${hash("2 * n + k", 11, 28)} END,
       CASE WHEN ${hash("2 * n + k", 10, 10)} < 7 THEN 1 + ${hash("2 * n + k", 12, 12)} END,
       CASE WHEN ${hash("2 * n + k", 10, 10)} < 4 THEN 1940 + ${hash("2 * n + k", 13, 60)} END,
       CASE WHEN ${hasSpouse("n")} AND ${hash("n", 14, 10)} < 4 THEN 1 + ${hash("n", 15, 28)} END,
       CASE WHEN ${hasSpouse("n")} AND ${hash("n", 14, 10)} < 4 THEN 1 + ${hash("n", 16, 12)} END,
       k = 0, k, ${at(`-${span} + n * ${Math.floor(span / contacts)} + k`)}, ${at(`-${span} + n * ${Math.floor(span / contacts)} + k`)}
     FROM seq JOIN (SELECT 0 AS k UNION ALL SELECT 1) ON k = 0 OR ${hasSpouse("n")}`,
  );
  const personRows = `seq JOIN (SELECT 0 AS k UNION ALL SELECT 1) ON k = 0 OR ${hasSpouse("n")}`;
  add(
    "e-mail addresses",
    `INSERT INTO email_addresses (id, person_id, email, "primary", location, created_at, updated_at)
     ${CONTACT_RANGE}
     SELECT ${uuidSql("email", "2 * n + k")}, ${uuidSql("person", "2 * n + k")},
       lower(CASE k WHEN 0 THEN ${firstName("n")} ELSE ${spouseName("n")} END || '.' || ${lastName("n")}) || n || '@example.org', 1,
       ${pick(["home", "work", "other"], hash("2 * n + k", 17, 3))}, ${at(`-${hash("n", 18, 100000000)}`)}, ${at(`-${hash("n", 18, 100000000)}`)}
     FROM ${personRows}`,
  );
  add(
    "phone numbers",
    `INSERT INTO phone_numbers (id, person_id, number, location, "primary", created_at, updated_at)
     ${CONTACT_RANGE}
     SELECT ${uuidSql("phone", "2 * n + k")}, ${uuidSql("person", "2 * n + k")}, printf('+1 555 %07d', ${hash("2 * n + k", 19, 10000000)}),
       ${pick(["mobile", "home", "work"], hash("2 * n + k", 0, 3))}, 1, ${at(`-${hash("n", 1, 100000000)}`)}, ${at(`-${hash("n", 1, 100000000)}`)}
     FROM ${personRows} WHERE ${hash("2 * n + k", 2, 10)} < 8`,
  );
  add(
    "addresses",
    `INSERT INTO addresses (id, contact_id, street, city, state, country, postal_code, location, primary_mailing_address, historic, source, created_at, updated_at)
     ${CONTACT_RANGE}
     SELECT ${uuidSql("address", "2 * n + k")}, ${uuidSql("contact", "n")}, (100 + ${hash("2 * n + k", 3, 9000)}) || ' Main Street',
       ${pick(PLACES.map((p) => p[0]), `place`)}, ${pick(PLACES.map((p) => p[1]), `place`)}, ${pick(PLACES.map((p) => p[2]), `place`)},
       printf('%05d', ${hash("2 * n + k", 4, 99999)}), CASE k WHEN 0 THEN 'Home' ELSE 'Business' END, k = 0, k = 1, 'MPDX',
       ${at(`-${span} + n * ${Math.floor(span / contacts)} + k`)}, ${at(`-${span} + n * ${Math.floor(span / contacts)} + k`)}
     FROM (SELECT n, k, ${hash("2 * n + k", 5, PLACES.length)} AS place FROM seq JOIN (SELECT 0 AS k UNION ALL SELECT 1) ON k = 0 OR ${hash("n", 6, 5)} = 0)`,
  );
  add(
    "contact tags",
    `INSERT OR IGNORE INTO contact_tags (contact_id, name)
     ${CONTACT_RANGE}
     SELECT ${uuidSql("contact", "n")}, ${pick(TAGS, hash("3 * n + j", 7, TAGS.length))}
     FROM seq JOIN (SELECT 0 AS j UNION ALL SELECT 1 UNION ALL SELECT 2) ON j <= ${hash("n", 8, 3)}`,
  );
  add(
    "donor accounts",
    `INSERT INTO donor_accounts (id, organization_id, account_number, name, created_at, updated_at)
     ${CONTACT_RANGE}
     SELECT ${uuidSql("donorAccount", "n")}, ${uuidSql("organization", "1")}, printf('%08d', n), ${lastName("n")}, ${at("-100000000")}, ${at("-100000000")} FROM seq`,
  );
  add(
    "contact donor accounts",
    `INSERT INTO contact_donor_accounts (id, contact_id, donor_account_id, created_at, updated_at)
     ${CONTACT_RANGE}
     SELECT ${uuidSql("contactDonorAccount", "n")}, ${uuidSql("contact", "n")}, ${uuidSql("donorAccount", "n")}, ${at("-100000000")}, ${at("-100000000")} FROM seq`,
  );
  // Donations: 0 to 20 per contact (10 on average), over the last three years, 20% counted towards an appeal.
  add(
    "donations",
    `INSERT INTO donations (id, account_list_id, designation_account_id, donor_account_id, appeal_id, amount, currency, donation_date, payment_method, remote_id, created_at, updated_at)
     ${CONTACT_RANGE}, gift(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM gift WHERE k < 19)
     SELECT ${uuidSql("donation", "20 * n + k")}, ${uuidSql("accountList", "list")}, ${uuidSql("designationAccount", "2 * list - (k % 2)")}, ${uuidSql("donorAccount", "n")},
       CASE WHEN ${hash("20 * n + k", 9, 5)} = 0 THEN ${uuidSql("appeal", `(list - 1) * ${APPEALS_PER_LIST} + 1 + ${hash("20 * n + k", 10, APPEALS_PER_LIST)}`)} END,
       (10 + ${hash("20 * n + k", 11, 490)}) * 10000 + CASE WHEN ${hash("20 * n + k", 12, 4)} = 0 THEN 5000 ELSE 0 END,
       ${listCurrency("list")}, given, ${pick(["check", "credit card", "bank transfer"], hash("20 * n + k", 13, 3))}, printf('R%09d', 20 * n + k),
       given || 'T12:00:00Z', given || 'T12:00:00Z'
     FROM (SELECT n, k, ${listOf("n")} AS list, ${day(`-${hash("20 * n + k", 14, 1095)}`)} AS given FROM seq JOIN gift ON k < ${hash("n", 15, 21)})`,
  );
  add(
    "pledges",
    `INSERT INTO pledges (id, account_list_id, contact_id, appeal_id, amount, amount_currency, expected_date, status, created_at, updated_at)
     ${CONTACT_RANGE}
     SELECT ${uuidSql("pledge", "n")}, ${uuidSql("accountList", "list")}, ${uuidSql("contact", "n")},
       ${uuidSql("appeal", `(list - 1) * ${APPEALS_PER_LIST} + 1 + ${hash("n", 16, APPEALS_PER_LIST)}`)},
       (50 + ${hash("n", 17, 20)} * 25) * 10000, ${listCurrency("list")}, ${day(`${hash("n", 18, 200)} - 100`)},
       ${pick(["not_received", "received_not_processed", "processed"], hash("n", 19, 3))}, ${at(`-${hash("n", 0, 20000000)}`)}, ${at(`-${hash("n", 0, 20000000)}`)}
     FROM (SELECT n, ${listOf("n")} AS list FROM seq) WHERE ${hash("n", 1, 10)} < 4`,
  );
  add(
    "appeal contacts",
    `INSERT OR IGNORE INTO appeal_contacts (id, appeal_id, contact_id, created_at, updated_at)
     SELECT 'ac' || substr(id, 3), appeal_id, contact_id, created_at, updated_at FROM pledges`,
  );
  add(
    "excluded appeal contacts",
    `INSERT OR IGNORE INTO appeal_excluded_contacts (id, appeal_id, contact_id, reasons, created_at, updated_at)
     ${CONTACT_RANGE}
     SELECT ${uuidSql("excluded", "n")}, ${uuidSql("appeal", `(${listOf("n")} - 1) * ${APPEALS_PER_LIST} + 1 + ${hash("n", 2, APPEALS_PER_LIST)}`)}, ${uuidSql("contact", "n")},
       '["no_appeals"]', ${at("-5000000")}, ${at("-5000000")}
     FROM seq WHERE ${hash("n", 3, 50)} = 0`,
  );
  add(
    "partner status logs",
    `INSERT INTO partner_status_logs (id, contact_id, recorded_on, status, pledge_amount, pledge_frequency, created_at, updated_at)
     SELECT 'b0' || substr(id, 3), id, ${day("-365")}, status, pledge_amount / 2, pledge_frequency, created_at, created_at
     FROM contacts WHERE pledge_amount IS NOT NULL AND ${hash("CAST(substr(id, -12) AS INTEGER)", 4, 10)} < 3`,
  );
  add(
    "contact referrals",
    `INSERT INTO contact_referrals (id, referred_by_id, referred_to_id, created_at, updated_at)
     ${CONTACT_RANGE}
     SELECT ${uuidSql("referral", "n")}, ${uuidSql("contact", "n - 1")}, ${uuidSql("contact", "n")}, ${at("-10000000")}, ${at("-10000000")}
     FROM seq WHERE n > 1 AND n % 20 = 0 AND ${listOf("n")} = ${listOf("n - 1")}`,
  );
  // Tasks: 5 per contact, from 550 days ago to 180 days ahead; 80% of the past ones are completed.
  add(
    "tasks",
    `INSERT INTO tasks (id, account_list_id, user_id, activity_type, subject, start_at, completed, completed_at, result, next_action, starred, created_at, updated_at)
     ${CONTACT_RANGE}, slot(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM slot WHERE k < 4)
     SELECT ${uuidSql("task", "5 * n + k")}, ${uuidSql("accountList", "list")}, ${uuidSql("user", ownerOf("list"))}, activity,
       activity || ' ' || ${lastName("n")}, ${at("shift * 86400")}, done, CASE WHEN done THEN ${at("shift * 86400 + 3600")} END,
       CASE WHEN done THEN 'Completed' END, ${pick(NEXT_ACTIONS, hash("5 * n + k", 5, NEXT_ACTIONS.length))}, ${hash("5 * n + k", 6, 20)} = 0,
       ${at("shift * 86400 - 864000")}, ${at("CASE WHEN shift < 0 THEN shift * 86400 + 3600 ELSE -3600 END")}
     FROM (SELECT n, k, ${listOf("n")} AS list, ${pick(ACTIVITIES, hash("5 * n + k", 7, ACTIVITIES.length))} AS activity,
             ${hash("5 * n + k", 8, 730)} - 550 AS shift, (${hash("5 * n + k", 8, 730)} < 550 AND ${hash("5 * n + k", 9, 10)} < 8) AS done
           FROM seq JOIN slot)`,
  );
  add(
    "activity contacts",
    `INSERT INTO activity_contacts (id, task_id, contact_id, created_at, updated_at)
     ${CONTACT_RANGE}, slot(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM slot WHERE k < 4)
     SELECT ${uuidSql("activityContact", "5 * n + k")}, ${uuidSql("task", "5 * n + k")}, ${uuidSql("contact", "n")}, ${at("-864000")}, ${at("-864000")} FROM seq JOIN slot`,
  );
  add(
    "comments",
    `INSERT INTO comments (id, task_id, person_id, body, created_at, updated_at)
     ${CONTACT_RANGE}, slot(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM slot WHERE k < 4)
     SELECT ${uuidSql("comment", "5 * n + k")}, ${uuidSql("task", "5 * n + k")}, ${uuidSql("person", "2 * n")}, 'Left a message, will call back.',
       ${at("-86400")}, ${at("-86400")}
     FROM seq JOIN slot WHERE ${hash("5 * n + k", 10, 4)} = 0`,
  );
  add(
    "task tags",
    `INSERT OR IGNORE INTO task_tags (task_id, name)
     ${CONTACT_RANGE}, slot(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM slot WHERE k < 4)
     SELECT ${uuidSql("task", "5 * n + k")}, ${pick(TAGS, hash("5 * n + k", 11, TAGS.length))} FROM seq JOIN slot WHERE ${hash("5 * n + k", 12, 5)} = 0`,
  );
  return statements;
}

/** Ids and values the scenarios need, computed the same way as the rows. */
export const benchIds = {
  viewer: uuid("user", 1),
  lists: Array.from({ length: LIST_COUNT }, (_, i) => uuid("accountList", i + 1)),
  /** The viewer reads lists 1 and 2 (user) and 3 (coach). */
  viewerLists: [1, 2, 3].map((i) => uuid("accountList", i)),
  contact: (n: number) => uuid("contact", n),
};
