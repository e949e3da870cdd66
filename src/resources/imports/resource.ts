/**
 * CSV imports of an account list (type `imports`): created by uploading a file (routes.ts), mapped by updates,
 * started by `in_preview: false`. Beside the original's attributes, an import answers its progress and outcome.
 */
import { sql } from "drizzle-orm";
import { failUnless } from "../../db/guard";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { imports } from "../../../drizzle/schema";
import { boolean, derived, stored, withWrite } from "../../engine/attributes";
import { defineResource, type AttributeDef, type BatchStatement, type ParseResult, type RequestContext, type Row } from "../../engine/define";
import { parseTagList } from "../../engine/tags";
import { emptyMany, belongsTo } from "../../engine/relationships";
import { TIMESTAMP } from "../../jsonapi/formats";
import type { FieldError } from "../../jsonapi/errors";
import { mappingErrors } from "./mappings";

/** Mappings are kept as sent (the clients read back what they wrote), up to a size no real mapping comes near. */
const MAX_MAPPING_CHARACTERS = 200_000;

function parseMappingObject(value: unknown): ParseResult {
  if (value === null) return { ok: true, value: {} };
  if (typeof value !== "object" || Array.isArray(value)) return { ok: false, message: "should be a Object" };
  if (JSON.stringify(value).length > MAX_MAPPING_CHARACTERS) return { ok: false, message: `is too long (maximum is ${MAX_MAPPING_CHARACTERS} characters)` };
  return { ok: true, value };
}

/** Tags sent as "a,b" or ["a", "b"], kept as the original keeps them: one comma-separated string. */
function parseImportTags(value: unknown): ParseResult {
  const parsed = parseTagList(value);
  return parsed.ok ? { ok: true, value: (parsed.value as string[]).join(",") } : parsed;
}

const mapping = (column: SQLiteColumn): AttributeDef => withWrite(stored(column), parseMappingObject);
const time = (column: SQLiteColumn): AttributeDef => ({ ...stored(column), schema: { ...TIMESTAMP, type: ["string", "null"] } });

/** The attributes an update may no longer change once the import is queued: its file's rows are being read with them. */
const FIXED_ONCE_STARTED = ["in_preview", "file_headers_mappings", "file_constants_mappings", "tag_list"];

/** Updates that started an import, for the route to queue it once the update is stored. */
export const startedBy = new WeakSet<RequestContext>();

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * `in_preview: false` starts an import whose mappings hold; after that, the mappings and tags stay as they were
 * (sending them again unchanged is fine: clients repeat their last request when it failed in transit).
 */
/** The values of the attributes fixed once started that `values` changes. */
function changedOnceStarted(values: Row, existing: Row): string[] {
  const stored: Record<string, unknown> = {
    in_preview: existing.inPreview,
    file_headers_mappings: existing.fileHeadersMappings,
    file_constants_mappings: existing.fileConstantsMappings,
    tag_list: existing.tagList,
  };
  return FIXED_ONCE_STARTED.filter((name) => name in values && !sameValue(values[name], stored[name]));
}

function beforeUpdate(values: Row, existing: Row, _input: unknown, ctx: RequestContext): FieldError[] {
  if (existing.queuedForImportAt) {
    return changedOnceStarted(values, existing).map((name) => ({ attribute: name, message: "can't be changed once the import has started" }));
  }
  if (values.in_preview !== false) return [];
  const errors = mappingErrors({
    fileHeaders: existing.fileHeaders as Record<string, string>,
    fileConstants: existing.fileConstants as Record<string, string[]>,
    headersMappings: (values.file_headers_mappings ?? existing.fileHeadersMappings) as Record<string, unknown>,
    constantsMappings: (values.file_constants_mappings ?? existing.fileConstantsMappings) as Record<string, unknown>,
  });
  if (errors.length > 0) return errors;
  values.queued_for_import_at = ctx.now;
  startedBy.add(ctx);
  return [];
}

export const importResource = defineResource({
  type: "imports",
  model: "Import",
  table: imports,
  accountListColumn: imports.accountListId,
  attributes: {
    account_list_id: stored(imports.accountListId),
    source: stored(imports.source),
    in_preview: boolean(imports.inPreview),
    file_name: stored(imports.fileName),
    file_size_in_bytes: stored(imports.fileSizeInBytes),
    file_headers: { ...stored(imports.fileHeaders), schema: { type: "object", additionalProperties: { type: "string" } } },
    file_constants: { ...stored(imports.fileConstants), schema: { type: "object", additionalProperties: { type: "array", items: { type: "string" } } } },
    file_headers_mappings: mapping(imports.fileHeadersMappings),
    file_constants_mappings: mapping(imports.fileConstantsMappings),
    tag_list: {
      ...withWrite(derived([imports.tagList], (row) => (row[imports.tagList.name] ? String(row[imports.tagList.name]) : null)), parseImportTags),
      column: imports.tagList,
      schema: { type: ["string", "null"], description: "Comma-separated tags given to every imported contact" },
    },
    // Progress and outcome.
    rows_total: { ...stored(imports.rowsTotal), schema: { type: "integer", description: "Data rows in the file, blank ones included" } },
    rows_processed: { ...stored(imports.nextRow), schema: { type: "integer", description: "Data rows read so far" } },
    rows_imported: { ...stored(imports.rowsImported), schema: { type: "integer", description: "Rows stored as contacts" } },
    rows_failed: { ...stored(imports.rowsFailed), schema: { type: "integer", description: "Rows refused (each with its reason, in the closing e-mail)" } },
    importing: {
      ...derived([imports.importStartedAt, imports.importCompletedAt], (row) => Boolean(row[imports.importStartedAt.name]) && !row[imports.importCompletedAt.name]),
      schema: { type: "boolean" },
    },
    queued_for_import_at: time(imports.queuedForImportAt),
    import_started_at: time(imports.importStartedAt),
    import_completed_at: time(imports.importCompletedAt),
    error: { ...stored(imports.error), schema: { type: ["string", "null"], description: "Why the import stopped, when it did" } },
  },
  relationships: {
    user: belongsTo("users", imports.userId),
    // Built from the file's first rows under the current mappings, never stored (src/resources/imports/samples.ts).
    sample_contacts: emptyMany("contacts"),
  },
  sorts: { created_at: imports.createdAt, updated_at: imports.updatedAt },
  hooks: {
    beforeUpdate,
    // A change of the mappings checked against an import in preview must not land once another request started it:
    // the batch fails (409, as for a stale copy) when the import is queued by the time it runs.
    sideWrites: (id, values, _input, ctx, existing) =>
      existing && !startedBy.has(ctx) && changedOnceStarted(values, existing).length > 0
        ? [ctx.db.run(failUnless(sql`(SELECT queued_for_import_at FROM ${imports} WHERE id = ${id}) IS NULL`)) as unknown as BatchStatement]
        : [],
  },
});
