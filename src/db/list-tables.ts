/**
 * The tables an account list owns rows of, read from the schema: those with the list's id, and, through their
 * foreign keys, the rows that hang off those (a contact's people, a person's e-mail addresses, a task's links).
 * Parents come before children, so rows copied in this order always find what they point at. Copying a list to
 * another database, recording what its writes touch meanwhile, and removing it from the old one all read this.
 *
 * Left out: the directory's own rows (memberships, invites, placements), and rows and columns that triggers keep
 * from the others (counts, totals, marks, days, the filter panels' values, a contact's referral count): written on
 * the new database as the rows arrive, and removed with them on the old. Donor accounts are shared between lists: copied when a row of the list points at one, never removed.
 */
import { getTableName, is, sql, type SQL } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../../drizzle/schema";

/** Tables with a list's id that are the directory's, or kept by triggers. */
const NOT_COPIED = new Set(["account_lists", "account_list_users", "account_list_coaches", "account_list_invites", "list_placements", "list_row_counts", "changed_contacts", "person_days", "kept_sums", "moving_lists", "list_changes", "contact_name_stamps", "duplicate_checks"]);
/**
 * Rows triggers keep per list that no key ties to it (a list's counts, its contacts' stamp, its duplicate finder's
 * check): nothing cascades to them, so a list emptied from a database (moved away, erased) removes them itself,
 * after its own rows.
 */
export function keptRowsOfListRemoved(listId: string): SQL[] {
  return ["list_row_counts", "contact_name_stamps", "duplicate_checks"].map((table) => sql`DELETE FROM ${sql.identifier(table)} WHERE account_list_id = ${listId}`);
}

/**
 * Columns that triggers keep from other rows of the list (drizzle/kept-sums.ts): not copied, but counted again on
 * the new database as those rows arrive (a contact's referrals recount its `referrals_to_me`).
 */
const KEPT_COLUMNS = new Set(["contacts.referrals_to_me"]);
/** Rows the list points at but shares with other lists. */
const SHARED = new Set(["donor_accounts"]);

export interface ParentKey {
  column: string;
  table: string;
  references: string;
  /** Whether the row's list is found through this key (the first key to a table of the list). */
  owner: boolean;
}

export interface ListTable {
  name: string;
  table: SQLiteTable;
  /** The columns of its key. */
  key: string[];
  /** The columns copied (generated columns are computed by the database). */
  columns: string[];
  /** Keys to other tables of the list, or to shared rows, that must exist before the row is written. */
  parents: ParentKey[];
  /** SQL that names the list of a row, as seen by a trigger (`NEW` or `OLD`). */
  listOf: (row: string) => string;
  /** A condition selecting the list's rows (bound as `?1`). */
  rowsOfList: string;
}

const tables = (Object.values(schema) as unknown[]).filter((value): value is SQLiteTable => is(value, SQLiteTable));

function describe(table: SQLiteTable) {
  const config = getTableConfig(table);
  const key = config.primaryKeys.length > 0 ? config.primaryKeys[0].columns.map((column) => column.name) : config.columns.filter((column) => column.primary).map((column) => column.name);
  const columns = config.columns
    .filter((column) => !(column as { generated?: unknown }).generated && !KEPT_COLUMNS.has(`${config.name}.${column.name}`))
    .map((column) => column.name);
  const foreignKeys = config.foreignKeys.map((fk) => {
    const reference = fk.reference();
    return { column: reference.columns[0].name, table: getTableName(reference.foreignTable), references: reference.foreignColumns[0].name, cascades: fk.onDelete === "cascade" };
  });
  return { name: config.name, key, columns, hasList: columns.includes("account_list_id"), foreignKeys };
}

function deriveListTables(): ListTable[] {
  const described = tables.map((table) => ({ table, ...describe(table) }));
  const owned = new Map<string, ListTable>();
  const own = (entry: (typeof described)[number], listOf: ListTable["listOf"], rowsOfList: string) =>
    owned.set(entry.name, { name: entry.name, table: entry.table, key: entry.key, columns: entry.columns, parents: [], listOf, rowsOfList });
  // Roots first, then any table whose key points into the list, until nothing more joins.
  for (const entry of described) {
    if (entry.hasList && !NOT_COPIED.has(entry.name)) own(entry, (row) => `${row}.account_list_id`, "account_list_id = ?1");
  }
  for (let added = true; added; ) {
    added = false;
    for (const entry of described) {
      if (owned.has(entry.name) || NOT_COPIED.has(entry.name) || SHARED.has(entry.name) || entry.hasList) continue;
      // Owned through a key whose row takes it along when it goes (a user's person does not own the user).
      const via = entry.foreignKeys.find((fk) => fk.cascades && owned.has(fk.table) && fk.table !== entry.name);
      if (!via) continue;
      const parent = owned.get(via.table)!;
      own(
        entry,
        (row) => `(SELECT ${parent.listOf("P")} FROM ${parent.name} AS P WHERE P.${via.references} = ${row}.${via.column})`,
        `${via.column} IN (SELECT ${via.references} FROM ${parent.name} WHERE ${parent.rowsOfList})`,
      );
      added = true;
    }
  }
  // Every key to a table of the list or to shared rows; the first to the list's tables names the row's list.
  for (const entry of described) {
    const listTable = owned.get(entry.name);
    if (!listTable) continue;
    let ownerFound = entry.hasList;
    listTable.parents = entry.foreignKeys
      .filter((fk) => (owned.has(fk.table) || SHARED.has(fk.table)) && fk.table !== entry.name)
      .map(({ column, table, references, cascades }) => {
        const owner = !ownerFound && cascades && owned.has(table);
        if (owner) ownerFound = true;
        return { column, table, references, owner };
      });
  }
  return order([...owned.values()]);
}

/** Parents before children; a key that closes a cycle (a task's notification) is left to be set after. */
function order(listTables: ListTable[]): ListTable[] {
  const byName = new Map(listTables.map((entry) => [entry.name, entry]));
  const done = new Set<string>();
  const visiting = new Set<string>();
  const sorted: ListTable[] = [];
  const visit = (entry: ListTable) => {
    if (done.has(entry.name) || visiting.has(entry.name)) return;
    visiting.add(entry.name);
    for (const parent of entry.parents) {
      const next = byName.get(parent.table);
      if (next) visit(next);
    }
    visiting.delete(entry.name);
    done.add(entry.name);
    sorted.push(entry);
  };
  for (const entry of listTables) visit(entry);
  return sorted;
}

export const LIST_TABLES: ListTable[] = deriveListTables();

export function listTable(name: string): ListTable | undefined {
  return LIST_TABLES.find((entry) => entry.name === name);
}

/** The table's condition for the list's rows, with the list's id bound wherever it names it. */
export function rowsOfListBound(entry: ListTable, listId: string): SQL {
  const parts = entry.rowsOfList.split("?1");
  return sql.join(parts.map((part, index) => (index < parts.length - 1 ? sql`${sql.raw(part)}${listId}` : sql.raw(part))), sql``);
}

/** The tables that hold the list's id: removing their rows removes the rest through the schema's cascades. */
export const LIST_ROOT_TABLES = () => LIST_TABLES.filter((entry) => entry.rowsOfList === "account_list_id = ?1");

/** SQL naming a row's key as `list_changes.row_key` holds it. */
export function rowKeyOf(entry: ListTable, row: string): string {
  return entry.key.length === 1 ? `${row}.${entry.key[0]}` : `json_array(${entry.key.map((column) => `${row}.${column}`).join(", ")})`;
}

/** A row read from the database, its key as `list_changes.row_key` holds it (what `rowKeyOf` names in SQL). */
export function keyOfRow(entry: ListTable, row: Record<string, unknown>): string {
  return entry.key.length === 1 ? String(row[entry.key[0]]) : JSON.stringify(entry.key.map((column) => row[column]));
}

/** The trigger-side guard: the error D1 answers when a write reaches a list that is switching or has moved away. */
export const LIST_MOVING_ERROR = "LIST_MOVING";

function moveTrigger(entry: ListTable, event: "INSERT" | "UPDATE" | "DELETE"): string {
  const rows = event === "INSERT" ? ["NEW"] : event === "DELETE" ? ["OLD"] : ["NEW", "OLD"];
  // While the old rows are removed, the removal's own updates (a gift's contact recomputed) must pass; an insert
  // there could only come from a request holding the old placement, and would be removed with the rest.
  const refused = event === "INSERT" ? "'switching', 'moved', 'deleting'" : "'switching', 'moved'";
  const refuse = rows.map((row) => `SELECT RAISE(ABORT, '${LIST_MOVING_ERROR}') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = ${entry.listOf(row)} AND state IN (${refused}));`);
  const record = rows.map(
    (row) => `INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, '${entry.name}', ${rowKeyOf(entry, row)} FROM moving_lists WHERE account_list_id = ${entry.listOf(row)} AND state = 'copying';`,
  );
  // A record moving between lists while one of them moves would leave the rows under it behind (only the record
  // itself is recorded): refused until the move is done.
  const rehome =
    event === "UPDATE" && entry.rowsOfList === "account_list_id = ?1"
      ? [`SELECT RAISE(ABORT, '${LIST_MOVING_ERROR}') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));`]
      : [];
  return `CREATE TRIGGER list_moves_${entry.name}_${event.toLowerCase()} BEFORE ${event} ON ${entry.name} WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  ${[...refuse, ...rehome, ...record].join("\n  ")}
END;`;
}

/**
 * The triggers that record a moving list's changes and refuse its writes while it switches (migration 0020). The
 * list's own row is copied as a whole when it switches: only its changes from then on are refused.
 */
export function listMoveTriggers(): string[] {
  return [
    ...LIST_TABLES.flatMap((entry) => (["INSERT", "UPDATE", "DELETE"] as const).map((event) => moveTrigger(entry, event))),
    `CREATE TRIGGER list_moves_account_lists_update BEFORE UPDATE ON account_lists WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, '${LIST_MOVING_ERROR}') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.id AND state IN ('switching', 'moved'));
END;`,
  ];
}
