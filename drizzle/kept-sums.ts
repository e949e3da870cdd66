/**
 * Totals kept as rows are written, so that reading a total reads a handful of rows instead of every row it sums:
 * an account list's monthly pledges and designation balances, an appeal's pledges, and a list's open tasks by day. Each kind is declared
 * once here; `keptSumTriggers` renders the triggers that keep it (migration 0014 holds them as rendered, and a
 * test checks that the database's triggers are exactly these). A trigger runs inside the statement that writes
 * the row, so no write path (API, bulk, batch, background, sidepost, import, erasure) can leave a total behind.
 *
 * Amounts are money units (integers of 1/10,000): sums stay exact. Groups keep the raw currency; a blank one ('')
 * is the owner's list currency, resolved when read, so a list that changes currency needs no rewrite here.
 */
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

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
  (t) => [primaryKey({ columns: [t.kind, t.ownerId, t.key1, t.key2, t.key3] })],
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
}

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
];

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

function add(sum: KeptSum, row: "NEW" | "OLD", sign: 1 | -1): string {
  const [k1, k2, k3] = sum.keys.map((key) => of(key, row));
  const amount = of(sum.amount, row);
  const where = `kind = '${sum.kind}' AND owner_id = ${of(sum.owner, row)} AND key1 = ${k1} AND key2 = ${k2} AND key3 = ${k3}`;
  if (sign === 1) {
    return `INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT '${sum.kind}', ${of(sum.owner, row)}, ${k1}, ${k2}, ${k3}, ${amount}, 1 WHERE ${of(sum.when, row)}
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;`;
  }
  // A group whose last row left is removed, so reads never walk empty groups.
  return `UPDATE kept_sums SET units = units - ${amount}, rows = rows - 1 WHERE ${where} AND (${of(sum.when, row)});
  DELETE FROM kept_sums WHERE ${where} AND rows = 0;`;
}

/** The kept rows of `sum` recounted from the rows themselves: what the triggers must always agree with. */
export function keptSumRecount(sum: KeptSum): string {
  return `SELECT '${sum.kind}', ${bare(sum.owner)}, ${sum.keys.map(bare).join(", ")}, SUM(${bare(sum.amount)}), count(*)
  FROM ${sum.table} WHERE ${bare(sum.when)} GROUP BY 2, 3, 4, 5`;
}

/** The triggers that keep `sum`, and the statement that builds it from the rows already there. */
export function keptSumTriggers(sum: KeptSum): string[] {
  const name = `${sum.table}_${sum.kind}`;
  return [
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
}
