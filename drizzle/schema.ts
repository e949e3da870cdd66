/** Every table, for drizzle-kit and for the database client. */
export * from "./account-lists";
export * from "./announcements";
export * from "./appeals";
export * from "./background-batches";
export * from "./contacts";
export * from "./currency-rates";
export * from "./designation-accounts";
export * from "./donations";
export * from "./donor-accounts";
export * from "./invites";
export * from "./list-counts";
export * from "./notifications";
export * from "./organizations";
export * from "./people";
export * from "./pledges";
export * from "./tasks";
export * from "./users";
