/**
 * Contacts (the supporters of an account list) with their addresses, tags, referrals and the history of their
 * partner status and pledge.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accountLists } from "./account-lists";
import { bool, id, money, timestamps } from "./columns";
import { users } from "./users";

export const contacts = sqliteTable(
  "contacts",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    // Stored as sent ("Doe, John and Jane"); sorts bytewise.
    name: text("name").notNull(),
    status: text("status"),
    likelyToGive: text("likely_to_give"),
    sendNewsletter: text("send_newsletter"),
    churchName: text("church_name"),
    deceased: bool("deceased").notNull().default(false),
    directDeposit: bool("direct_deposit").notNull().default(false),
    magazine: bool("magazine").notNull().default(false),
    missionaryPagesBanner: bool("missionary_pages_banner").notNull().default(false),
    noAppeals: bool("no_appeals").notNull().default(false),
    noGiftAid: bool("no_gift_aid").notNull().default(false),
    pledgeReceived: bool("pledge_received").notNull().default(false),
    statusValid: bool("status_valid").notNull().default(true),
    // The `contact_type` filter: true answers `company`, false `person`.
    isOrganization: bool("is_organization").notNull().default(false),
    envelopeGreeting: text("envelope_greeting"),
    greeting: text("greeting"),
    lateAt: text("late_at"),
    // Kept by triggers (drizzle/run-marks.ts) for the daily run: the date of the contact's latest gift to its list,
    // and the day the next gift is due by the pledge's period (weekly and every-two-weeks in days, else in months).
    lastGiftOn: text("last_gift_on"),
    // Kept by the same triggers for the expected monthly totals: the contact's gifts to its list summed by month, a
    // JSON object of `YYYY-MM` to money units (each gift's tendered amount, else its amount), so that a partner's
    // giving history is one row read, not their gifts.
    giftMonths: text("gift_months"),
    giftDueOn: text("gift_due_on").generatedAlwaysAs(
      sql.raw(
        "date(last_gift_on, CASE pledge_frequency WHEN '0.23076923076923' THEN '+7 days' WHEN '0.46153846153846' THEN '+14 days' " +
          "ELSE '+' || CAST(CAST(pledge_frequency AS REAL) AS INTEGER) || ' months' END)",
      ),
      { mode: "virtual" },
    ),
    // Kept by triggers (drizzle/kept-sums.ts): how many referrals name the contact as referred, so that the home
    // page's referred contacts are a kept count by status, not a look at every contact's referrals.
    referralsToMe: integer("referrals_to_me").notNull().default(0),
    locale: text("locale"),
    nextAsk: text("next_ask"),
    notes: text("notes"),
    notesSavedAt: text("notes_saved_at"),
    pledgeAmount: money("pledge_amount"),
    pledgeCurrency: text("pledge_currency"),
    // Exactly a key of constants.pledge_frequencies ("1.0", "0.23076923076923"): text so it is answered as stored.
    pledgeFrequency: text("pledge_frequency"),
    pledgeStartDate: text("pledge_start_date"),
    preferredContactMethod: text("preferred_contact_method"),
    relationshipCode: text("relationship_code"),
    source: text("source"),
    starredAt: text("starred_at"),
    timezone: text("timezone"),
    website: text("website"),
    avatar: text("avatar"),
    suggestedChanges: text("suggested_changes", { mode: "json" }).$type<Record<string, unknown>>(),
    // The name as the duplicate finder compares it (drizzle/duplicates.ts), kept from `name` by a trigger.
    nameKey: text("name_key"),
    ...timestamps(),
  },
  // Every list is scoped by account list, so filter and sort columns are indexed behind account_list_id.
  // Sort indexes end with id, the tie-breaker of every list order, so a page is read in index order.
  // Plain booleans (pledge_received, status_valid, no_appeals, is_organization, deceased) are left out: an index
  // that at best halves the rows read is not worth its cost on every write.
  (t) => [
    index("contacts_account_list_id_name_idx").on(t.accountListId, t.name, t.id),
    index("contacts_account_list_id_created_at_idx").on(t.accountListId, t.createdAt, t.id),
    index("contacts_account_list_id_updated_at_idx").on(t.accountListId, t.updatedAt, t.id),
    index("contacts_account_list_id_status_idx").on(t.accountListId, t.status),
    index("contacts_account_list_id_likely_to_give_idx").on(t.accountListId, t.likelyToGive),
    index("contacts_account_list_id_send_newsletter_idx").on(t.accountListId, t.sendNewsletter),
    index("contacts_account_list_id_church_name_idx").on(t.accountListId, t.churchName),
    index("contacts_account_list_id_pledge_amount_idx").on(t.accountListId, t.pledgeAmount),
    index("contacts_account_list_id_pledge_currency_idx").on(t.accountListId, t.pledgeCurrency),
    index("contacts_account_list_id_pledge_frequency_idx").on(t.accountListId, t.pledgeFrequency),
    index("contacts_account_list_id_late_at_idx").on(t.accountListId, t.lateAt),
    // The daily run finds the partners whose gift comes due, and the pledges that come of age, as ranges of days.
    index("contacts_account_list_id_gift_due_on_idx").on(t.accountListId, t.giftDueOn).where(sql`gift_due_on IS NOT NULL`),
    // The pledges that come of age (begun over 30 days ago).
    index("contacts_account_list_id_pledge_start_date_idx").on(t.accountListId, t.pledgeStartDate).where(sql`pledge_start_date IS NOT NULL`),
    index("contacts_account_list_id_next_ask_idx").on(t.accountListId, t.nextAsk),
    index("contacts_account_list_id_locale_idx").on(t.accountListId, t.locale),
    index("contacts_account_list_id_source_idx").on(t.accountListId, t.source),
    index("contacts_account_list_id_timezone_idx").on(t.accountListId, t.timezone),
    index("contacts_account_list_id_starred_at_idx").on(t.accountListId, t.starredAt),
    index("contacts_user_id_idx").on(t.userId),
    index("contacts_account_list_id_name_key_idx").on(t.accountListId, t.nameKey).where(sql`name_key IS NOT NULL`),
  ],
);

/** `location` is one of the constants' assignable_locations (Home, Business, Mailing, ...). */
export const addresses = sqliteTable(
  "addresses",
  {
    id: id(),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    street: text("street"),
    city: text("city"),
    state: text("state"),
    region: text("region"),
    metroArea: text("metro_area"),
    country: text("country"),
    postalCode: text("postal_code"),
    location: text("location"),
    primaryMailingAddress: bool("primary_mailing_address").notNull().default(false),
    historic: bool("historic").notNull().default(false),
    valid: bool("valid").notNull().default(true),
    source: text("source"),
    latitude: real("latitude"),
    longitude: real("longitude"),
    ...timestamps(),
  },
  // Address filters select contact ids by place, current or past: (place, historic, contact_id) answers them from
  // the index alone, without reading each address row for its historic flag.
  (t) => [
    // A contact's addresses in order, from the index alone.
    index("addresses_contact_id_idx").on(t.contactId, t.createdAt, t.id),
    index("addresses_city_idx").on(t.city, t.historic, t.contactId),
    index("addresses_state_idx").on(t.state, t.historic, t.contactId),
    index("addresses_region_idx").on(t.region, t.historic, t.contactId),
    index("addresses_metro_area_idx").on(t.metroArea, t.historic, t.contactId),
    index("addresses_country_idx").on(t.country, t.historic, t.contactId),
    index("addresses_lat_lng_idx").on(t.latitude, t.longitude),
  ],
);

/** referred_by_id referred referred_to_id. */
export const contactReferrals = sqliteTable(
  "contact_referrals",
  {
    id: id(),
    referredById: text("referred_by_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    referredToId: text("referred_to_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("contact_referrals_referred_by_id_referred_to_id_unique").on(t.referredById, t.referredToId),
    index("contact_referrals_referred_to_id_idx").on(t.referredToId),
  ],
);

/** Tag names are stored lower-case; a contact's tag_list is its rows here. */
export const contactTags = sqliteTable(
  "contact_tags",
  {
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
  },
  (t) => [primaryKey({ columns: [t.contactId, t.name] }), index("contact_tags_name_idx").on(t.name, t.contactId)],
);

/**
 * A contact's status and pledge as they were on `recorded_on` (a row per change). The filters
 * pledge_amount_increased_range and the appeal exclusion reasons compare a contact's pledge with its past.
 */
export const partnerStatusLogs = sqliteTable(
  "partner_status_logs",
  {
    id: id(),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    recordedOn: text("recorded_on").notNull(),
    status: text("status"),
    pledgeAmount: money("pledge_amount"),
    pledgeCurrency: text("pledge_currency"),
    pledgeFrequency: text("pledge_frequency"),
    pledgeReceived: bool("pledge_received").notNull().default(false),
    pledgeStartDate: text("pledge_start_date"),
    ...timestamps(),
  },
  (t) => [index("partner_status_logs_contact_id_recorded_on_idx").on(t.contactId, t.recordedOn)],
);
