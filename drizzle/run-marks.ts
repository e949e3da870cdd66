/**
 * What lets a list's daily notification run read what changed or came due, not every partner (src/events/run.ts):
 * The marks of a contact or person go with it (the triggers remove them), a list's last run with the list.
 *
 * - `changed_contacts`: contacts whose inputs to a rule changed since the list's last run. Triggers on every table a
 *   rule reads mark the contact inside the statement that writes the row, so no write path can skip it; the run
 *   reads the marks and clears them in the same atomic step as its detection.
 * - `person_days`: each person's birthday and anniversary as `MM-DD` by account list, so that the days coming into
 *   the week ahead are an index range of the list, not a read of its people.
 * - `notification_list_runs`: the day of a list's last run and the types it detected, so that the next run knows
 *   since when to look, and a type turned on since then is looked for in full.
 * - `contacts.last_gift_on`: the date of the contact's latest gift to its list (what the rules call the last gift),
 *   from which `contacts.gift_due_on` (a generated column) is the day the next gift is due: the day a partner
 *   becomes late, or comes within a month of a gift, is a range of that index.
 * - `contacts.gift_months`: the same gifts summed by month (the expected monthly totals' history of each partner).
 *
 * The triggers are declared here and rendered by `runMarkTriggers` (migration 0015 holds them as rendered, and a
 * test checks that the database's triggers are exactly these).
 */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accountLists } from "./account-lists";

export const changedContacts = sqliteTable(
  "changed_contacts",
  {
    contactId: text("contact_id").primaryKey(),
    accountListId: text("account_list_id").notNull(),
  },
  (t) => [index("changed_contacts_account_list_id_idx").on(t.accountListId)],
);

export const personDays = sqliteTable(
  "person_days",
  {
    personId: text("person_id").notNull(),
    /** `birthday` or `anniversary`. */
    kind: text("kind").notNull(),
    accountListId: text("account_list_id").notNull(),
    /** `MM-DD`, as entered (a 02-30 sorts between 02-28 and 03-01, where the rule finds it). */
    monthDay: text("month_day").notNull(),
    // Copies of what the home page's week of birthdays and anniversaries shows and orders by (the person's contact,
    // first name and whether deceased, the contact's status), kept by the same triggers: the week is read from the
    // index alone, a row per person, not a person and a contact each.
    contactId: text("contact_id"),
    firstName: text("first_name"),
    deceased: integer("deceased"),
    contactStatus: text("contact_status"),
  },
  (t) => [
    primaryKey({ columns: [t.personId, t.kind] }),
    index("person_days_account_list_id_month_day_idx").on(t.accountListId, t.kind, t.monthDay, t.firstName, t.personId, t.contactId, t.deceased, t.contactStatus),
  ],
);

export const notificationListRuns = sqliteTable("notification_list_runs", {
  accountListId: text("account_list_id")
    .primaryKey()
    .references(() => accountLists.id, { onDelete: "cascade" }),
  /** The day (UTC) of the list's latest run. */
  ranOn: text("ran_on").notNull(),
  /** The notification type ids that run detected, comma-separated. */
  typeIds: text("type_ids").notNull(),
});

/**
 * A table whose rows are inputs of some rule, and the contacts a row stands for: SQL over the row (`R.`) selecting
 * `(id, account_list_id)` of contacts.
 */
interface Marker {
  table: string;
  contacts: string;
  /** The writes that mark: all three unless said. */
  on?: Array<"INSERT" | "UPDATE" | "DELETE">;
  /** The columns whose update can change a rule's answer; absent: any update. */
  updateOf?: string[];
  /** A condition on the row for marking (SQL over `R.`). */
  when?: string;
}

const contactOf = (column: string) => `SELECT id, account_list_id FROM contacts WHERE id = R.${column}`;

export const MARKERS: Marker[] = [
  { table: "people", contacts: contactOf("contact_id") },
  {
    table: "email_addresses",
    contacts: "SELECT c.id, c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = R.person_id",
  },
  { table: "addresses", contacts: contactOf("contact_id") },
  { table: "contact_donor_accounts", contacts: contactOf("contact_id") },
  {
    // A gift marks the contacts of its donor account in its own list (the rules read gifts to the contact's list).
    table: "donations",
    contacts:
      "SELECT c.id, c.account_list_id FROM contact_donor_accounts x CROSS JOIN contacts c ON c.id = x.contact_id " +
      "WHERE x.donor_account_id = R.donor_account_id AND +c.account_list_id = R.account_list_id",
  },
  {
    table: "tasks",
    contacts: "SELECT c.id, c.account_list_id FROM activity_contacts x JOIN contacts c ON c.id = x.contact_id WHERE x.task_id = R.id",
    // A task's links mark its contacts as it is made and removed.
    on: ["UPDATE"],
    updateOf: ["activity_type", "start_at", "completed_at", "completed"],
  },
  {
    // A task the run made for a notification is the rule's own answer: starting on the run's day, it can only stop
    // the rules that look at tasks, never raise one, so linking it marks nothing (a later edit of it does).
    table: "activity_contacts",
    contacts: contactOf("contact_id"),
    // The task state a link carries (drizzle/task-link-copies.ts) changes with the task, which marks for itself.
    updateOf: ["task_id", "contact_id"],
    when: "NOT EXISTS (SELECT 1 FROM tasks t WHERE t.id = R.task_id AND t.notification_id IS NOT NULL)",
  },
  // A notification cleared or removed may be raised again (one raised is the run's own answer).
  { table: "notifications", contacts: contactOf("contact_id"), on: ["UPDATE", "DELETE"], updateOf: ["cleared"] },
];

const of = (sql: string, row: "NEW" | "OLD") => sql.replace(/\bR\./g, `${row}.`);

function mark(contacts: string, row: "NEW" | "OLD"): string {
  // A mark already there for the same list is left as it is: rewriting it would write its row and index for nothing.
  return `INSERT INTO changed_contacts (contact_id, account_list_id) ${of(contacts, row)}
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;`;
}

function markerTriggers(marker: Marker): string[] {
  const name = `${marker.table}_marks_contacts`;
  const when = (row: "NEW" | "OLD") => (marker.when ? ` WHEN ${of(marker.when, row)}` : "");
  const on = marker.on ?? ["INSERT", "DELETE", "UPDATE"];
  return on.map((event) => {
    if (event === "UPDATE") {
      return `CREATE TRIGGER ${name}_update AFTER UPDATE${marker.updateOf ? ` OF ${marker.updateOf.join(", ")}` : ""} ON ${marker.table}${when("NEW")} BEGIN
  ${mark(marker.contacts, "OLD")}
  ${mark(marker.contacts, "NEW")}
END;`;
    }
    const row = event === "INSERT" ? "NEW" : "OLD";
    return `CREATE TRIGGER ${name}_${event.toLowerCase()} AFTER ${event} ON ${marker.table}${when(row)} BEGIN
  ${mark(marker.contacts, row)}
END;`;
  });
}

const DAYS = [
  ["birthday", "birthday_month", "birthday_day"],
  ["anniversary", "anniversary_month", "anniversary_day"],
] as const;

/** The statements that record a person's days: of row NEW in a trigger, or of every person (`people`). */
function insertDays(row: "NEW" | "people"): string[] {
  const r = row === "people" ? "p" : row;
  const from = row === "people" ? "FROM people p JOIN contacts c ON c.id = p.contact_id WHERE" : `FROM contacts c WHERE c.id = ${r}.contact_id AND`;
  return DAYS.map(
    ([kind, month, day]) => `INSERT INTO person_days (person_id, kind, account_list_id, month_day, contact_id, first_name, deceased, contact_status)
  SELECT ${r}.id, '${kind}', c.account_list_id, printf('%02d-%02d', ${r}.${month}, ${r}.${day}), c.id, ${r}.first_name, ${r}.deceased, c.status ${from} ${r}.${month} BETWEEN 1 AND 12 AND ${r}.${day} BETWEEN 1 AND 31;`,
  );
}

/*
 * The statements below reach a contact's rows through its donor accounts whatever the planner's statistics say
 * (CROSS JOIN fixes the order, `+` keeps the list's index out): without statistics, as on a list database just
 * made, SQLite took the list's index instead and read every contact or gift of the list for each gift written.
 */

/** A gift's month as a JSON path into `gift_months`, and what it adds there. */
const monthPath = (row: "NEW" | "OLD") => `'$."' || substr(${row}.donation_date, 1, 7) || '"'`;
const giftUnits = (row: "NEW" | "OLD") => `COALESCE(${row}.tendered_amount, ${row}.amount)`;

/** A contact's gifts to its own list, as `g` (for a statement updating `contacts`). */
const GIFTS_OF_CONTACT = `FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id`;

/** `last_gift_on` and `gift_months` recomputed for the contacts `which` selects (ids), from their gifts to their own list. */
function recomputeGiving(which: string): string {
  return `UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) ${GIFTS_OF_CONTACT}),
    gift_months = (SELECT json_group_object(month, units) FROM (SELECT substr(g.donation_date, 1, 7) AS month, SUM(COALESCE(g.tendered_amount, g.amount)) AS units
      ${GIFTS_OF_CONTACT} GROUP BY 1))
    WHERE id IN (${which});`;
}

const contactsOfDonor = (row: "NEW" | "OLD") => `SELECT contact_id FROM contact_donor_accounts WHERE donor_account_id = ${row}.donor_account_id`;

/**
 * The triggers that keep `contacts.last_gift_on` and `contacts.gift_months`: a new gift can only move the first
 * later (a statement of its own, so the triggers that follow `last_gift_on` fire only when it moves) and adds to one
 * month of the second; anything else recomputes both.
 */
function lastGiftTriggers(): string[] {
  return [
    `CREATE TRIGGER donations_last_gift_insert AFTER INSERT ON donations BEGIN
  UPDATE contacts SET last_gift_on = NEW.donation_date WHERE id IN (${contactsOfDonor("NEW")}) AND +account_list_id = NEW.account_list_id
    AND (last_gift_on IS NULL OR last_gift_on < NEW.donation_date);
  UPDATE contacts SET gift_months = json_set(COALESCE(gift_months, '{}'), ${monthPath("NEW")}, COALESCE(json_extract(gift_months, ${monthPath("NEW")}), 0) + ${giftUnits("NEW")})
    WHERE id IN (${contactsOfDonor("NEW")}) AND +account_list_id = NEW.account_list_id;
END;`,
    `CREATE TRIGGER donations_last_gift_delete AFTER DELETE ON donations BEGIN
  ${recomputeGiving(contactsOfDonor("OLD"))}
END;`,
    `CREATE TRIGGER donations_last_gift_update AFTER UPDATE OF donation_date, donor_account_id, account_list_id, amount, tendered_amount ON donations BEGIN
  ${recomputeGiving(contactsOfDonor("OLD"))}
  ${recomputeGiving(contactsOfDonor("NEW"))}
END;`,
    `CREATE TRIGGER contact_donor_accounts_last_gift_insert AFTER INSERT ON contact_donor_accounts BEGIN
  ${recomputeGiving("NEW.contact_id")}
END;`,
    `CREATE TRIGGER contact_donor_accounts_last_gift_delete AFTER DELETE ON contact_donor_accounts BEGIN
  ${recomputeGiving("OLD.contact_id")}
END;`,
    `CREATE TRIGGER contact_donor_accounts_last_gift_update AFTER UPDATE OF contact_id, donor_account_id ON contact_donor_accounts BEGIN
  ${recomputeGiving("OLD.contact_id")}
  ${recomputeGiving("NEW.contact_id")}
END;`,
    // The rules count a contact's gifts to its own list: another list's gifts become the contact's.
    `CREATE TRIGGER contacts_last_gift_move AFTER UPDATE OF account_list_id ON contacts BEGIN
  ${recomputeGiving("NEW.id")}
END;`,
  ];
}

/** A person's columns its days carry or are read from. */
const PERSON_DAY_COLUMNS = ["contact_id", "birthday_month", "birthday_day", "anniversary_month", "anniversary_day", "first_name", "deceased"];
const changed = (columns: string[]) => columns.map((column) => `OLD.${column} IS NOT NEW.${column}`).join(" OR ");

/** Every trigger that keeps the marks, and the statements that build them from the rows already there. */
export function runMarkTriggers(): string[] {
  return [
    ...insertDays("people"),
    recomputeGiving("SELECT contact_id FROM contact_donor_accounts"),
    ...lastGiftTriggers(),
    // A contact: its own inserts and updates mark it; its removal takes its mark along.
    `CREATE TRIGGER contacts_marks_contacts_insert AFTER INSERT ON contacts BEGIN
  ${mark("SELECT R.id, R.account_list_id", "NEW")}
END;`,
    `CREATE TRIGGER contacts_marks_contacts_update AFTER UPDATE ON contacts BEGIN
  ${mark("SELECT R.id, R.account_list_id", "NEW")}
END;`,
    `CREATE TRIGGER contacts_marks_contacts_delete AFTER DELETE ON contacts BEGIN
  DELETE FROM changed_contacts WHERE contact_id = OLD.id;
END;`,
    ...MARKERS.flatMap(markerTriggers),
    `CREATE TRIGGER people_person_days_insert AFTER INSERT ON people BEGIN
  ${insertDays("NEW").join("\n  ")}
END;`,
    `CREATE TRIGGER people_person_days_update AFTER UPDATE OF ${PERSON_DAY_COLUMNS.join(", ")} ON people WHEN ${changed(PERSON_DAY_COLUMNS)} BEGIN
  DELETE FROM person_days WHERE person_id = OLD.id;
  ${insertDays("NEW").join("\n  ")}
END;`,
    `CREATE TRIGGER people_person_days_delete AFTER DELETE ON people BEGIN
  DELETE FROM person_days WHERE person_id = OLD.id;
END;`,
    `CREATE TRIGGER contacts_person_days_move AFTER UPDATE OF account_list_id, status ON contacts WHEN ${changed(["account_list_id", "status"])} BEGIN
  UPDATE person_days SET account_list_id = NEW.account_list_id, contact_status = NEW.status WHERE person_id IN (SELECT id FROM people WHERE contact_id = NEW.id);
END;`,
  ];
}
