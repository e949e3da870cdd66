/**
 * Writes src/resources/merges/case-folds.ts: what JavaScript's `toLowerCase()` and `\s` do to each character, as
 * data the merge's SQL compares people's names by (src/resources/merges/name-key.ts). Run it under the runtime's
 * Unicode version when that changes; test/merges-name-keys.test.ts checks the data against the Worker's own.
 *
 *   node scripts/case-folds.mjs
 */
import { writeFileSync } from "node:fs";

const LAST = 0x10ffff;
const chars = function* () {
  for (let cp = 0; cp <= LAST; cp++) if (cp < 0xd800 || cp > 0xdfff) yield [cp, String.fromCodePoint(cp)];
};

/** Ranges of code points a test accepts, as [first, last]. */
function ranges(test) {
  const found = [];
  for (const [cp, char] of chars()) {
    if (!test(char)) continue;
    const last = found.at(-1);
    if (last && last[1] === cp - 1) last[1] = cp;
    else found.push([cp, cp]);
  }
  return found;
}

// Single characters lower-cased to one other: runs of one shift, every character or every other one.
const runs = [];
const multiple = [];
for (const [cp, char] of chars()) {
  const lower = char.toLowerCase();
  if (lower === char || cp === 0x3a3) continue;
  const points = [...lower];
  if (points.length !== 1) {
    multiple.push([cp, lower]);
    continue;
  }
  const shift = points[0].codePointAt(0) - cp;
  const run = runs.at(-1);
  const gap = run ? cp - run[1] : 0;
  if (run && run[3] === shift && (run[2] === 0 ? gap === 1 || gap === 2 : gap === run[2])) {
    run[2] = gap;
    run[1] = cp;
  } else runs.push([cp, cp, 0, shift]);
}

const text = `/**
 * What JavaScript's \`toLowerCase()\` and \`\\s\` do to each character, as data for SQL (written by
 * scripts/case-folds.mjs; test/merges-name-keys.test.ts checks it against the Worker's own). Capital sigma is left
 * out of LOWER_RUNS: it lower-cases by its place in the word (name-key.ts).
 */

/** [first, last, step, shift]: the code points first..last, every \`step\`-th (0: one), lower-case to code point + shift. */
export const LOWER_RUNS: Array<[number, number, number, number]> = ${JSON.stringify(runs.map(([a, b, step, shift]) => [a, b, step === 1 ? 1 : step, shift]))};

/** Code points that lower-case to more than one. */
export const LOWER_MULTIPLE: Array<[number, string]> = ${JSON.stringify(multiple)};

/** Unicode's Cased characters, as [first, last]. */
export const CASED: Array<[number, number]> = ${JSON.stringify(ranges((c) => /\p{Cased}/u.test(c)))};

/** Unicode's Case_Ignorable characters, as [first, last]. */
export const CASE_IGNORABLE: Array<[number, number]> = ${JSON.stringify(ranges((c) => /\p{Case_Ignorable}/u.test(c)))};

/** What \`\\s\` matches. */
export const WHITESPACE: number[] = ${JSON.stringify([...chars()].filter(([, c]) => /\s/.test(c)).map(([cp]) => cp))};
`;
writeFileSync(new URL("../src/resources/merges/case-folds.ts", import.meta.url), text);
