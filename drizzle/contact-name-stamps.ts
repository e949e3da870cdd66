/**
 * A stamp per account list that changes whenever any of its contacts' ids, names or list changes: the tasks' filter
 * panel names every contact of a list (tens of thousands of options, megabytes of JSON), and keeps that text in the
 * edge cache under the stamp it was read with (src/read/filter-panels.ts). Triggers set a new random stamp inside
 * the statement that writes the contact, so no write path can leave a cached text that no longer matches; a random
 * stamp never comes back, so a list moved away and back, or a row removed and made again, cannot meet an old text.
 * A list with no stamp (none of its contacts written since this table came) is read, never cached.
 */
import { sqliteTable, text } from "drizzle-orm/sqlite-core";

export const contactNameStamps = sqliteTable("contact_name_stamps", {
  accountListId: text("account_list_id").primaryKey(),
  stamp: text("stamp").notNull(),
});

/** SQL for a new stamp: 64 random bits. */
const NEW_STAMP = "lower(hex(randomblob(8)))";

const restamp = (list: string) =>
  `INSERT INTO contact_name_stamps (account_list_id, stamp) VALUES (${list}, ${NEW_STAMP}) ON CONFLICT (account_list_id) DO UPDATE SET stamp = excluded.stamp;`;

/** The triggers that keep the stamps, and the statement that stamps the lists whose contacts are already there. */
export function contactNameStampTriggers(): string[] {
  return [
    `INSERT INTO contact_name_stamps (account_list_id, stamp) SELECT account_list_id, ${NEW_STAMP} FROM contacts GROUP BY account_list_id;`,
    `CREATE TRIGGER contacts_name_stamp_insert AFTER INSERT ON contacts BEGIN
  ${restamp("NEW.account_list_id")}
END;`,
    `CREATE TRIGGER contacts_name_stamp_update AFTER UPDATE OF id, name, account_list_id ON contacts WHEN OLD.id IS NOT NEW.id OR OLD.name IS NOT NEW.name OR OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  ${restamp("OLD.account_list_id")}
  ${restamp("NEW.account_list_id")}
END;`,
    `CREATE TRIGGER contacts_name_stamp_delete AFTER DELETE ON contacts BEGIN
  ${restamp("OLD.account_list_id")}
END;`,
  ];
}
