/**
 * Pairs of records of one account list that may be the same contact or person (src/resources/duplicates/): found
 * when a client lists them, kept so that a pair a user marked "not a duplicate" (`ignore`) is never offered again.
 * `record_one_id` is the older record. A record is in at most one pair not ignored: the finder's insert checks it
 * in the statement that writes the pair.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accountLists } from "./account-lists";
import { bool, id, timestamps } from "./columns";

export const duplicateRecordPairs = sqliteTable(
  "duplicate_record_pairs",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    /** `Contact` or `Person`, the original's model names. */
    recordType: text("record_type").notNull(),
    recordOneId: text("record_one_id").notNull(),
    recordTwoId: text("record_two_id").notNull(),
    reason: text("reason").notNull(),
    ignore: bool("ignore").notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("duplicate_record_pairs_records_unique").on(t.recordType, t.recordOneId, t.recordTwoId),
    index("duplicate_record_pairs_record_two_id_idx").on(t.recordTwoId),
    index("duplicate_record_pairs_account_list_id_created_at_idx").on(t.accountListId, t.recordType, t.ignore, t.createdAt, t.id),
  ],
);

/**
 * Whether a list's pairs are as the finder would find them now: `inputs` counts the changes to what it reads (kept
 * by `duplicateInputTriggers`), `checked` is the count it last ran on (-1: never). Where the two agree, a count of
 * the pairs (the Tools menu, on every page of the web app) reads the stored pairs and never runs the finder. A list
 * without a row has never been looked at.
 */
export const duplicateChecks = sqliteTable("duplicate_checks", {
  accountListId: text("account_list_id").primaryKey(),
  inputs: integer("inputs").notNull().default(0),
  checked: integer("checked").notNull().default(-1),
});

/** The kept groups the finder pairs by (drizzle/kept-sums.ts); only groups of more than one row are read. */
export const DUPLICATE_KINDS = ["contact_name_keys", "donor_numbers", "person_names", "person_first_names", "person_emails", "person_phones"];

/**
 * The triggers that count a list's changes to what its finder reads: its repeated groups (a group of more than one
 * row before or after the change), its people's genders, blank last names and its records' ages (which decide who
 * pairs with whom), and its stored pairs changed or removed (a pair ignored frees its records). Pairs added are the
 * finder's own.
 */
export function duplicateInputTriggers(): string[] {
  const changed = (list: string) =>
    `INSERT INTO duplicate_checks (account_list_id, inputs, checked) SELECT ${list}, 1, -1 WHERE ${list} IS NOT NULL
    ON CONFLICT (account_list_id) DO UPDATE SET inputs = inputs + 1;`;
  const blankLast = (row: "NEW" | "OLD") => `(COALESCE(trim(${row}.last_name), '') = '')`;
  const repeated = (row: "NEW" | "OLD") => `${row}.kind IN (${DUPLICATE_KINDS.map((kind) => `'${kind}'`).join(", ")}) AND ${row}.rows > 1`;
  const trigger = (name: string, event: string, when: string, list: string) => `CREATE TRIGGER ${name} ${event} WHEN ${when} BEGIN
  ${changed(list)}
END;`;
  return [
    trigger("kept_sums_duplicate_inputs_insert", "AFTER INSERT ON kept_sums", repeated("NEW"), "NEW.owner_id"),
    trigger("kept_sums_duplicate_inputs_update", "AFTER UPDATE ON kept_sums", `(${repeated("NEW")}) OR (${repeated("OLD")})`, "NEW.owner_id"),
    trigger("kept_sums_duplicate_inputs_delete", "AFTER DELETE ON kept_sums", repeated("OLD"), "OLD.owner_id"),
    // A last name left blank (or filled) pairs two of a first name, and changes no group of more than one row.
    trigger(
      "people_duplicate_inputs_update",
      "AFTER UPDATE OF gender, created_at, last_name ON people",
      `OLD.gender IS NOT NEW.gender OR OLD.created_at IS NOT NEW.created_at OR ${blankLast("OLD")} IS NOT ${blankLast("NEW")}`,
      "(SELECT account_list_id FROM contacts WHERE id = NEW.contact_id)",
    ),
    trigger("contacts_duplicate_inputs_update", "AFTER UPDATE OF created_at ON contacts", "OLD.created_at IS NOT NEW.created_at", "NEW.account_list_id"),
    trigger("duplicate_record_pairs_duplicate_inputs_update", "AFTER UPDATE ON duplicate_record_pairs", "1", "NEW.account_list_id"),
    trigger("duplicate_record_pairs_duplicate_inputs_delete", "AFTER DELETE ON duplicate_record_pairs", "1", "OLD.account_list_id"),
  ];
}

/**
 * A contact's name as the duplicate finder compares it, in SQL over the row's `name`: lower-cased, punctuation as
 * spaces, the first of a couple ("Doe, John and Jane" is John Doe), then last name and first given name, whichever
 * way round it was written ("Doe, John H." and "John H. Doe" are both "doe john"). An organization's name (a church,
 * a foundation...) is compared whole. Blank names have none.
 */
export function contactNameKey(name: string): string {
  const squish = (expression: string) => `trim(replace(replace(replace(${expression}, '   ', ' '), '  ', ' '), '  ', ' '))`;
  const words = squish(`' ' || replace(replace(replace(replace(replace(lower(${name}), '.', ' '), '&', ' and '), '/', ' '), '-', ' '), ',', ' , ') || ' '`);
  return `(SELECT CASE
    WHEN n = '' OR n = ',' THEN NULL
    WHEN ${ORGANIZATION_WORDS.map((word) => `instr(' ' || n || ' ', ' ${word} ') > 0`).join(" OR ")} THEN replace(n, ' ,', '')
    WHEN instr(p, ',') > 0 THEN trim(substr(p, 1, instr(p, ',') - 1)) || ' ' || ${firstWord("trim(substr(p, instr(p, ',') + 1))")}
    WHEN instr(p, ' ') = 0 THEN p
    ELSE substr(p, length(rtrim(p, replace(p, ' ', ''))) + 1) || ' ' || ${firstWord("p")}
  END FROM (SELECT n, trim(CASE WHEN instr(n, ' and ') > 0 THEN substr(n, 1, instr(n, ' and ') - 1) ELSE n END) AS p FROM (SELECT ${words} AS n)))`;
}

const firstWord = (text: string) => `substr(${text} || ' ', 1, instr(${text} || ' ', ' ') - 1)`;

/** Words that make a name an organization's, not a person's. */
const ORGANIZATION_WORDS = ["church", "inc", "ministry", "ministries", "foundation", "university", "college", "school", "company", "corporation", "llc", "fellowship", "association", "society", "mission", "missions", "trust", "fund", "bank", "chapel"];

/**
 * A pair whose record is removed, or leaves the pair's list (a contact moved to another list, a person to another
 * contact), is removed with it: the finder never reads the pairs to find the stale ones.
 */
export function duplicatePairTriggers(): string[] {
  const remove = (type: string, row: string) =>
    `DELETE FROM duplicate_record_pairs WHERE record_type = '${type}' AND record_one_id = ${row}.id;
  DELETE FROM duplicate_record_pairs WHERE record_two_id = ${row}.id AND record_type = '${type}';`;
  // Each kind of record, and the column that puts it in its list.
  const records = [
    { table: "contacts", type: "Contact", parent: "account_list_id" },
    { table: "people", type: "Person", parent: "contact_id" },
  ];
  return records.flatMap(({ table, type, parent }) => [
    `CREATE TRIGGER ${table}_duplicate_pairs_delete AFTER DELETE ON ${table} BEGIN
  ${remove(type, "OLD")}
END;`,
    `CREATE TRIGGER ${table}_duplicate_pairs_move AFTER UPDATE OF ${parent} ON ${table} WHEN OLD.${parent} IS NOT NEW.${parent} BEGIN
  ${remove(type, "OLD")}
END;`,
  ]);
}

/**
 * The triggers that keep `contacts.name_key` from `name` (a generated column cannot hold the subqueries that name
 * the key's parts), and the statement that fills it for the contacts already there. Migration `duplicate_keys`
 * holds them as rendered; a test checks that the database's triggers are exactly these.
 */
export function contactNameKeyTriggers(): string[] {
  const keep = "UPDATE contacts SET name_key = " + contactNameKey("NEW.name") + " WHERE id = NEW.id AND name_key IS NOT " + contactNameKey("NEW.name") + ";";
  return [
    `UPDATE contacts SET name_key = ${contactNameKey("contacts.name")};`,
    `CREATE TRIGGER contacts_name_key_insert AFTER INSERT ON contacts BEGIN
  ${keep}
END;`,
    `CREATE TRIGGER contacts_name_key_update AFTER UPDATE OF name, name_key ON contacts BEGIN
  ${keep}
END;`,
  ];
}
