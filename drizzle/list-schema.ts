/**
 * The tables of a list database, for drizzle-kit (drizzle.lists.config.ts, migrations-lists/): every table but the
 * directory's own (announcements, background batches, export logs, identity links, invites, list placements, client ids, currency rate history, record moves, user options). A list database keeps copies of
 * the directory rows its statements join (users with their person and details, memberships, organizations,
 * currency rates), so their tables are here too. The directory holds every table: it may hold lists itself.
 */
export * from "./account-lists";
export * from "./appeals";
export * from "./contacts";
export * from "./contact-name-stamps";
export { currencyRates } from "./currency-rates";
export * from "./deleted-records";
export * from "./designation-accounts";
export * from "./donations";
export * from "./donor-accounts";
export * from "./duplicates";
export * from "./imports";
export * from "./integrations";
export * from "./kept-sums";
export * from "./list-counts";
export * from "./notifications";
export * from "./organizations";
export * from "./people";
export * from "./pledges";
export * from "./run-marks";
export * from "./tasks";
export * from "./users";
export * from "./list-moves";
export * from "./merge-steps";
export * from "./webhooks";
