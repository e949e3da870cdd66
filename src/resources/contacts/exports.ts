/**
 * Contact exports, as the web apps drive them: `POST /contacts/exports` (or `/contacts/exports/mailing`) stores an
 * export log with the contact filters the file is to hold, then the browser opens
 * `/contacts/exports/<id>.csv|.xlsx` (`/contacts/exports/mailing/<id>.csv`) with `?access_token=`. The log belongs
 * to its user alone (another user's is not found) and is downloaded once: the download takes it with one
 * conditional update in D1, so two downloads at once cannot both get the file; after it the owner is refused (403),
 * as the original refused them. The file is streamed as its contacts are read (export-rows.ts, export-files.ts).
 */
import { Hono, type Context } from "hono";
import { sql } from "drizzle-orm";
import { exportLogs } from "../../../drizzle/schema";
import { isUniqueViolation } from "../../db/guard";
import type { D1Totals } from "../../db/metrics";
import { firstOf, rowsOf } from "../../db/statements";
import { derived, timestamp } from "../../engine/attributes";
import { readBody, requestContext } from "../../engine/context";
import { defineResource, duplicateId, type ParseResult, type RequestContext } from "../../engine/define";
import { showResource } from "../../read/records";
import { belongsTo } from "../../engine/relationships";
import { resourceRoutes, UUID_PARAM } from "../../routes/resource-routes";
import { runBatch } from "../../write/write";
import type { AppEnv } from "../../env";
import { ApiError, forbidden, recordNotFound, validationFailed } from "../../jsonapi/errors";
import type { ParamValue } from "../../jsonapi/params";
import { readResourceDocument } from "../../jsonapi/request-document";
import { jsonApi, streamedBody } from "../../jsonapi/respond";
import { API } from "../paths";
import { parseContactFilter } from "../appeals/contact-selection";
import { CONTACTS_LAYOUT, csvParts, MAILING_LAYOUT, xlsxParts, type ExportLayout } from "./export-files";
import { exportCondition, exportedContacts, selectedContacts } from "./export-rows";

type ExportParams = Record<string, unknown> & { filter?: Record<string, ParamValue> };

/** `params` is an object; its `filter`, when sent, an object of contact filters. Everything sent is kept as sent. */
function parseParams(value: unknown): ParseResult {
  if (value === undefined || value === null) return { ok: true, value: {} };
  if (typeof value !== "object" || Array.isArray(value)) return { ok: false, message: "must be an object" };
  const filter = parseContactFilter((value as Record<string, unknown>).filter);
  if (!filter.ok) return { ok: false, message: `filter ${filter.message}` };
  return { ok: true, value };
}

export const exportLogResource = defineResource({
  type: "export_logs",
  model: "ExportLog",
  table: exportLogs,
  scope: (ctx) => sql`${exportLogs.userId} = ${ctx.viewer.id}`,
  // Another user's export is not found: it names no list the viewer shares.
  scopeHidesRows: true,
  attributes: {
    export_at: { ...timestamp(exportLogs.exportAt), write: undefined },
    params: {
      ...derived([exportLogs.params], (row) => JSON.parse(String(row[exportLogs.params.name] ?? "{}"))),
      write: { parse: parseParams },
      schema: { type: "object" },
    },
  },
  relationships: {
    user: belongsTo("users", exportLogs.userId),
  },
});

/** The filters as the contact list reads them (values as text, names in snake_case). */
function filterOf(params: ExportParams): Record<string, ParamValue> {
  const parsed = parseContactFilter(params.filter);
  return parsed.ok && parsed.value ? (parsed.value as Record<string, ParamValue>) : {};
}

/** A filter's own 400 (a malformed range, an unknown choice) points into params; a list not the user's stays 404. */
async function checkFilter(filter: Record<string, ParamValue>, ctx: RequestContext): Promise<void> {
  try {
    await exportCondition(filter, ctx);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 400) throw error;
    throw validationFailed(error.errors.map((e) => ({ attribute: "params", message: e.detail ?? e.title, pointer: "/data/attributes/params/filter" })));
  }
}

/** Stores the log for the viewer once its params are checked; answers its id. */
async function createExportLog(c: Context<AppEnv>, ctx: RequestContext, type: string): Promise<string> {
  const input = readResourceDocument(await readBody(c), [exportLogResource.type]);
  const parsed = parseParams(input.attributes.params);
  if (!parsed.ok) throw validationFailed([{ attribute: "params", message: parsed.message, pointer: "/data/attributes/params" }]);
  const params = parsed.value as ExportParams;
  await checkFilter(filterOf(params), ctx);
  const id = input.id ?? ctx.createdId ?? crypto.randomUUID();
  const row = { id, userId: ctx.viewer.id, type, params: JSON.stringify(params), exportAt: ctx.now, active: true, createdAt: ctx.now, updatedAt: ctx.now };
  try {
    await runBatch(ctx, [ctx.db.insert(exportLogs).values(row) as never]);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateId(exportLogResource, id);
    throw error;
  }
  return id;
}

/** The export's id, and the file asked for: CSV, XLSX, or (`.json` or nothing) the log. */
const FILE = `${UUID_PARAM.slice(0, -1)}(?:\\.(?:csv|xlsx|json))?}`;

const CONTENT_TYPES = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/**
 * Takes the export for its download: one statement sets it inactive if it is the viewer's and still active, and
 * answers its params. Otherwise says why: not the viewer's (or no such export) is 404, already downloaded 403. A HEAD
 * (a link checker's look) is answered the same way but takes nothing.
 */
async function takeExport(id: string, ctx: RequestContext, take: boolean): Promise<ExportParams> {
  if (take) {
    const [taken] = await rowsOf(ctx.db, [
      sql`UPDATE ${exportLogs} SET ${sql.identifier(exportLogs.active.name)} = 0, ${sql.identifier(exportLogs.updatedAt.name)} = ${ctx.now}
        WHERE ${exportLogs.id} = ${id} AND ${exportLogs.userId} = ${ctx.viewer.id} AND ${exportLogs.active} = 1 RETURNING ${sql.identifier(exportLogs.params.name)} AS params`,
    ]);
    const row = firstOf(taken) as { params?: unknown } | undefined;
    if (row) return JSON.parse(String(row.params)) as ExportParams;
  }
  const [owned] = await rowsOf(ctx.db, [
    sql`SELECT ${exportLogs.active} AS active, ${exportLogs.params} AS params FROM ${exportLogs} WHERE ${exportLogs.id} = ${id} AND ${exportLogs.userId} = ${ctx.viewer.id}`,
  ]);
  const row = firstOf(owned) as { active?: unknown; params?: unknown } | undefined;
  if (row && !take && Number(row.active) === 1) return JSON.parse(String(row.params)) as ExportParams;
  if (row) throw forbidden(id, exportLogResource.type);
  throw recordNotFound(exportLogResource.model, id);
}

const d1Cost = (totals: D1Totals) => ({ d1_round_trips: totals.roundTrips, d1_rows_read: totals.rowsRead, d1_rows_read_complete: !totals.rowsIncomplete });

/**
 * The request's log line is written when its answer starts; the file's cost (its chunks' D1 reads) is known only
 * once the last part is sent, so a second line says it then.
 */
async function* loggedWhenSent<T>(parts: AsyncIterable<T>, line: () => Record<string, unknown>): AsyncGenerator<T> {
  yield* parts;
  console.log(JSON.stringify({ level: "info", message: "export sent", ...line() }));
}

/** `contacts-YYYYMMDD.<format>`, dated the day of the download (UTC), as the original named it. */
const fileName = (ctx: RequestContext, format: string) => `contacts-${ctx.now.slice(0, 10).replace(/-/g, "")}.${format}`;

function download(layouts: { csv: ExportLayout; xlsx: ExportLayout }) {
  return async (c: Context<AppEnv>) => {
    const ctx = requestContext(c);
    const [id, format = "json"] = String(c.req.param("file")).toLowerCase().split(".");
    const looking = c.req.method === "HEAD";
    const params = await takeExport(id, ctx, !looking);
    // The original answered the log itself where no file was asked for (and took the export all the same).
    if (format === "json") return jsonApi(c, await showResource(exportLogResource, id, ctx));
    const kind = format as keyof typeof CONTENT_TYPES;
    const headers = {
      "Content-Type": CONTENT_TYPES[kind],
      "Content-Disposition": `attachment; filename="${fileName(ctx, format)}"`,
      "Cache-Control": "no-store",
    };
    if (looking) return c.body(null, 200, headers);
    const selected = await selectedContacts(filterOf(params), ctx);
    const chunks = exportedContacts(selected, ctx);
    const file: AsyncIterable<string | Uint8Array> = kind === "csv" ? csvParts(layouts.csv, chunks) : xlsxParts(layouts.xlsx, chunks);
    const parts = loggedWhenSent(file, () => ({ request_id: c.get("requestId"), export_id: id, format, contacts: selected.length, ...d1Cost(c.get("metrics").totals()) }));
    // Sent as it is read: no ETag (the etag middleware would read the whole file first), and never kept by a cache.
    c.set("streamed", true);
    return c.body(streamedBody({ parts }, c.get("requestId")), 200, headers);
  };
}

/** Mounted before the contact routes; the mailing export's XLSX is the contacts sheet, as the original's was. */
export function registerContactExportRoutes(app: Hono<AppEnv>): void {
  const base = `${API}/contacts/exports`;
  const mailing = new Hono<AppEnv>();
  mailing.get(`/:file${FILE}`, download({ csv: MAILING_LAYOUT, xlsx: CONTACTS_LAYOUT }));
  app.route(`${base}/mailing`, mailing);
  app.route(`${base}/mailing`, resourceRoutes(exportLogResource, { actions: ["create"], create: (c, ctx) => createExportLog(c, ctx, "Contacts Mailing") }));
  const contactsExport = new Hono<AppEnv>();
  contactsExport.get(`/:file${FILE}`, download({ csv: CONTACTS_LAYOUT, xlsx: CONTACTS_LAYOUT }));
  app.route(base, contactsExport);
  app.route(base, resourceRoutes(exportLogResource, { actions: ["create"], create: (c, ctx) => createExportLog(c, ctx, "Contacts") }));
}
