/** Rows as D1 answers them, keyed by column. */
export type Rows = Array<Record<string, unknown>>;

/** What D1's `first(column?)` answers, from a statement's rows: for wrappers of the binding. */
export function firstOf<T>(rows: Rows, column?: string): T | null {
  const row = rows[0];
  if (!row) return null;
  return (column === undefined ? row : row[column]) as T;
}
