/**
 * How many duplicate pairs a list's Tools menu shows: contacts of the list that share a name, and people of one
 * contact who share a name (or a first name, the other's last name blank), an e-mail address or a phone number
 * (those two only between people of the same gender), as the original's finders pair them. The counts are of pairs,
 * each once, taken from the list's rows as they are.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../../env";
import { rowsOf } from "../../db/statements";

/** A name compared as the finders compare it: trimmed, in lower case, blank as null. */
const comparable = (expression: SQL) => sql`nullif(lower(trim(${expression})), '')`;

/** A phone number's digits alone. */
const digits = (expression: SQL) =>
  sql`nullif(replace(replace(replace(replace(replace(replace(${expression}, ' ', ''), '-', ''), '(', ''), ')', ''), '+', ''), '.', ''), '')`;

const contactPairs = (listId: string) => sql`SELECT coalesce(sum(n * (n - 1) / 2), 0) AS "count" FROM (
  SELECT count(*) AS n FROM contacts WHERE account_list_id = ${listId} AND ${comparable(sql`name`)} IS NOT NULL
  GROUP BY ${comparable(sql`name`)} HAVING count(*) > 1)`;

const fullName = (person: string) => comparable(sql`coalesce(${sql.raw(person)}.first_name, '') || ' ' || coalesce(${sql.raw(person)}.last_name, '')`);
const sameGender = sql`${comparable(sql`a.gender`)} = ${comparable(sql`b.gender`)}`;

/** Pairs of people of the same contact of the list, each pair once whatever number of reasons pair it. */
const peoplePairs = (listId: string) => sql`SELECT count(*) AS "count" FROM people a
  JOIN people b ON b.contact_id = a.contact_id AND a.id < b.id
  JOIN contacts c ON c.id = a.contact_id
  WHERE c.account_list_id = ${listId} AND (
    ${fullName("a")} = ${fullName("b")}
    OR (${comparable(sql`a.first_name`)} = ${comparable(sql`b.first_name`)} AND (${comparable(sql`a.last_name`)} IS NULL OR ${comparable(sql`b.last_name`)} IS NULL))
    OR (${sameGender} AND EXISTS (SELECT 1 FROM email_addresses ea JOIN email_addresses eb ON ${comparable(sql`ea.email`)} = ${comparable(sql`eb.email`)}
      WHERE ea.person_id = a.id AND eb.person_id = b.id))
    OR (${sameGender} AND EXISTS (SELECT 1 FROM phone_numbers pa JOIN phone_numbers pb ON ${digits(sql`pa.number`)} = ${digits(sql`pb.number`)}
      WHERE pa.person_id = a.id AND pb.person_id = b.id))
  )`;

export async function duplicateCounts(db: Database, listId: string): Promise<{ contacts: number; people: number }> {
  const [[contacts], [people]] = await rowsOf(db, [contactPairs(listId), peoplePairs(listId)]);
  return { contacts: Number(contacts?.count ?? 0), people: Number(people?.count ?? 0) };
}
