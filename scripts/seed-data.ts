/**
 * The demo database, as SQL. Three users (Alice, Bob, and Carol who coaches Alice's main list), three account
 * lists (Alice: a USD list of ~300 contacts and a small CAD one; Bob: a GBP list of 60), and everything the
 * API serves around them: designation accounts in several currencies, donor accounts, three years of
 * donations, appeals with pledges in every status, tasks, notification preferences, invites and announcements.
 *
 * Everything is deterministic: ids are hashes of names (or of a list and a row's position), random choices
 * come from PRNGs seeded by name, and dates are relative to REFERENCE_DATE (2026-11-01) rather than to the
 * wall clock, so the same data comes out on every machine and every day. Tasks "overdue" and "upcoming" are
 * relative to that date too: against the real clock, upcoming tasks turn overdue as time passes. Pass
 * another `referenceDate` to build the data around another day: users, lists, contacts, appeals and tasks
 * keep their ids, while the donation history (which depends on the dates) differs.
 *
 * The SQL is idempotent (INSERT OR IGNORE) and binds no parameters; statements stay under D1's 100 KB.
 */
import { CANADA_PLACES, EUROPE_PLACES, ORG, UK_PLACES, US_PLACES } from "./seed/catalog";
import { generateAccountList } from "./seed/account-list";
import { Clock } from "./seed/clock";
import { Dataset } from "./seed/dataset";
import { addAnnouncements, addCurrencyRates, addOrganizations, notificationTypeIds as stableNotificationTypeIds } from "./seed/global";
import { seedId } from "./seed/random";
import { NOTIFICATION_TYPE_KEYS } from "../src/constants/notifications";
import type { ListSpec } from "./seed/types";
import { addUser, type UserSpec, userPersonId } from "./seed/users";

export const REFERENCE_DATE = "2026-11-01";

export const ALICE_ID = seedId("user", "alice@example.org");
export const BOB_ID = seedId("user", "bob@example.org");
export const CAROL_ID = seedId("user", "carol@example.org");
export const ALICE_MAIN_LIST_ID = seedId("account-list", "Alice Anderson Ministry");
export const ALICE_SECOND_LIST_ID = seedId("account-list", "Alice Anderson - Canada Project");
export const BOB_LIST_ID = seedId("account-list", "Bob Brown Family Ministry");

const USERS: UserSpec[] = [
  {
    id: ALICE_ID,
    email: "alice@example.org",
    firstName: "Alice",
    lastName: "Anderson",
    gender: "female",
    married: true,
    place: US_PLACES[0],
    timeZone: "America/New_York",
    locale: "en",
    defaultAccountListId: ALICE_MAIN_LIST_ID,
    hourToSendNotifications: 8,
    createdDaysAgo: 1600,
    title: "Mrs.",
    occupation: "Campus ministry staff",
    organizationAccounts: [
      { organizationId: ORG.cruUsa, username: "alice@example.org" },
      { organizationId: ORG.cruCanada, username: "alice.anderson" },
    ],
  },
  {
    id: BOB_ID,
    email: "bob@example.org",
    firstName: "Bob",
    lastName: "Brown",
    gender: "male",
    married: false,
    place: UK_PLACES[0],
    timeZone: "Europe/London",
    locale: "en",
    defaultAccountListId: BOB_LIST_ID,
    hourToSendNotifications: null,
    createdDaysAgo: 1300,
    organizationAccounts: [{ organizationId: ORG.agapeUk, username: "bob.brown" }],
  },
  {
    id: CAROL_ID,
    email: "carol@example.org",
    firstName: "Carol",
    lastName: "Coach",
    gender: "female",
    married: false,
    place: US_PLACES[8],
    timeZone: "America/Chicago",
    locale: "en",
    defaultAccountListId: null,
    hourToSendNotifications: 17,
    createdDaysAgo: 900,
    title: "Dr.",
    occupation: "Ministry coach",
    organizationAccounts: [{ organizationId: ORG.cruUsa, username: "carol@example.org" }],
  },
];

/** The notification types the demo lists have preferences for: every type but those about form subscribers,
 * duplicate merging, yearly thanks and donation-system addresses, which nothing in the demo data would raise. */
const NOT_IN_DEMO = new Set([
  "new_form_subscriber",
  "new_form_subscriber_existing_contact",
  "new_partner_duplicate_merged",
  "new_partner_duplicate_not_merged",
  "thank_partner_once_per_year",
  "new_donation_system_address",
]);
const DEMO_NOTIFICATION_KEYS = NOTIFICATION_TYPE_KEYS.filter((key) => !NOT_IN_DEMO.has(key));

/** Appeal dates are days from the reference date: with 2026-11-01, -670 is 2024-12-31 and +60 is 2026-12-31. */
const LISTS: ListSpec[] = [
  {
    key: "alice-main",
    id: ALICE_MAIN_LIST_ID,
    name: "Alice Anderson Ministry",
    currency: "USD",
    homeCountry: "United States",
    organizationId: ORG.cruUsa,
    ownerId: ALICE_ID,
    ownerPersonId: userPersonId(USERS[0]),
    coachIds: [CAROL_ID],
    monthlyGoalCents: 650_000,
    // 2026-03-01 to 2027-02-28: on MPD at the reference date.
    mpd: { startDays: -245, finishDays: 119, goalCents: 700_000 },
    lastPrayerLetterDays: -17,
    tester: false,
    createdDaysAgo: 1500,
    contactCount: 300,
    places: [[US_PLACES, 85], [CANADA_PLACES, 8], [UK_PLACES, 4], [EUROPE_PLACES, 3]],
    otherCurrency: { currency: "CAD", share: 0.08, places: CANADA_PLACES },
    locales: [["en", 90], ["es", 6], ["fr", 4]],
    designationAccounts: [
      { key: "main", name: "Alice Anderson", number: "0559826", currency: "USD", organizationId: ORG.cruUsa, active: true, balanceCents: 1_245_075, staffAccountId: "000559826" },
      { key: "canada", name: "Alice Anderson (Canada)", number: "1012345", currency: "CAD", organizationId: ORG.cruCanada, active: true, balanceCents: 320_010, staffAccountId: "CA1012345" },
      { key: "old", name: "Anderson Ministry Fund", number: "0449102", currency: "USD", organizationId: ORG.cruUsa, active: false, balanceCents: 15_000, legacyNumber: "449102" },
    ],
    appeals: [
      { key: "year-end-2024", name: "Year-End 2024", amountCents: 1_500_000, description: "Year-end giving for the student ministry.", endDays: -670, windowDays: 75, active: false },
      { key: "year-end-2025", name: "Year-End 2025", amountCents: 2_000_000, description: "Year-end giving for the student ministry.", endDays: -305, windowDays: 75, active: false },
      { key: "summer-2026", name: "Summer Project 2026", amountCents: 500_000, description: "Students serving abroad for the summer.", endDays: -93, windowDays: 120, active: false },
      { key: "christmas-2026", name: "Christmas 2026", amountCents: 2_500_000, description: "Christmas outreach and the January conference.", endDays: 60, windowDays: 70, active: true, primary: true },
    ],
    invites: [
      { key: "dave", email: "dave@example.org", as: "user", state: "pending", daysAgo: 5 },
      { key: "carol", email: "carol@example.org", as: "coach", state: "accepted", acceptedByUserId: CAROL_ID, daysAgo: 122 },
      { key: "erin", email: "erin@example.org", as: "user", state: "cancelled", daysAgo: 40 },
    ],
    notificationTypeKeys: DEMO_NOTIFICATION_KEYS,
    donorNumberBase: 1_000_000,
    // Fixed contacts for demos and tests: a couple named the way clients create one, names whose bytewise
    // order differs from a collation's, a company, a partner giving in another currency, a hidden one.
    showcase: [
      {
        name: "Doe, John and Jane",
        kind: "couple",
        people: [
          { firstName: "John", lastName: "Doe", gender: "male", emails: ["john.doe@example.com"] },
          { firstName: "Jane", lastName: "Doe", gender: "female", emails: ["jane.doe@example.com"] },
        ],
        status: "Partner - Financial",
        pledge: { amountCents: 10_000, frequency: "monthly", startDays: -900 },
        place: US_PLACES[0],
        tags: ["church", "monthly"],
        likelyToGive: "Most Likely",
        sendNewsletter: "Both",
      },
      { name: "Chan, Emily", kind: "single", people: [{ firstName: "Emily", lastName: "Chan", gender: "female" }], status: "Partner - Pray" },
      { name: "Chan, Gene", kind: "single", people: [{ firstName: "Gene", lastName: "Chan", gender: "male" }], status: "Never Contacted" },
      { name: "Chang, Edward", kind: "single", people: [{ firstName: "Edward", lastName: "Chang", gender: "male" }], status: "Partner - Special" },
      {
        name: "Müller, Jürgen and Anna",
        kind: "couple",
        people: [
          { firstName: "Jürgen", lastName: "Müller", gender: "male" },
          { firstName: "Anna", lastName: "Müller", gender: "female" },
        ],
        status: "Partner - Financial",
        pledge: { amountCents: 15_000, currency: "EUR", frequency: "quarterly", startDays: -500 },
        place: EUROPE_PLACES[2],
      },
      {
        name: "de la Cruz, Ana",
        kind: "single",
        people: [{ firstName: "Ana", lastName: "de la Cruz", gender: "female" }],
        status: "Partner - Financial",
        pledge: { amountCents: 2_500, frequency: "weekly", startDays: -300 },
      },
      {
        name: "Grace Community Church",
        kind: "organization",
        status: "Partner - Financial",
        pledge: { amountCents: 50_000, frequency: "quarterly", startDays: -1000 },
        place: US_PLACES[1],
      },
      { name: "Smith, Robert", kind: "single", people: [{ firstName: "Robert", lastName: "Smith", gender: "male" }], status: "Never Ask", noAppeals: true },
      { name: "Zimmerman, Paul", kind: "single", people: [{ firstName: "Paul", lastName: "Zimmerman", gender: "male" }], status: null },
      {
        name: "Okafor, Chidi and Ngozi",
        kind: "couple",
        people: [
          { firstName: "Chidi", lastName: "Okafor", gender: "male" },
          { firstName: "Ngozi", lastName: "Okafor", gender: "female" },
        ],
        status: "Partner - Financial",
        pledge: { amountCents: 7_500, currency: "CAD", frequency: "monthly", startDays: -400 },
        place: CANADA_PLACES[0],
      },
    ],
  },
  {
    key: "alice-canada",
    id: ALICE_SECOND_LIST_ID,
    name: "Alice Anderson - Canada Project",
    currency: "CAD",
    homeCountry: "Canada",
    organizationId: ORG.cruCanada,
    ownerId: ALICE_ID,
    ownerPersonId: userPersonId(USERS[0]),
    coachIds: [],
    monthlyGoalCents: 200_000,
    mpd: null,
    lastPrayerLetterDays: null,
    tester: false,
    createdDaysAgo: 800,
    contactCount: 24,
    places: [[CANADA_PLACES, 90], [US_PLACES, 10]],
    otherCurrency: { currency: "USD", share: 0.2, places: US_PLACES },
    locales: [["en", 70], ["fr", 30]],
    designationAccounts: [
      { key: "main", name: "Canada Project", number: "2034567", currency: "CAD", organizationId: ORG.cruCanada, active: true, balanceCents: 540_000, staffAccountId: "CA2034567" },
      { key: "usd", name: "Canada Project (US gifts)", number: "0661234", currency: "USD", organizationId: ORG.cruUsa, active: true, balanceCents: 82_050 },
      { key: "reserve", name: "Canada Project Reserve", number: "2034500", currency: "CAD", organizationId: ORG.cruCanada, active: false, balanceCents: 7_525 },
    ],
    appeals: [
      { key: "spring-2026", name: "Spring Outreach 2026", amountCents: 300_000, description: "Outreach week on three campuses.", endDays: -150, windowDays: 60, active: false },
      { key: "winter-camp-2026", name: "Winter Camp 2026", amountCents: 400_000, description: "Scholarships for the winter camp.", endDays: 45, windowDays: 60, active: true, primary: true },
    ],
    invites: [{ key: "grace", email: "grace.coach@example.org", as: "coach", state: "pending", daysAgo: 12 }],
    notificationTypeKeys: ["larger_gift", "started_giving", "stopped_giving", "special_gift", "upcoming_birthday"],
    donorNumberBase: 2_000_000,
  },
  {
    key: "bob-main",
    id: BOB_LIST_ID,
    name: "Bob Brown Family Ministry",
    currency: "GBP",
    homeCountry: "United Kingdom",
    organizationId: ORG.agapeUk,
    ownerId: BOB_ID,
    ownerPersonId: userPersonId(USERS[1]),
    coachIds: [],
    monthlyGoalCents: 320_000,
    mpd: { startDays: -60, finishDays: 300, goalCents: 350_000 },
    lastPrayerLetterDays: -40,
    tester: false,
    createdDaysAgo: 1300,
    contactCount: 60,
    places: [[UK_PLACES, 85], [EUROPE_PLACES, 15]],
    otherCurrency: { currency: "EUR", share: 0.12, places: EUROPE_PLACES },
    locales: [["en", 85], ["de", 5], ["nl", 5], ["fr", 5]],
    giftAidCountry: true,
    designationAccounts: [
      { key: "main", name: "Bob Brown", number: "UK100234", currency: "GBP", organizationId: ORG.agapeUk, active: true, balanceCents: 875_040, staffAccountId: "UK100234" },
      { key: "euro", name: "Bob Brown (Euro)", number: "EU200117", currency: "EUR", organizationId: ORG.agapeUk, active: true, balanceCents: 121_000 },
      { key: "old", name: "Brown Family Fund", number: "UK099871", currency: "GBP", organizationId: ORG.agapeUk, active: false, balanceCents: 4_200, legacyNumber: "99871" },
    ],
    appeals: [
      { key: "christmas-2025", name: "Christmas 2025", amountCents: 600_000, description: "Christmas gifts for the city mission.", endDays: -305, windowDays: 60, active: false },
      { key: "christmas-2026", name: "Christmas 2026", amountCents: 800_000, description: "Christmas gifts for the city mission.", endDays: 60, windowDays: 90, active: true, primary: true },
    ],
    invites: [{ key: "frank", email: "frank@example.org", as: "coach", state: "pending", daysAgo: 9 }],
    notificationTypeKeys: DEMO_NOTIFICATION_KEYS.slice(0, 10),
    donorNumberBase: 3_000_000,
  },
];

/** The demo people, as the local OpenID provider of `npm run dev` knows them (scripts/local-oidc-provider.mjs). */
export const DEMO_PEOPLE = USERS.map(({ email, firstName, lastName }) => ({ email, firstName, lastName }));

export interface SeedOptions {
  /** YYYY-MM-DD the data is built around; defaults to REFERENCE_DATE. */
  referenceDate?: string;
}

export function buildSeedSql(options: SeedOptions = {}): string {
  const referenceDate = options.referenceDate ?? REFERENCE_DATE;
  const clock = new Clock(referenceDate);
  const data = new Dataset();

  addOrganizations(data, clock);
  addCurrencyRates(data, clock);
  const notificationTypeIds = stableNotificationTypeIds();
  for (const user of USERS) addUser(data, clock, user);
  for (const list of LISTS) generateAccountList(data, clock, list, notificationTypeIds);
  addAnnouncements(data, clock);

  return data.toSql([`Demo data built around ${referenceDate} by scripts/seed-data.ts (npm run db:seed).`]);
}
