/**
 * A person's name as a contact merge compares it, in SQL: first and last name, each with its white space taken out
 * and lower-cased as JavaScript's `toLowerCase()` does (every letter of every script, İ to two characters, capital
 * sigma by its place in the word), joined by `|`. Names in ASCII take SQLite's `lower()`; others are taken apart a
 * character at a time and lower-cased through the runtime's own case data (case-folds.ts).
 */
import { sql, type SQL } from "drizzle-orm";
import { CASE_IGNORABLE, CASED, LOWER_MULTIPLE, LOWER_RUNS, WHITESPACE } from "./case-folds";

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Whether code point `u` is in the ranges (1 or 0; D1 holds an expression to a hundred levels, so not a chain of ORs). */
const inRanges = (u: string, ranges: Array<[number, number]>) =>
  `CASE ${ranges.map(([first, last]) => `WHEN ${first === last ? `${u} = ${first}` : `${u} BETWEEN ${first} AND ${last}`} THEN 1`).join(" ")} ELSE 0 END`;

/** `text` without the characters `\s` matches. */
const withoutSpaces = (text: string) => WHITESPACE.reduce((expression, cp) => `replace(${expression}, char(${cp}), '')`, text);

/** The lower case of character `c`, code point `u`, other than capital sigma. */
function lowerOf(c: string, u: string): string {
  const multiple = LOWER_MULTIPLE.map(([cp, lower]) => `WHEN ${u} = ${cp} THEN ${literal(lower)}`);
  const runs = LOWER_RUNS.map(([first, last, step, shift]) => {
    const range = first === last ? `${u} = ${first}` : `${u} BETWEEN ${first} AND ${last}${step === 2 ? ` AND (${u} - ${first}) % 2 = 0` : ""}`;
    return `WHEN ${range} THEN char(${u} + ${shift})`;
  });
  return `CASE WHEN ${u} < 128 THEN lower(${c}) ${[...multiple, ...runs].join(" ")} ELSE ${c} END`;
}

/**
 * The SQL of the names, from `parts` (`id, part, s`: each part of a name, its spaces out): the characters of the
 * names that are not ASCII, each with its case properties; capital sigma is final (ς) when a cased letter comes
 * before it past any case-ignorable characters and none comes after it the same way.
 */
const NAMES = `chars(id, part, s, p, c, u) AS (
      SELECT id, part, s, 1, substr(s, 1, 1), unicode(substr(s, 1, 1)) FROM parts WHERE s GLOB '*[^ -~]*'
      UNION ALL SELECT id, part, s, p + 1, substr(s, p + 1, 1), unicode(substr(s, p + 1, 1)) FROM chars WHERE p < length(s)),
    classed AS (SELECT id, part, p, c, u, ${inRanges("u", CASED)} AS cased, ${inRanges("u", CASE_IGNORABLE)} AS ignorable FROM chars),
    lowered AS (SELECT id, part, p, CASE WHEN u = 931 THEN CASE
        WHEN (SELECT b.cased FROM classed b WHERE b.id = x.id AND b.part = x.part AND b.p < x.p AND NOT b.ignorable ORDER BY b.p DESC LIMIT 1)
          AND NOT COALESCE((SELECT a.cased FROM classed a WHERE a.id = x.id AND a.part = x.part AND a.p > x.p AND NOT a.ignorable ORDER BY a.p LIMIT 1), 0)
        THEN char(962) ELSE char(963) END
      ELSE ${lowerOf("c", "u")} END AS c FROM classed x),
    names AS (
      SELECT id, part, lower(s) AS name FROM parts WHERE NOT s GLOB '*[^ -~]*'
      UNION ALL SELECT id, part, group_concat(c, '' ORDER BY p) FROM lowered GROUP BY id, part)`;

/**
 * A SELECT of `id, name` for the people `where` picks (SQL over `people`): the name as the merge compares it.
 */
export function personNamesSelect(where: SQL): SQL {
  const part = (n: number, column: string) => sql.raw(`SELECT id, ${n} AS part, ${withoutSpaces(`COALESCE(${column}, '')`)} AS s FROM people WHERE `);
  return sql`WITH RECURSIVE parts AS (${part(0, "first_name")}${where} UNION ALL ${part(1, "last_name")}${where}), ${sql.raw(NAMES)}
    SELECT f.id, f.name || '|' || l.name AS name FROM names f JOIN names l ON l.id = f.id AND l.part = 1 WHERE f.part = 0`;
}
