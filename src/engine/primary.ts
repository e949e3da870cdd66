/**
 * "One primary per owner" (a person's e-mail addresses, phone numbers, websites; a contact's addresses): marking
 * a record primary unmarks its siblings in the same batch, so no reader ever sees two. A historic record is never
 * primary: it stays listed as history but no longer answers as the one to use.
 */
import { getTableColumns, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { q } from "../db/sql";
import type { BatchStatement, RequestContext, ResourceHooks, Row } from "./define";

export interface PrimaryRule {
  /** The flag attribute (`primary`, `primary_mailing_address`) and its column. */
  attribute: string;
  column: SQLiteColumn;
  /** The column naming the owner whose records share one primary. */
  owner: SQLiteColumn;
  idColumn: SQLiteColumn;
  /** The attribute that, set true, makes the record history (and so not primary). */
  historic?: string;
}

/** A historic record sent as primary, or a primary record made historic, ends up not primary. */
function demoteHistoric(rule: PrimaryRule, values: Row): void {
  if (rule.historic && values[rule.historic] === true) values[rule.attribute] = false;
}

/** Unmarks the owner's other records; runs after the record's own insert or update, reading its owner from it. */
function unmarkSiblings(rule: PrimaryRule, id: string, values: Row, ctx: RequestContext): BatchStatement[] {
  if (values[rule.attribute] !== true) return [];
  const table = rule.column.table as SQLiteTable;
  const ownerOfThis = sql`(SELECT ${q(rule.owner)} FROM ${table} WHERE ${q(rule.idColumn)} = ${id})`;
  return [
    ctx.db
      .update(table)
      .set({ [propertyKey(rule.column)]: false } as never)
      .where(sql`${rule.owner} = ${ownerOfThis} AND ${rule.idColumn} <> ${id} AND ${rule.column} = 1`) as unknown as BatchStatement,
  ];
}

function propertyKey(column: SQLiteColumn): string {
  return Object.entries(getTableColumns(column.table as SQLiteTable)).find(([, c]) => c === column)![0];
}

/** The hooks that keep one primary per owner. */
export function onePrimaryHooks(rule: PrimaryRule): Required<Pick<ResourceHooks, "beforeCreate" | "beforeUpdate" | "sideWrites">> {
  return {
    beforeCreate: (values) => demoteHistoric(rule, values),
    beforeUpdate: (values) => demoteHistoric(rule, values),
    sideWrites: (id, values, _input, ctx) => unmarkSiblings(rule, id, values, ctx),
  };
}
