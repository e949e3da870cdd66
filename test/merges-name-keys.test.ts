/**
 * A contact merge compares its people's names in SQL (src/resources/merges/name-key.ts) exactly as JavaScript's
 * `replace(/\s+/g, "")` and `toLowerCase()` do: the case data is the Worker's own, and names of every script,
 * İ, final sigma and white space of every kind come out the same.
 */
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { CASE_IGNORABLE, CASED, LOWER_MULTIPLE, LOWER_RUNS, WHITESPACE } from "../src/resources/merges/case-folds";
import { personNamesSelect } from "../src/resources/merges/name-key";

const jsKey = (first: string, last: string | null) => [first, last].map((part) => (part ?? "").replace(/\s+/g, "").toLowerCase()).join("|");

function* codePoints() {
  for (let cp = 0; cp <= 0x10ffff; cp++) if (cp < 0xd800 || cp > 0xdfff) yield cp;
}

describe("the names a contact merge compares", () => {
  it("are built from the Worker's own case data", () => {
    const lower = new Map<number, string>();
    for (const [first, last, step, shift] of LOWER_RUNS) for (let cp = first; cp <= last; cp += step || 1) lower.set(cp, String.fromCodePoint(cp + shift));
    for (const [cp, text] of LOWER_MULTIPLE) lower.set(cp, text);
    const inRanges = (ranges: Array<[number, number]>) => {
      const set = new Set<number>();
      for (const [first, last] of ranges) for (let cp = first; cp <= last; cp++) set.add(cp);
      return set;
    };
    const [cased, ignorable, spaces] = [inRanges(CASED), inRanges(CASE_IGNORABLE), new Set(WHITESPACE)];
    const wrong: string[] = [];
    for (const cp of codePoints()) {
      const c = String.fromCodePoint(cp);
      const expected = cp === 0x3a3 ? c : c.toLowerCase();
      if ((lower.get(cp) ?? c) !== expected) wrong.push(`lower ${cp.toString(16)}`);
      if (/\p{Cased}/u.test(c) !== cased.has(cp)) wrong.push(`cased ${cp.toString(16)}`);
      if (/\p{Case_Ignorable}/u.test(c) !== ignorable.has(cp)) wrong.push(`ignorable ${cp.toString(16)}`);
      if (/\s/.test(c) !== spaces.has(cp)) wrong.push(`space ${cp.toString(16)}`);
    }
    expect(wrong.slice(0, 20)).toEqual([]);
  });

  it("come out of SQL as JavaScript makes them", async () => {
    const names: Array<[string, string | null]> = [
      ["John", "Doe"],
      [" jOHN ", " doe\t"],
      ["Mary Ann", null],
      ["JOSÉ", "NÚÑEZ"],
      ["İlker", "ÖZTÜRK"],
      ["ΟΔΟΣ", "ΣΑΣ"],
      ["Σ", "ΑΣ'"],
      ["Α'Σ", "ΑΣ̈Β"],
      ["ΣΑ", "Α.Σ."],
      ["ДМИТРИЙ", "ЁЛКИН"],
      ["Ǆemal", "ǅ"],
      ["\u00a0Anne\u3000", "Lee\u2028\ufeff"],
      ["𐐀𐐁", "ⰀⰁ"],
      ["Ⅻ", "ǈ"],
      ["'quoted'", "a|b"],
      ["", ""],
      ["ẞ", "ﬀ"],
    ];
    const rows = sql`SELECT CAST(key AS TEXT) AS id, value ->> '$[0]' AS first_name, value ->> '$[1]' AS last_name FROM json_each(${JSON.stringify(names)})`;
    const query = sql`WITH people AS (${rows}) SELECT * FROM (${personNamesSelect(sql`1 = 1`)})`;
    const { sql: text, params } = new SQLiteAsyncDialect().sqlToQuery(query);
    const { results } = await env.DB.prepare(text).bind(...params).all<{ id: string; name: string }>();
    const byId = new Map(results.map((row) => [row.id, row.name]));
    expect(names.map((_, n) => byId.get(String(n)))).toEqual(names.map(([first, last]) => jsKey(first, last)));
  });
});
