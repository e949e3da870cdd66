/**
 * What merging one person into another writes, as the original's person merge does: the loser's phone numbers,
 * e-mail addresses, social accounts and websites move unless the winner has the same one (moved e-mail addresses
 * and numbers are not primary when the winner has a primary one), family relationships and comments point at the
 * winner, the winner's blank fields are filled from the loser's, and the loser is deleted (what did not move goes
 * with it) and its deletion recorded.
 *
 * The merges of a request's pair are set down first, as `person` steps (drizzle/merge-steps.ts): one, or the people
 * of a contact merge merged by name. The statements here are set-based over them, and write what the merges one
 * after the other, in `rank` order, would: several people merged into one fill its blank fields from the first of
 * them that has the field, and a detail moves from the first of them that has it.
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

/** The steps of kind `kind` of the pair at `position`. */
export const stepsOf = (kind: string, position: number) => sql`(SELECT * FROM merge_steps WHERE kind = ${kind} AND position = ${position})`;

/** Fields filled from the losers merged into the person (`people` of the statement): as the merges in turn fill it. */
function filledFromLosers(position: number): SQL {
  const merged = sql`FROM ${stepsOf("person", position)} AS s JOIN people l ON l.id = s.id WHERE s.target = people.id`;
  const last = sql`(SELECT max(rank) FROM merge_steps WHERE kind = 'person' AND position = ${position} AND target = people.id)`;
  // Each merge keeps the field trimmed when it is not blank, else takes the loser's: the first loser's that is not
  // blank (trimmed by the merges after it), else the last loser's as it is.
  return sql.join(
    FILLED.map((column) => {
      const name = sql.raw(column);
      return sql`${name} = COALESCE(NULLIF(trim(people.${name}), ''),
        (SELECT NULLIF(trim(l.${name}), '') ${merged} AND s.rank < ${last} AND NULLIF(trim(l.${name}), '') IS NOT NULL ORDER BY s.rank LIMIT 1),
        (SELECT l.${name} ${merged} ORDER BY s.rank DESC LIMIT 1))`;
    }),
    sql`, `,
  );
}

/**
 * A detail table's moves: each row of a loser whose detail neither the winner nor a loser before it has, set down
 * first (a row moved is the winner's as the statement that moves the others runs), then moved. A moved row is not
 * primary when the winner had a primary one, or a row moved before it (in the merges' order) was primary.
 */
function detailMoves(position: number, { table, same, primary }: (typeof DETAILS)[number], stamp: MergeStamp): SQL[] {
  const name = sql.identifier(table);
  const kind = sql`${table}`;
  const earlier = sql`SELECT 1 FROM ${name} x JOIN ${stepsOf("person", position)} AS e ON e.id = x.person_id WHERE e.target = s.target AND e.rank < s.rank AND ${sql.raw(same("x", "r"))}`;
  const moved = sql`SELECT ${kind}, ${position}, r.id, s.target, s.rank, r.rowid, ${primary ? sql`r."primary"` : sql`NULL`}
    FROM ${name} r JOIN ${stepsOf("person", position)} AS s ON s.id = r.person_id
    WHERE NOT EXISTS (SELECT 1 FROM ${name} w WHERE w.person_id = s.target AND ${sql.raw(same("w", "r"))}) AND NOT EXISTS (${earlier})`;
  const notPrimary = primary
    ? sql`, "primary" = CASE WHEN EXISTS (SELECT 1 FROM ${name} w WHERE w.person_id = m.target AND w."primary" = 1 AND w.id NOT IN (SELECT id FROM ${stepsOf(table, position)}))
        OR EXISTS (SELECT 1 FROM ${stepsOf(table, position)} AS p WHERE p.target = m.target AND p.state = 1 AND (p.rank, p.ord) < (m.rank, m.ord)) THEN 0 ELSE "primary" END`
    : sql``;
  return [
    sql`INSERT INTO merge_steps (kind, position, id, target, rank, ord, state) ${moved}`,
    sql`UPDATE ${name} SET person_id = m.target${notPrimary}, updated_at = ${stamp.now} FROM ${stepsOf(table, position)} AS m WHERE ${name}.id = m.id`,
  ];
}

/** The statements that merge the people set down for the pair at `position`, in the order they must run. */
export function personMergeStatements(position: number, stamp: MergeStamp): SQL[] {
  const losers = sql`SELECT id FROM merge_steps WHERE kind = 'person' AND position = ${position}`;
  const steps = stepsOf("person", position);
  return [
    sql`UPDATE people SET ${filledFromLosers(position)}, updated_at = ${stamp.now} WHERE id IN (SELECT target FROM merge_steps WHERE kind = 'person' AND position = ${position})`,
    ...DETAILS.flatMap((detail) => detailMoves(position, detail, stamp)),
    sql`UPDATE family_relationships SET person_id = s.target, updated_at = ${stamp.now} FROM ${steps} AS s
      WHERE family_relationships.person_id = s.id AND family_relationships.related_person_id <> s.target`,
    sql`UPDATE family_relationships SET related_person_id = s.target, updated_at = ${stamp.now} FROM ${steps} AS s
      WHERE family_relationships.related_person_id = s.id AND family_relationships.person_id <> s.target`,
    sql`UPDATE comments SET person_id = s.target, updated_at = ${stamp.now} FROM ${steps} AS s WHERE comments.person_id = s.id`,
    recordDeletionsOfListless("Person", people.id, sql`(SELECT account_list_id FROM contacts WHERE contacts.id = people.contact_id)`, sql`id IN (${losers})`, stamp.now, stamp.userId),
    sql`DELETE FROM people WHERE id IN (${losers})`,
  ];
}
