/**
 * Values compared as SQLite orders them, for orders put together in code (pages merged from several databases,
 * a to-many linkage sorted by its keys).
 */

/** SQLite's order of storage classes: NULL, then numbers, then text, then blobs. */
function storageClass(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return 1;
  if (typeof value === "string") return 2;
  return 3;
}

/**
 * Text as SQLite's BINARY collation compares it: by UTF-8 bytes, which is the order of code points. JavaScript
 * strings are UTF-16: they compare the same unit by unit, but for a surrogate (half of a code point past U+FFFF),
 * which sorts after every other unit in code point order, above U+E000..U+FFFF too. Compared in place: panels
 * and merges compare tens of thousands of names.
 */
function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const left = a.charCodeAt(index);
    const right = b.charCodeAt(index);
    if (left !== right) return codePointRank(left) - codePointRank(right);
  }
  return a.length - b.length;
}

/** A UTF-16 unit's place in code point order: surrogates moved above U+E000..U+FFFF, the rest kept in order. */
const codePointRank = (unit: number) => (unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit);

/** Two values in SQLite's order: by storage class, then numbers by value and text by BINARY collation. */
export function compareValues(a: unknown, b: unknown): number {
  const classes = storageClass(a) - storageClass(b);
  if (classes !== 0) return classes;
  if (a === null || a === undefined) return 0;
  if (typeof a === "string") return compareText(a, b as string);
  return Number(a) - Number(b);
}


/** Two order keys (a value per term, ascending), compared term by term as SQLite orders them. */
export function compareKeys(a: readonly unknown[], b: readonly unknown[]): number {
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const compared = compareValues(a[index], b[index]);
    if (compared !== 0) return compared;
  }
  return 0;
}
