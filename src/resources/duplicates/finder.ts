/**
 * Finds the duplicate pairs of a list as the original does when a client lists them: contacts whose names read
 * the same (drizzle/duplicates.ts, `contacts.name_key`) or that share a donor account number; people of one contact
 * whose full names are the same, or whose first names are when one of them has no last name, or who share an
 * e-mail address or a phone number. The first reason
 * that pairs a record wins, each record is paired with the next of its group in the order they were made, and a
 * record is in at most one pair not ignored. A pair marked `ignore` stays: it is never offered again.
 *
 * Candidates are read from the kept rows that count each name and number (drizzle/kept-sums.ts) through their
 * index of groups of more than one row: a list's rows read are its repeated names and numbers and their records,
 * never its whole contacts. New pairs are written in one statement that checks, as it writes, that neither record
 * is already paired (keys in D1, whatever finder runs at the same time). A list whose inputs have not changed since
 * the finder last ran on it (`duplicate_checks`, drizzle/duplicates.ts) is not looked at again.
 */
import { sql, type SQL } from "drizzle-orm";
import { emailKey, personNameKey, phoneKey } from "../../../drizzle/kept-sums";
import { randomUuid } from "../../db/sql";
import { rowsOf, type Rows } from "../../db/statements";
import type { Database } from "../../env";
import { CONTACT_RECORDS, PERSON_RECORDS } from "./resource";

export const SIMILAR_NAMES = "Similar names";
export const SAME_DONOR_NUMBER = "Same donor account number";
export const SIMILAR_EMAILS = "Similar email addresses";
export const SIMILAR_PHONES = "Similar phone numbers";

/** At most this many records of one group are compared (a name shared by hundreds pairs its first ones). */
const GROUP_LIMIT = 20;

type Candidate = { list: string; id: string; created: string; grp: string; reason: string; blank_last?: number; gender?: string | null };

/** Contacts of repeated names, then of repeated donor numbers. */
function contactCandidates(lists: string): SQL {
  return sql`SELECT c.account_list_id AS list, c.id, c.created_at AS created, 'n:' || k.key1 AS grp, ${SIMILAR_NAMES} AS reason
      FROM kept_sums k JOIN contacts c ON c.account_list_id = k.owner_id AND c.name_key = k.key1
      WHERE k.kind = 'contact_name_keys' AND k.owner_id IN (SELECT value FROM json_each(${lists})) AND k.rows > 1
    UNION ALL
    SELECT c.account_list_id, c.id, c.created_at, 'd:' || k.key1, ${SAME_DONOR_NUMBER}
      FROM kept_sums k JOIN donor_accounts d ON d.account_number = k.key1 JOIN contact_donor_accounts x ON x.donor_account_id = d.id
      JOIN contacts c ON c.id = x.contact_id AND c.account_list_id = k.owner_id
      WHERE k.kind = 'donor_numbers' AND k.owner_id IN (SELECT value FROM json_each(${lists})) AND k.rows > 1`;
}

/**
 * People of one contact with the same full name, then with the same first name, then sharing an e-mail address,
 * then a phone number (only the people of the repeated groups, and only their own addresses and numbers, are read).
 */
function personCandidates(lists: string): SQL {
  const key = sql.raw(personNameKey("p.first_name", "p.last_name"));
  const repeated = (kinds: string) => sql`k.kind IN (${sql.raw(kinds)}) AND k.owner_id IN (SELECT value FROM json_each(${lists})) AND k.rows > 1`;
  const columns = sql`k.owner_id AS list, p.id, p.created_at AS created, k.kind || ':' || k.key1 || ':' || k.key2 AS grp`;
  return sql`SELECT ${columns}, ${SIMILAR_NAMES} AS reason, COALESCE(trim(p.last_name), '') = '' AS blank_last, p.gender
      FROM kept_sums k JOIN people p ON p.contact_id = k.key1
        AND (CASE k.kind WHEN 'person_names' THEN ${key} ELSE lower(trim(p.first_name)) END) = k.key2
      WHERE ${repeated("'person_names', 'person_first_names'")}
    UNION ALL
    SELECT ${columns}, ${SIMILAR_EMAILS}, 0, p.gender
      FROM kept_sums k JOIN people p ON p.contact_id = k.key1
      WHERE ${repeated("'person_emails'")} AND EXISTS (SELECT 1 FROM email_addresses e WHERE e.person_id = p.id AND ${sql.raw(emailKey("e.email"))} = k.key2)
    UNION ALL
    SELECT ${columns}, ${SIMILAR_PHONES}, 0, p.gender
      FROM kept_sums k JOIN people p ON p.contact_id = k.key1
      WHERE ${repeated("'person_phones'")} AND EXISTS (SELECT 1 FROM phone_numbers n WHERE n.person_id = p.id AND ${sql.raw(phoneKey("n.number"))} = k.key2)`;
}

/**
 * Whether two records of one group may be paired: two first names alike are one person only when one of them has
 * no last name; people sharing an address or a number are one only when both genders are given and equal (a
 * couple often shares them).
 */
function pairable(first: Candidate, second: Candidate): boolean {
  if (first.grp.startsWith("person_first_names")) return Boolean(first.blank_last) || Boolean(second.blank_last);
  if (first.reason === SIMILAR_EMAILS || first.reason === SIMILAR_PHONES) {
    const gender = (candidate: Candidate) => candidate.gender?.trim().toLowerCase() ?? "";
    return gender(first) !== "" && gender(first) === gender(second);
  }
  return true;
}

const KINDS = [
  { records: CONTACT_RECORDS, candidates: contactCandidates },
  { records: PERSON_RECORDS, candidates: personCandidates },
];

type Pair = [list: string, type: string, one: string, two: string, reason: string];

/**
 * The pairs to add: per group (names before numbers), its records in the order they were made, each paired with
 * the next free one it is not already paired with; a record already in a pair not ignored is not free.
 */
function proposedPairs(model: string, candidates: Candidate[], stored: Array<{ one: string; two: string; ignore: number }>): Pair[] {
  const paired = new Set(stored.filter((pair) => !pair.ignore).flatMap((pair) => [pair.one, pair.two]));
  const known = new Set(stored.map((pair) => `${pair.one}|${pair.two}`));
  const groups = new Map<string, Candidate[]>();
  for (const candidate of candidates) groups.set(candidate.grp, [...(groups.get(candidate.grp) ?? []), candidate]);
  const pairs: Pair[] = [];
  const older = (a: Candidate, b: Candidate) => (a.created < b.created || (a.created === b.created && a.id < b.id) ? -1 : 1);
  for (const group of groups.values()) {
    const members = [...new Map(group.map((member) => [member.id, member])).values()].sort(older).slice(0, GROUP_LIMIT);
    for (const [index, first] of members.entries()) {
      if (paired.has(first.id)) continue;
      const second = members.slice(index + 1).find((other) => !paired.has(other.id) && !known.has(`${first.id}|${other.id}`) && pairable(first, other));
      if (!second) continue;
      paired.add(first.id).add(second.id);
      pairs.push([first.list, model, first.id, second.id, first.reason]);
    }
  }
  return pairs;
}

/** Each list's count of changes to the finder's inputs, and the count it last ran on. */
const checksOf = (lists: string) =>
  sql`SELECT l.value AS list, COALESCE(d.inputs, 0) AS inputs, COALESCE(d.checked, -1) AS checked
    FROM json_each(${lists}) l LEFT JOIN duplicate_checks d ON d.account_list_id = l.value`;

/** The lists of `checks` whose inputs changed since the finder last ran on them. */
const changedLists = (checks: Rows) => checks.filter((check) => Number(check.inputs) !== Number(check.checked)).map((check) => String(check.list));

/**
 * Finds and stores the new pairs of both kinds in these lists (all on `db`), those whose inputs changed since it
 * last ran: one look at the lists' checks, then one read and one write where some changed.
 */
export async function findDuplicatePairs(db: Database, accountListIds: string[], now: string): Promise<void> {
  if (accountListIds.length === 0) return;
  const [checks] = await rowsOf(db, [checksOf(JSON.stringify(accountListIds))]);
  await findInChanged(db, changedLists(checks), now);
}

/** The finder's run over the lists whose inputs changed: one read, and one write. */
async function findInChanged(db: Database, changed: string[], now: string): Promise<void> {
  if (changed.length === 0) return;
  const lists = JSON.stringify(changed);
  // The checks are read again with the candidates, in one snapshot: what the pairs are found from.
  const reads = [checksOf(lists), ...KINDS.flatMap(({ records, candidates }) => [
    candidates(lists),
    // The lists' stored pairs of the kind, ignored or not: fewer than the candidates they pair (reading only the
    // candidates' pairs would find the candidates a second time).
    sql`SELECT record_one_id AS one, record_two_id AS two, ignore FROM duplicate_record_pairs
      WHERE account_list_id IN (SELECT value FROM json_each(${lists})) AND record_type = ${records.model}`,
  ])];
  const [checked, ...rows] = await rowsOf(db, reads);
  const pairs = KINDS.flatMap(({ records }, index) =>
    proposedPairs(records.model, rows[2 * index] as Candidate[], rows[2 * index + 1] as Array<{ one: string; two: string; ignore: number }>),
  );
  // The inputs the pairs were found from, as checked (never back to an older count: a later run may have written its
  // own), once every pair found is stored: a pair another run's took the place of leaves its records to look at again.
  const pairsFound = JSON.stringify(pairs);
  const checkedNow = sql`INSERT INTO duplicate_checks (account_list_id, inputs, checked) SELECT c.value ->> 0, 0, c.value ->> 1
    FROM json_each(${JSON.stringify(checked.map((check) => [check.list, Number(check.inputs)]))}) c
    WHERE (SELECT count(*) FROM json_each(${pairsFound}) p JOIN duplicate_record_pairs s
      ON s.record_type = p.value ->> 1 AND s.record_one_id = p.value ->> 2 AND s.record_two_id = p.value ->> 3 AND s.ignore = 0) = ${pairs.length}
    ON CONFLICT (account_list_id) DO UPDATE SET checked = max(checked, excluded.checked)`;
  await rowsOf(db, [
    ...(pairs.length === 0
      ? []
      : [
          sql`INSERT OR IGNORE INTO duplicate_record_pairs (id, account_list_id, record_type, record_one_id, record_two_id, reason, ignore, created_at, updated_at)
            SELECT ${randomUuid()},
              p.value ->> 0, p.value ->> 1, p.value ->> 2, p.value ->> 3, p.value ->> 4, 0, ${now}, ${now}
            FROM json_each(${pairsFound}) p
            WHERE NOT EXISTS (SELECT 1 FROM duplicate_record_pairs s WHERE s.record_type = p.value ->> 1 AND s.ignore = 0
              AND (s.record_one_id IN (p.value ->> 2, p.value ->> 3) OR s.record_two_id IN (p.value ->> 2, p.value ->> 3)))`,
        ]),
    checkedNow,
  ]);
}

/**
 * The pairs not ignored in these lists (all on `db`), found first as a client listing them would find them: for
 * the tools' badge counts (the number the original's merge pages show).
 */
export async function countDuplicatePairs(db: Database, accountListIds: string[], now: string): Promise<{ contacts: number; people: number }> {
  const lists = JSON.stringify(accountListIds);
  const pairsOf = sql`SELECT record_type AS type, count(*) AS pairs FROM duplicate_record_pairs
    WHERE account_list_id IN (SELECT value FROM json_each(${lists})) AND ignore = 0 GROUP BY record_type`;
  // The checks and the count together: where no list changed since the finder's last look, the count stands.
  const [checks, counted] = await rowsOf(db, [checksOf(lists), pairsOf]);
  const changed = changedLists(checks);
  await findInChanged(db, changed, now);
  const [rows] = changed.length === 0 ? [counted] : await rowsOf(db, [pairsOf]);
  const count = (model: string) => Number(rows.find((row) => row.type === model)?.pairs ?? 0);
  return { contacts: count(CONTACT_RECORDS.model), people: count(PERSON_RECORDS.model) };
}
