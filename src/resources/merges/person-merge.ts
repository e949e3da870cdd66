/**
 * What merging one person into another writes, as the original's person merge does: the loser's phone numbers,
 * e-mail addresses, social accounts and websites move unless the winner has the same one (moved e-mail addresses
 * and numbers are not primary when the winner has a primary one), family relationships and comments point at the
 * winner, the winner's blank fields are filled from the loser's, and the loser is deleted (what did not move goes
 * with it) and its deletion recorded. Set-based statements, run in the merge's atomic batch.
 */
import { sql, type SQL } from "drizzle-orm";
import { recordDeletionsOfListless } from "../../engine/deletions";
import { people } from "../../../drizzle/schema";
import type { MergeStamp } from "./contact-merge";

const FILLED = [
  "first_name",
  "last_name",
  "middle_name",
  "title",
  "suffix",
  "gender",
  "marital_status",
  "birthday_day",
  "birthday_month",
  "birthday_year",
  "anniversary_day",
  "anniversary_month",
  "anniversary_year",
];

/** A phone number's digits, as the original compares numbers. */
const digits = (number: string) => ["' '", "'-'", "'('", "')'", "'+'", "'.'"].reduce((text, character) => `replace(${text}, ${character}, '')`, number);

/** A detail table of a person, and how two of its rows are the same detail. */
const DETAILS: Array<{ table: string; same: (winner: string, loser: string) => string; primary?: boolean }> = [
  { table: "phone_numbers", same: (w, l) => `${digits(`${w}.number`)} = ${digits(`${l}.number`)}`, primary: true },
  { table: "email_addresses", same: (w, l) => `lower(trim(${w}.email)) = lower(trim(${l}.email))`, primary: true },
  { table: "facebook_accounts", same: (w, l) => `${w}.username IS ${l}.username` },
  { table: "linkedin_accounts", same: (w, l) => `${w}.public_url IS ${l}.public_url` },
  { table: "twitter_accounts", same: (w, l) => `${w}.screen_name IS ${l}.screen_name` },
  { table: "websites", same: (w, l) => `${w}.url = ${l}.url` },
];

/** The statements that merge person `loser` into person `winner`, in the order they must run. */
export function personMergeStatements(winner: string, loser: string, stamp: MergeStamp): SQL[] {
  const moves = DETAILS.map(({ table, same, primary }) => {
    const name = sql.identifier(table);
    // A moved detail is not the primary one when the winner has a primary one.
    const notPrimary = primary ? sql`, "primary" = CASE WHEN EXISTS (SELECT 1 FROM ${name} w WHERE w.person_id = ${winner} AND w."primary" = 1) THEN 0 ELSE "primary" END` : sql``;
    return sql`UPDATE ${name} SET person_id = ${winner}${notPrimary}, updated_at = ${stamp.now}
      WHERE person_id = ${loser} AND NOT EXISTS (SELECT 1 FROM ${name} w WHERE w.person_id = ${winner} AND ${sql.raw(same("w", table))})`;
  });
  const filled = FILLED.map((column) => `${column} = COALESCE(NULLIF(trim(people.${column}), ''), l.${column})`).join(", ");
  return [
    sql`UPDATE people SET ${sql.raw(filled)}, updated_at = ${stamp.now} FROM (SELECT * FROM people WHERE id = ${loser}) AS l WHERE people.id = ${winner}`,
    ...moves,
    sql`UPDATE family_relationships SET person_id = ${winner}, updated_at = ${stamp.now} WHERE person_id = ${loser} AND related_person_id <> ${winner}`,
    sql`UPDATE family_relationships SET related_person_id = ${winner}, updated_at = ${stamp.now} WHERE related_person_id = ${loser} AND person_id <> ${winner}`,
    sql`UPDATE comments SET person_id = ${winner}, updated_at = ${stamp.now} WHERE person_id = ${loser}`,
    recordDeletionsOfListless("Person", people.id, sql`(SELECT account_list_id FROM contacts WHERE contacts.id = people.contact_id)`, sql`id = ${loser}`, stamp.now, stamp.userId),
    sql`DELETE FROM people WHERE id = ${loser}`,
  ];
}
