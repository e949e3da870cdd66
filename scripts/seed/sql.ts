/**
 * Turns rows into idempotent SQL: `INSERT OR IGNORE` multi-row statements, chunked so that each statement
 * stays well under D1's 100 KB statement limit. Values are written as literals (the file binds no parameters).
 */

export type SqlValue = string | number | boolean | null | undefined | object;
export type Row = Record<string, SqlValue>;

const MAX_ROWS_PER_STATEMENT = 200;
const MAX_STATEMENT_BYTES = 90_000;
const encoder = new TextEncoder();

export function sqlLiteral(value: SqlValue): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return `'${text.replaceAll("'", "''")}'`;
}

export class SqlWriter {
  private readonly statements: string[] = [];

  /** Inserts rows, ignoring those whose primary or unique key already exists. Columns are the union of the rows' keys. */
  insert(table: string, rows: Row[]): void {
    if (rows.length === 0) return;
    const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
    // Identifiers are quoted: some columns are keywords ("primary").
    const head = `INSERT OR IGNORE INTO "${table}" (${columns.map((column) => `"${column}"`).join(", ")}) VALUES\n`;
    let tuples: string[] = [];
    let bytes = encoder.encode(head).length;
    const flush = () => {
      if (tuples.length === 0) return;
      this.statements.push(`${head}${tuples.join(",\n")};`);
      tuples = [];
      bytes = encoder.encode(head).length;
    };
    for (const row of rows) {
      const tuple = `(${columns.map((column) => sqlLiteral(row[column])).join(", ")})`;
      const size = encoder.encode(tuple).length + 2;
      if (tuples.length >= MAX_ROWS_PER_STATEMENT || bytes + size > MAX_STATEMENT_BYTES) flush();
      tuples.push(tuple);
      bytes += size;
    }
    flush();
  }

  raw(statement: string): void {
    this.statements.push(statement.trim().endsWith(";") ? statement.trim() : `${statement.trim()};`);
  }

  comment(text: string): void {
    this.statements.push(`-- ${text}`);
  }

  toString(): string {
    return `${this.statements.join("\n\n")}\n`;
  }
}
