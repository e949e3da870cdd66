/**
 * Pairs of records of one account list that may be the same contact or person (src/resources/duplicates/): found
 * when a client lists them, kept so that a pair a user marked "not a duplicate" (`ignore`) is never offered again.
 * `record_one_id` is the older record. A record is in at most one pair not ignored: the finder's insert checks it
 * in the statement that writes the pair.
 */
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
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
