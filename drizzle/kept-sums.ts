/**
 * Totals kept as rows are written, so that reading a total reads a handful of rows instead of every row it sums:
 * an account list's monthly pledges and designation balances, an appeal's pledges, a list's open tasks by day, and
 * what the home pages and the filter panels count (completed tasks by day, address values, gift amounts,
 * referrers and referrals). Each kind is declared once here; `keptSumTriggers` renders the triggers that keep it
 * (migrations 0014, 0027 and 0029 hold them as rendered, 0001, 0006 and 0008 on list databases, and a test
 * checks that the database's triggers are exactly these). A trigger runs inside the statement that writes
 * the row, so no write path (API, bulk, batch, background, sidepost, import, erasure) can leave a total behind.
 *
 * Amounts are money units (integers of 1/10,000): sums stay exact. Groups keep the raw currency; a blank one ('')
 * is the owner's list currency, resolved when read, so a list that changes currency needs no rewrite here.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const keptSums = sqliteTable(
  "kept_sums",
  {
    kind: text("kind").notNull(),
    /** The account list or appeal the total belongs to. */
    ownerId: text("owner_id").notNull(),
    key1: text("key1").notNull(),
    key2: text("key2").notNull(),
    key3: text("key3").notNull(),
    /** The sum of the amounts, in money units. */
    units: integer("units").notNull(),
    rows: integer("rows").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.ownerId, t.key1, t.key2, t.key3] }),
    // Groups of more than one row: the duplicate finder's repeated names and numbers, without walking the others.
    index("kept_sums_repeated_idx").on(t.kind, t.ownerId, t.key1, t.key2).where(sql`rows > 1`),
  ],
);

export interface KeptSum {
  kind: string;
  table: string;
  /** SQL over the row (as `R.`): whether it counts, its owner, its three group keys and its amount. */
  when: string;
  owner: string;
  keys: [string, string, string];
  amount: string;
  /** The columns whose change can move a row between groups or in or out of the sum. */
  columns: string[];
  /**
   * For a row that carries no list (an address, a referral): its column naming the contact whose list owns it.
   * `owner` is then that contact's list, and the contact's own triggers carry the row's part along when the contact
   * moves to another list or is removed (a removal's cascade reaches the row once the contact is gone, too late
   * to find its list).
   */
  through?: string;
  /** Columns of that contact the keys name (as `C.<column>`): the contact's change of one moves its rows too. */
  contactColumns?: string[];
  /**
   * `through` names a person, not a contact (an e-mail address, a phone number): the contact is the person's
   * (`P.contact_id`, which the keys may name), and the person's own triggers carry the row's part along when the
   * person moves to another contact or is removed, as the contact's do.
   */
  person?: true;
}

/** The activities of the tasks a list's analytics count when completed (src/resources/account-lists/analytics.ts). */
export const COUNTED_ACTIVITIES = [
  "Appointment",
  "Pre Call Letter",
  "Reminder Letter",
  "Support Letter",
  "Thank",
  "Email",
  "Facebook Message",
  "Social Message",
  "Text Message",
  "Call",
  "Talk to In Person",
];

/** The kind of kept rows holding the values of an address column (`address_city`, ...). */
export function addressValuesKind(column: string): string {
  return `address_${column}`;
}

/** The units of time a kind kept by time may be grouped by, with the length of a UTC timestamp's prefix naming one. */
export const TIME_UNITS = { month: 7, day: 10, hour: 13 } as const;
export type TimeUnit = keyof typeof TIME_UNITS;

/** The kind keeping `name` by `unit`: `<name>_by_<unit>`. */
export const keptByTimeKind = (name: string, unit: TimeUnit) => `${name}_by_${unit}`;

/**
 * The kinds keeping rows by the UTC `unit`s of their time `at` (key1, its timestamp's prefix), with two keys of their
 * own (key2, key3).
 */
function keptByTime(name: string, units: TimeUnit[], sum: Omit<TimeKept, "units">): KeptSum[] {
  TIME_KEPT[name] = { ...sum, units };
  const { at, keys, indexed: _indexed, ...rest } = sum;
  return units.map((unit) => ({ ...rest, kind: keptByTimeKind(name, unit), keys: [`substr(${at}, 1, ${TIME_UNITS[unit]})`, ...keys] }));
}

/** A sum kept by time: the units it is kept by, and the row's time `at` (its other fields as a KeptSum's). */
export interface TimeKept extends Omit<KeptSum, "kind" | "keys" | "through" | "contactColumns" | "person"> {
  units: TimeUnit[];
  at: string;
  keys: [string, string];
  /** Conditions true of every row counted that let its rows be read as a range of an index (never kept). */
  indexed?: string;
}

/** The sums kept by time, by name: what their readers need to read the rows themselves where no kept unit fits. */
export const TIME_KEPT: Record<string, TimeKept> = {};

export const KEPT_SUMS: KeptSum[] = [
  {
    // Monthly pledges of a list's financial partners, by currency, frequency and whether received.
    kind: "list_pledges",
    table: "contacts",
    when: "R.status = 'Partner - Financial' AND R.pledge_amount IS NOT NULL",
    owner: "R.account_list_id",
    keys: ["upper(COALESCE(NULLIF(R.pledge_currency, ''), ''))", "COALESCE(R.pledge_frequency, '')", "CAST(R.pledge_received AS TEXT)"],
    amount: "R.pledge_amount",
    columns: ["status", "pledge_amount", "account_list_id", "pledge_currency", "pledge_frequency", "pledge_received"],
  },
  {
    // Balances of a list's active designation accounts, by currency and organization (the salary one is chosen when read).
    kind: "list_balances",
    table: "designation_accounts",
    when: "R.active = 1 AND R.balance IS NOT NULL",
    owner: "R.account_list_id",
    keys: ["upper(COALESCE(NULLIF(R.currency, ''), ''))", "COALESCE(R.organization_id, '')", "''"],
    amount: "R.balance",
    columns: ["active", "balance", "account_list_id", "currency", "organization_id"],
  },
  {
    // An appeal's pledges by status and currency.
    kind: "appeal_pledges",
    table: "pledges",
    when: "R.appeal_id IS NOT NULL",
    owner: "R.appeal_id",
    keys: ["R.status", "upper(COALESCE(NULLIF(R.amount_currency, ''), ''))", "''"],
    amount: "R.amount",
    columns: ["appeal_id", "status", "amount_currency", "amount"],
  },
  // A list's open tasks by the UTC month and day they start: the overdue total is a sum over past months and this
  // month's past days, not a count of tasks.
  openTasksBy("month", 7),
  openTasksBy("day", 10),
  // The same by activity type, for the tasks due by type on the home page (src/resources/tasks/analytics.ts); by
  // year too, so that the years before this one are a row per type each, not twelve.
  openTasksBy("type_year", 4, "COALESCE(R.activity_type, '')"),
  openTasksBy("type_month", 7, "COALESCE(R.activity_type, '')"),
  openTasksBy("type_day", 10, "COALESCE(R.activity_type, '')"),
  {
    // A list's financial partners whose first gift has not come (the home page's commitments).
    kind: "awaiting_first_gift",
    table: "contacts",
    when: "R.status = 'Partner - Financial' AND R.pledge_received = 0",
    owner: "R.account_list_id",
    keys: ["''", "''", "''"],
    amount: "0",
    columns: ["status", "pledge_received", "account_list_id"],
  },
  // A list's partners who may be late, by the UTC month and day their next gift was due and when their pledge
  // began: the events' rule for late (src/events/event-types.ts) read as a sum over due days.
  partnersDueBy("month", 7),
  partnersDueBy("day", 10),
  // The values a list's addresses hold for each place filter, by value: the filter panels' options (one row a value).
  ...["city", "state", "country", "region", "metro_area"].map(addressValues),
  {
    // A list's contacts who referred someone (the panels' referrer options): a row per referrer.
    kind: "referrers",
    table: "contact_referrals",
    through: "referred_by_id",
    when: "1",
    owner: "C.account_list_id",
    // With their name, the option's (read a row each).
    keys: ["R.referred_by_id", "C.name", "''"],
    contactColumns: ["name"],
    amount: "0",
    columns: ["referred_by_id"],
  },
  {
    // A list's referrals by when they were made and whom they referred: a period's referred contacts are a range.
    kind: "referrals_by_time",
    table: "contact_referrals",
    through: "referred_to_id",
    when: "1",
    owner: "C.account_list_id",
    keys: ["R.created_at", "R.referred_to_id", "''"],
    amount: "0",
    columns: ["referred_to_id", "created_at"],
  },
  // A list's completed tasks of the counted activities by the UTC month and day they were completed, activity, and
  // result with whether the next action is an appointment (`<result>|a`, else `<result>|-`): a period's counts are
  // sums over its whole months and days, and only its first and last part days are read from the tasks.
  completedTasksBy("month", 7),
  completedTasksBy("day", 10),
  {
    // A list's gift amounts (the panels' amount options), a row each.
    kind: "donation_amounts",
    table: "donations",
    when: "R.amount IS NOT NULL",
    owner: "R.account_list_id",
    keys: ["CAST(R.amount AS TEXT)", "''", "''"],
    amount: "0",
    columns: ["amount", "account_list_id"],
  },
  {
    // A list's gifts by month, currency and designation account: the reports' monthly totals
    // (src/resources/reports/) are sums over these rows, not over the gifts.
    kind: "donations_by_month",
    table: "donations",
    when: "1",
    owner: "R.account_list_id",
    keys: ["substr(R.donation_date, 1, 7)", "upper(R.currency)", "R.designation_account_id"],
    amount: "R.amount",
    columns: ["donation_date", "currency", "designation_account_id", "amount", "account_list_id"],
  },
  {
    // A list's pledges of every status by currency, frequency and whether received: the pledge histories' totals
    // now, from which a past month's are found by the few contacts that changed or came since.
    kind: "contact_pledges",
    table: "contacts",
    when: "R.pledge_amount > 0",
    owner: "R.account_list_id",
    keys: ["upper(COALESCE(NULLIF(R.pledge_currency, ''), ''))", "COALESCE(R.pledge_frequency, '')", "CAST(R.pledge_received AS TEXT)"],
    amount: "R.pledge_amount",
    columns: ["pledge_amount", "account_list_id", "pledge_currency", "pledge_frequency", "pledge_received"],
  },
  {
    // A list's partner status logs by the day recorded and their contact: the contacts whose pledge changed in a
    // period are a range of these rows, not a look at every contact's logs.
    kind: "status_logs_by_day",
    table: "partner_status_logs",
    through: "contact_id",
    when: "1",
    owner: "C.account_list_id",
    keys: ["R.recorded_on", "R.contact_id", "''"],
    amount: "0",
    columns: ["recorded_on", "contact_id"],
  },
  {
    // A list's referred contacts (at least one referral to them, kept in contacts.referrals_to_me) by status.
    kind: "referred_contacts",
    table: "contacts",
    when: "R.referrals_to_me > 0",
    owner: "R.account_list_id",
    keys: ["COALESCE(R.status, '')", "''", "''"],
    amount: "0",
    columns: ["status", "referrals_to_me", "account_list_id"],
  },
  // What the duplicate finder pairs by (src/resources/duplicates/): a group of more than one row is a candidate.
  {
    // A list's contacts by the name the finder compares (contacts.name_key).
    kind: "contact_name_keys",
    table: "contacts",
    when: "R.name_key IS NOT NULL",
    owner: "R.account_list_id",
    keys: ["R.name_key", "''", "''"],
    amount: "0",
    columns: ["name_key", "account_list_id"],
  },
  {
    // A list's contacts' links to donor accounts, by account number (a donor account's number never changes).
    kind: "donor_numbers",
    table: "contact_donor_accounts",
    through: "contact_id",
    when: "1",
    owner: "C.account_list_id",
    keys: ["(SELECT account_number FROM donor_accounts WHERE id = R.donor_account_id)", "''", "''"],
    amount: "0",
    columns: ["donor_account_id", "contact_id"],
  },
  {
    // A contact's people by full name, its words in order (Jane Doe and Doe Jane are one).
    kind: "person_names",
    table: "people",
    through: "contact_id",
    when: "1",
    owner: "C.account_list_id",
    keys: ["R.contact_id", personNameKey("R.first_name", "R.last_name"), "''"],
    amount: "0",
    columns: ["contact_id", "first_name", "last_name"],
  },
  // A contact's people by e-mail address, and by phone number (two people sharing one are candidates).
  personDetails("person_emails", "email_addresses", "email", emailKey),
  personDetails("person_phones", "phone_numbers", "number", phoneKey),
  {
    // A contact's people by first name (one of two without a last name is the other).
    kind: "person_first_names",
    table: "people",
    through: "contact_id",
    when: "1",
    owner: "C.account_list_id",
    keys: ["R.contact_id", "lower(trim(R.first_name))", "''"],
    amount: "0",
    columns: ["contact_id", "first_name"],
  },
  // What the period reports count over any span of time (src/resources/reports/kept-by-time.ts): rows by the UTC
  // month, day (and hour) of one of their times, so that a period in any time zone is a few whole months and days,
  // and only the hours (or minutes) about its two ends are read finer.
  // A list's tasks by when they were created, activity and whether completed (the activity results).
  ...keptByTime("created_tasks", ["month", "day", "hour"], {
    table: "tasks",
    at: "R.created_at",
    when: "1",
    owner: "R.account_list_id",
    keys: ["COALESCE(R.activity_type, '')", "CAST(R.completed AS TEXT)"],
    amount: "0",
    columns: ["created_at", "activity_type", "completed", "account_list_id"],
  }),
  // A list's appointments by their start, and whether held (completed, with a result of Completed or Done).
  ...keptByTime("appointments", ["month", "day", "hour"], {
    table: "tasks",
    at: "R.start_at",
    when: "R.activity_type = 'Appointment' AND R.start_at IS NOT NULL",
    // A range of the (list, activity type, completed, start) index for each value of `completed`.
    indexed: "R.completed IN (0, 1)",
    owner: "R.account_list_id",
    keys: ["CASE WHEN R.completed = 1 AND R.result IN ('Completed', 'Done') THEN 'held' ELSE '' END", "''"],
    amount: "0",
    columns: ["start_at", "activity_type", "completed", "result", "account_list_id"],
  }),
  // An appeal's pledges by when they were made (a contact pledges to an appeal once): its new pledges in a period.
  ...keptByTime("appeal_pledges_made", ["month", "day"], {
    table: "pledges",
    at: "R.created_at",
    when: "R.appeal_id IS NOT NULL",
    owner: "R.appeal_id",
    keys: ["''", "''"],
    amount: "COALESCE(R.amount, 0)",
    columns: ["created_at", "appeal_id", "amount"],
  }),
  // A list's pledges (as `contact_pledges` keeps them) by when their contact was created: the pledges of contacts
  // created since a past day, which the pledge histories take from the totals now. By month alone: a contact's
  // insert writes one more row, not two, and the days about a period's end are a few contacts read.
  ...keptByTime("contact_pledges_created", ["month"], {
    table: "contacts",
    at: "R.created_at",
    when: "R.pledge_amount > 0",
    owner: "R.account_list_id",
    keys: ["upper(COALESCE(NULLIF(R.pledge_currency, ''), ''))", "COALESCE(R.pledge_frequency, '') || '|' || CAST(R.pledge_received AS TEXT)"],
    amount: "R.pledge_amount",
    columns: ["created_at", "pledge_amount", "account_list_id", "pledge_currency", "pledge_frequency", "pledge_received"],
  }),
  // What the Tools menu counts (src/resources/tools/analytics.ts), kept so that a count reads the records to fix,
  // not the list: contacts by status whose commitment is marked invalid, or whose newsletter choice is blank.
  contactsMarked("contacts_status_invalid", "R.status_valid = 0", ["status_valid"]),
  contactsMarked("contacts_newsletter_blank", "COALESCE(R.send_newsletter, '') = ''", ["send_newsletter"]),
  // A contact's invalid addresses, and its current primary mailing addresses (more than one needs fixing: a group of
  // more than one row, which the partial index of repeated groups holds).
  detailsToFix("addresses_invalid", "addresses", "contact_id", "R.valid = 0", ["valid"]),
  detailsToFix("addresses_primary", "addresses", "contact_id", "R.historic = 0 AND R.primary_mailing_address = 1", ["historic", "primary_mailing_address"]),
  // A person's invalid e-mail addresses and phone numbers, and their primary ones, likewise.
  detailsToFix("emails_invalid", "email_addresses", "person_id", "R.valid = 0", ["valid"]),
  detailsToFix("emails_primary", "email_addresses", "person_id", 'R."primary" = 1', ['"primary"']),
  detailsToFix("phones_invalid", "phone_numbers", "person_id", "R.valid = 0", ["valid"]),
  detailsToFix("phones_primary", "phone_numbers", "person_id", 'R."primary" = 1', ['"primary"']),
];

/** A list's contacts that `when` marks, by status: a count of one status is one kept row. */
function contactsMarked(kind: string, when: string, columns: string[]): KeptSum {
  return { kind, table: "contacts", when, owner: "R.account_list_id", keys: ["COALESCE(R.status, '')", "''", "''"], amount: "0", columns: [...columns, "status", "account_list_id"] };
}

/** The rows of `table` that `when` marks, by the contact or person (`through`) they belong to. */
function detailsToFix(kind: string, table: string, through: "contact_id" | "person_id", when: string, columns: string[]): KeptSum {
  return {
    kind,
    table,
    through,
    ...(through === "person_id" ? { person: true as const } : {}),
    when,
    owner: "C.account_list_id",
    keys: [`R.${through}`, "''", "''"],
    amount: "0",
    columns: [...columns, through],
  };
}

/** A person's full name as the duplicate finder compares it: lower-cased, its two parts in order. */
export function personNameKey(first: string, last: string): string {
  const [f, l] = [`lower(trim(${first}))`, `lower(trim(COALESCE(${last}, '')))`];
  return `CASE WHEN ${l} = '' THEN ${f} WHEN ${f} <= ${l} THEN ${f} || ' ' || ${l} ELSE ${l} || ' ' || ${f} END`;
}

/** An e-mail address as the duplicate finder compares it: lower-cased, its spaces squished. */
export function emailKey(email: string): string {
  return `lower(trim(replace(replace(replace(${email}, char(9), ' '), '  ', ' '), '  ', ' ')))`;
}

/**
 * A phone number as the duplicate finder compares it: its digits, without the separators numbers are written with
 * (SQLite has no pattern replace a trigger could use; a number with letters keeps them, and matches only its like).
 */
export function phoneKey(number: string): string {
  return [" ", "-", "(", ")", ".", "+", "/", "char(9)"].reduce(
    (expression, separator) => `replace(${expression}, ${separator.startsWith("char") ? separator : `'${separator}'`}, '')`,
    number,
  );
}

/** A contact's people by the key `key` of column `column` of their rows in `table`. */
function personDetails(kind: string, table: string, column: string, key: (column: string) => string): KeptSum {
  return {
    kind,
    table,
    through: "person_id",
    person: true,
    when: `${key(`R.${column}`)} > ''`,
    owner: "C.account_list_id",
    keys: ["P.contact_id", key(`R.${column}`), "''"],
    amount: "0",
    columns: ["person_id", column],
  };
}

function completedTasksBy(period: string, length: number): KeptSum {
  return {
    kind: `completed_tasks_by_${period}`,
    table: "tasks",
    when: `R.completed = 1 AND R.completed_at IS NOT NULL AND R.activity_type IN (${COUNTED_ACTIVITIES.map((activity) => `'${activity}'`).join(", ")})`,
    owner: "R.account_list_id",
    keys: [`substr(R.completed_at, 1, ${length})`, "R.activity_type", "COALESCE(R.result, '') || '|' || CASE WHEN R.next_action = 'Appointment' THEN 'a' ELSE '-' END"],
    amount: "0",
    columns: ["completed", "completed_at", "activity_type", "result", "next_action", "account_list_id"],
  };
}

function addressValues(column: string): KeptSum {
  return {
    kind: addressValuesKind(column),
    table: "addresses",
    through: "contact_id",
    when: `R.${column} > ''`,
    owner: "C.account_list_id",
    keys: [`R.${column}`, "''", "''"],
    amount: "0",
    columns: [column, "contact_id"],
  };
}

function partnersDueBy(period: string, length: number): KeptSum {
  return {
    kind: `partners_due_by_${period}`,
    table: "contacts",
    when: "R.status = 'Partner - Financial' AND R.pledge_received = 1 AND R.gift_due_on IS NOT NULL",
    owner: "R.account_list_id",
    keys: [`substr(R.gift_due_on, 1, ${length})`, "COALESCE(R.pledge_start_date, '')", "''"],
    amount: "0",
    // gift_due_on is computed from the last gift and the pledge's frequency.
    columns: ["status", "pledge_received", "last_gift_on", "pledge_frequency", "pledge_start_date", "account_list_id"],
  };
}

function openTasksBy(period: string, length: number, key2 = "''"): KeptSum {
  return {
    kind: `open_tasks_by_${period}`,
    table: "tasks",
    when: "R.completed = 0 AND R.start_at IS NOT NULL",
    owner: "R.account_list_id",
    keys: [`substr(R.start_at, 1, ${length})`, key2, "''"],
    amount: "0",
    columns: ["completed", "start_at", "account_list_id", ...(key2 === "''" ? [] : ["activity_type"])],
  };
}

const of = (sql: string, row: "NEW" | "OLD") => sql.replace(/\bR\./g, `${row}.`);
const bare = (sql: string) => sql.replace(/\bR\./g, "");

/** The owner of row `row`: its list, or its contact's list (NULL once the contact is gone). */
const ownerOf = (sum: KeptSum, row: "NEW" | "OLD") =>
  sum.person
    ? `(SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = ${row}.${sum.through})`
    : sum.through
      ? `(SELECT account_list_id FROM contacts WHERE id = ${row}.${sum.through})`
      : of(sum.owner, row);

/** A key of row `row` whose contact's columns (`C.`) are read from the contact (NULL once it is gone). */
const contactOf = (sql: string, sum: KeptSum, row: "NEW" | "OLD") =>
  sum.person
    ? sql.replace(/\bP\.(\w+)/g, (_, column: string) => `(SELECT ${column} FROM people WHERE id = ${row}.${sum.through})`)
    : sql.replace(/\bC\.(\w+)/g, (_, column: string) => `(SELECT ${column} FROM contacts WHERE id = ${row}.${sum.through})`);

function add(sum: KeptSum, row: "NEW" | "OLD", sign: 1 | -1): string {
  const [k1, k2, k3] = sum.keys.map((key) => contactOf(of(key, row), sum, row));
  const amount = of(sum.amount, row);
  const owner = ownerOf(sum, row);
  const where = `kind = '${sum.kind}' AND owner_id = ${owner} AND key1 = ${k1} AND key2 = ${k2} AND key3 = ${k3}`;
  if (sign === 1) {
    const counted = sum.through ? `${owner} IS NOT NULL AND (${of(sum.when, row)})` : of(sum.when, row);
    return `INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT '${sum.kind}', ${owner}, ${k1}, ${k2}, ${k3}, ${amount}, 1 WHERE ${counted}
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;`;
  }
  // A group whose last row left is removed, so reads never walk empty groups.
  return `UPDATE kept_sums SET units = units - ${amount}, rows = rows - 1 WHERE ${where} AND (${of(sum.when, row)});
  DELETE FROM kept_sums WHERE ${where} AND rows = 0;`;
}

/** The kept rows of `sum` recounted from the rows themselves: what the triggers must always agree with. */
export function keptSumRecount(sum: KeptSum): string {
  if (sum.person) {
    return `SELECT '${sum.kind}', C.account_list_id, ${sum.keys.join(", ")}, SUM(${sum.amount}), count(*)
  FROM ${sum.table} AS R JOIN people AS P ON P.id = R.${sum.through} JOIN contacts AS C ON C.id = P.contact_id WHERE ${sum.when} GROUP BY 2, 3, 4, 5`;
  }
  if (sum.through) {
    return `SELECT '${sum.kind}', C.account_list_id, ${sum.keys.join(", ")}, SUM(${sum.amount}), count(*)
  FROM ${sum.table} AS R JOIN contacts AS C ON C.id = R.${sum.through} WHERE ${sum.when} GROUP BY 2, 3, 4, 5`;
  }
  return `SELECT '${sum.kind}', ${bare(sum.owner)}, ${sum.keys.map(bare).join(", ")}, SUM(${bare(sum.amount)}), count(*)
  FROM ${sum.table} WHERE ${bare(sum.when)} GROUP BY 2, 3, 4, 5`;
}

/** Every row of `sum` that contact `contact` owns through `through` (or its people), added to (or taken from) its list. */
function contactRows(sum: KeptSum, contact: "NEW" | "OLD", sign: 1 | -1): string {
  const rows = sum.person
    ? `FROM ${sum.table} AS R JOIN people AS P ON P.id = R.${sum.through} WHERE P.contact_id = ${contact}.id AND (${sum.when})`
    : `FROM ${sum.table} AS R WHERE R.${sum.through} = ${contact}.id AND (${sum.when})`;
  return groupRows(sum, rows, `${contact}.account_list_id`, sum.keys.map((key) => key.replace(/\bC\./g, `${contact}.`)), sign);
}

/** Every row of `sum` that person `person` owns, added to (or taken from) its contact's list. */
function personRows(sum: KeptSum, person: "NEW" | "OLD", sign: 1 | -1): string {
  const rows = `FROM ${sum.table} AS R WHERE R.${sum.through} = ${person}.id AND (${sum.when})`;
  const list = `(SELECT account_list_id FROM contacts WHERE id = ${person}.contact_id)`;
  return groupRows(sum, rows, list, sum.keys.map((key) => key.replace(/\bP\./g, `${person}.`)), sign);
}

/** The rows `rows` selects, by their keys `keys`, added to (or taken from) the groups of list `list`. */
function groupRows(sum: KeptSum, rows: string, list: string, keys: string[], sign: 1 | -1): string {
  if (sign === 1) {
    return `INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT '${sum.kind}', ${list}, ${keys.join(", ")}, SUM(${sum.amount}), count(*)
    ${rows} GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;`;
  }
  const [k1, k2, k3] = keys;
  const same = `${k1} = kept_sums.key1 AND ${k2} = kept_sums.key2 AND ${k3} = kept_sums.key3`;
  const groups = `kind = '${sum.kind}' AND owner_id = ${list} AND (key1, key2, key3) IN (SELECT ${k1}, ${k2}, ${k3} ${rows})`;
  return `UPDATE kept_sums SET units = units - (SELECT SUM(${sum.amount}) ${rows} AND ${same}), rows = rows - (SELECT count(*) ${rows} AND ${same})
    WHERE ${groups};
  DELETE FROM kept_sums WHERE ${groups} AND rows = 0;`;
}

/** The triggers that keep `sum`, and the statement that builds it from the rows already there. */
export function keptSumTriggers(sum: KeptSum): string[] {
  const name = `${sum.table}_${sum.kind}`;
  const own = [
    `INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  ${keptSumRecount(sum)};`,
    `CREATE TRIGGER ${name}_insert AFTER INSERT ON ${sum.table} BEGIN
  ${add(sum, "NEW", 1)}
END;`,
    `CREATE TRIGGER ${name}_delete AFTER DELETE ON ${sum.table} BEGIN
  ${add(sum, "OLD", -1)}
END;`,
    `CREATE TRIGGER ${name}_update AFTER UPDATE OF ${sum.columns.join(", ")} ON ${sum.table} BEGIN
  ${add(sum, "OLD", -1)}
  ${add(sum, "NEW", 1)}
END;`,
  ];
  if (!sum.through) return own;
  // The contact's rows follow it to another list (and a change of a column they name); before it is removed (its
  // rows' cascade comes after, when their list can no longer be found), they leave its list. A person's rows
  // follow the person likewise.
  const followed = ["account_list_id", ...(sum.contactColumns ?? [])];
  return [
    ...own,
    ...(sum.person ? followingTriggers(sum, "people", ["contact_id"], personRows) : []),
    ...followingTriggers(sum, "contacts", followed, contactRows),
  ];
}

/** The triggers that carry the rows of a `parent` along when `followed` changes, and take them away before it is removed. */
function followingTriggers(sum: KeptSum, parent: string, followed: string[], rows: typeof contactRows): string[] {
  return [
    `CREATE TRIGGER ${parent}_${sum.kind}_move AFTER UPDATE OF ${followed.join(", ")} ON ${parent} WHEN ${followed.map((column) => `OLD.${column} IS NOT NEW.${column}`).join(" OR ")} BEGIN
  ${rows(sum, "OLD", -1)}
  ${rows(sum, "NEW", 1)}
END;`,
    `CREATE TRIGGER ${parent}_${sum.kind}_remove BEFORE DELETE ON ${parent} BEGIN
  ${rows(sum, "OLD", -1)}
END;`,
  ];
}

/**
 * `contacts.referrals_to_me`, the number of referrals to the contact (whether it is a referred contact, which the
 * kind `referred_contacts` counts by status): recounted from the contact's referrals whenever one changes.
 */
const recountReferrals = (row: "NEW" | "OLD") =>
  `UPDATE contacts SET referrals_to_me = (SELECT count(*) FROM contact_referrals WHERE referred_to_id = ${row}.referred_to_id) WHERE id = ${row}.referred_to_id;`;

export function referralCountTriggers(): string[] {
  return [
    `UPDATE contacts SET referrals_to_me = (SELECT count(*) FROM contact_referrals WHERE referred_to_id = contacts.id) WHERE id IN (SELECT referred_to_id FROM contact_referrals);`,
    `CREATE TRIGGER contact_referrals_referrals_to_me_insert AFTER INSERT ON contact_referrals BEGIN
  ${recountReferrals("NEW")}
END;`,
    `CREATE TRIGGER contact_referrals_referrals_to_me_delete AFTER DELETE ON contact_referrals BEGIN
  ${recountReferrals("OLD")}
END;`,
    `CREATE TRIGGER contact_referrals_referrals_to_me_update AFTER UPDATE OF referred_to_id ON contact_referrals BEGIN
  ${recountReferrals("OLD")}
  ${recountReferrals("NEW")}
END;`,
  ];
}
