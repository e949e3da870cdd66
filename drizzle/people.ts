/**
 * People and their contact details. A person belongs to a contact, or has a null contact_id and stands for a
 * user (users.person_id). The spouse of a person is another person of the same contact.
 */
import { index, integer, type AnySQLiteColumn, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { bool, id, timestamps } from "./columns";
import { contacts } from "./contacts";

export const people = sqliteTable(
  "people",
  {
    id: id(),
    // Typed as AnySQLiteColumn: contacts -> users -> people closes an import cycle.
    contactId: text("contact_id").references((): AnySQLiteColumn => contacts.id, { onDelete: "cascade" }),
    firstName: text("first_name").notNull(),
    lastName: text("last_name"),
    middleName: text("middle_name"),
    title: text("title"),
    suffix: text("suffix"),
    gender: text("gender"),
    maritalStatus: text("marital_status"),
    birthdayDay: integer("birthday_day"),
    birthdayMonth: integer("birthday_month"),
    birthdayYear: integer("birthday_year"),
    anniversaryDay: integer("anniversary_day"),
    anniversaryMonth: integer("anniversary_month"),
    anniversaryYear: integer("anniversary_year"),
    deceased: bool("deceased").notNull().default(false),
    optoutEnewsletter: bool("optout_enewsletter").notNull().default(false),
    almaMater: text("alma_mater"),
    employer: text("employer"),
    occupation: text("occupation"),
    // The contact's primary person; the spouse is the first other person by position.
    isPrimary: bool("is_primary").notNull().default(false),
    position: integer("position").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    // A contact's people in order, and which is primary, read from the index alone (every contact row of a list
    // page asks for its people, primary person and spouse).
    index("people_contact_id_position_idx").on(t.contactId, t.position, t.createdAt, t.id, t.isPrimary),
    // birthday / anniversary filters match month and day whatever the year.
    index("people_birthday_idx").on(t.birthdayMonth, t.birthdayDay),
    index("people_anniversary_idx").on(t.anniversaryMonth, t.anniversaryDay),
    index("people_alma_mater_idx").on(t.almaMater),
  ],
);

export const emailAddresses = sqliteTable(
  "email_addresses",
  {
    id: id(),
    personId: text("person_id")
      .notNull()
      .references(() => people.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    primary: bool("primary").notNull().default(false),
    historic: bool("historic").notNull().default(false),
    valid: bool("valid").notNull().default(true),
    location: text("location"),
    source: text("source"),
    ...timestamps(),
  },
  (t) => [index("email_addresses_person_id_idx").on(t.personId), index("email_addresses_email_idx").on(t.email)],
);

/** `location` is one of mobile, home, work, other. */
export const phoneNumbers = sqliteTable(
  "phone_numbers",
  {
    id: id(),
    personId: text("person_id")
      .notNull()
      .references(() => people.id, { onDelete: "cascade" }),
    number: text("number").notNull(),
    location: text("location"),
    primary: bool("primary").notNull().default(false),
    historic: bool("historic").notNull().default(false),
    valid: bool("valid").notNull().default(true),
    source: text("source"),
    ...timestamps(),
  },
  (t) => [index("phone_numbers_person_id_idx").on(t.personId)],
);

export const facebookAccounts = sqliteTable(
  "facebook_accounts",
  {
    id: id(),
    personId: text("person_id")
      .notNull()
      .references(() => people.id, { onDelete: "cascade" }),
    username: text("username"),
    ...timestamps(),
  },
  (t) => [index("facebook_accounts_person_id_idx").on(t.personId)],
);

export const linkedinAccounts = sqliteTable(
  "linkedin_accounts",
  {
    id: id(),
    personId: text("person_id")
      .notNull()
      .references(() => people.id, { onDelete: "cascade" }),
    publicUrl: text("public_url"),
    ...timestamps(),
  },
  (t) => [index("linkedin_accounts_person_id_idx").on(t.personId)],
);

export const twitterAccounts = sqliteTable(
  "twitter_accounts",
  {
    id: id(),
    personId: text("person_id")
      .notNull()
      .references(() => people.id, { onDelete: "cascade" }),
    screenName: text("screen_name"),
    primary: bool("primary").notNull().default(false),
    ...timestamps(),
  },
  (t) => [index("twitter_accounts_person_id_idx").on(t.personId)],
);

export const websites = sqliteTable(
  "websites",
  {
    id: id(),
    personId: text("person_id")
      .notNull()
      .references(() => people.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    primary: bool("primary").notNull().default(false),
    ...timestamps(),
  },
  (t) => [index("websites_person_id_idx").on(t.personId)],
);

/** person_id's `relationship` to related_person_id, e.g. "Son", "Mother". */
export const familyRelationships = sqliteTable(
  "family_relationships",
  {
    id: id(),
    personId: text("person_id")
      .notNull()
      .references(() => people.id, { onDelete: "cascade" }),
    relatedPersonId: text("related_person_id")
      .notNull()
      .references(() => people.id, { onDelete: "cascade" }),
    relationship: text("relationship"),
    ...timestamps(),
  },
  (t) => [
    index("family_relationships_person_id_idx").on(t.personId),
    index("family_relationships_related_person_id_idx").on(t.relatedPersonId),
  ],
);
