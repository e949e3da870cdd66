/**
 * /account_lists/<id>/imports/csv (list, upload, show, update) and /account_lists/<id>/imports/<id> (show).
 * Only users of the list work with its imports; a coach may see the list of them and nothing more.
 */
import { sql } from "drizzle-orm";
import type { Context, Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { MultipartParseError } from "@mjackson/multipart-parser";
import { imports } from "../../../drizzle/schema";
import { inList } from "../../db/sql";
import { rowsOf } from "../../db/statements";
import { readBody } from "../../engine/context";
import type { RequestContext } from "../../engine/define";
import { parentAccountList } from "../../engine/account-list-scope";
import { resourceRoutes } from "../../routes/resource-routes";
import type { AppEnv } from "../../env";
import { badRequest, forbidden, validationFailed } from "../../jsonapi/errors";
import { readResourceDocument, typeMismatch } from "../../jsonapi/request-document";
import type { ResourceObject } from "../../jsonapi/document";
import { parseDocumentParams } from "../../jsonapi/query";
import { parseTagList } from "../../engine/tags";
import { CsvFileError } from "./csv-file";
import { headerKey } from "./format";
import { includedSamples, sampleDrafts, sampleResources } from "./samples";
import { FILE_FIELD, receiveUpload, TAG_LIST_FIELD, TYPE_FIELD, UploadFormError } from "./upload";
import { MAX_FILE_SIZE_IN_BYTES } from "../../constants/csv-import";
import { queueStartedImport } from "./run";
import { isFileUpload } from "../../jsonapi/uploads";
import { LIST } from "../paths";
import { importResource, startedBy } from "./resource";

const IMPORTS = `${LIST}/imports`;

/** Everything but the list of a list's imports is for its users (a coach's read answers 403, as their writes do). */
const usersOnly = createMiddleware<AppEnv>(async (c, next) => {
  const listId = c.req.param("account_list_id")?.toLowerCase() ?? "";
  const listing = c.req.method === "GET" && /\/imports\/csv\/?$/.test(c.req.path);
  if (!listing && !c.get("viewer").writableListIds.includes(listId)) throw forbidden(listId, "account_lists");
  await next();
});

/** The file's path in the bucket: under its list, so that an operator finds a list's files together. */
const fileKey = (listId: string, importId: string) => `account_lists/${listId}/imports/${importId}.csv`;

const fileError = (message: string) => validationFailed([{ attribute: "file", message }]);

/** An upload (multipart/form-data) stores the file and creates the import; a JSON:API body has no file to import. */
async function createImport(c: Context<AppEnv>, ctx: RequestContext): Promise<string> {
  if (!isFileUpload(c.req.raw)) {
    readResourceDocument(await readBody(c), [importResource.type]);
    throw fileError("can't be blank");
  }
  const listId = ctx.pathParams.account_list_id;
  const id = crypto.randomUUID();
  const key = fileKey(listId, id);
  let received;
  try {
    received = await receiveUpload(c.req.raw, ctx.env.IMPORT_FILES, key);
  } catch (error) {
    if (error instanceof CsvFileError) throw fileError(error.message);
    if (error instanceof UploadFormError) throw badRequest(error.message);
    if (error instanceof MultipartParseError) throw badRequest(`The body is not valid multipart/form-data: ${error.message}`);
    throw error;
  }
  const { type, file } = received;
  const undo = async () => file && (await ctx.env.IMPORT_FILES.delete(key));
  try {
    if (type === undefined) throw badRequest("data[type] can't be blank: send imports", { pointer: "/data/type" });
    if (type !== importResource.type) throw typeMismatch(type, importResource.type);
    if (!file) throw fileError("can't be blank");
    const tags = parseTagList(received.tagList);
    if (!tags.ok) throw validationFailed([{ attribute: "tag_list", message: tags.message }]);
    const { summary } = file;
    await ctx.db.insert(imports).values({
      id,
      accountListId: parentAccountList(ctx).account_list,
      userId: ctx.viewer.id,
      fileKey: key,
      fileName: file.name ?? null,
      fileSizeInBytes: file.size,
      fileEncoding: file.encoding,
      // Plain objects for the query builder (the summary's have no prototype); `__proto__` stays a key of their own.
      fileHeaders: { ...summary.headers },
      fileHeaderRow: summary.headerRow,
      fileConstants: { ...summary.constants },
      sampleRows: summary.sampleRows,
      fileHeadersMappings: {},
      fileConstantsMappings: {},
      tagList: (tags.value as string[]).join(","),
      rowsTotal: summary.rowsTotal,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });
  } catch (error) {
    await undo();
    throw error;
  }
  return id;
}

interface SampleSource {
  id: string;
  file_header_row: string;
  sample_rows: string;
  file_headers_mappings: string;
  file_constants_mappings: string;
  tag_list: string;
}

/**
 * Gives each import answered its sample contacts (linkage, and the records `include=sample_contacts...` asks for),
 * read from the imports' first rows in one query.
 */
async function withSampleContacts(document: unknown, ctx: RequestContext): Promise<unknown> {
  const doc = document as { data?: ResourceObject | ResourceObject[]; included?: ResourceObject[] };
  const resources = (Array.isArray(doc.data) ? doc.data : doc.data ? [doc.data] : []).filter((resource) => resource.relationships?.sample_contacts);
  if (resources.length === 0) return document;
  const [rows] = (await rowsOf(ctx.db, [
    sql`SELECT id, file_header_row, sample_rows, file_headers_mappings, file_constants_mappings, tag_list FROM imports WHERE ${inList(sql`id`, resources.map((r) => r.id))}`,
  ])) as unknown as SampleSource[][];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const paths = samplePaths(ctx);
  const included: ResourceObject[] = [];
  for (const resource of resources) {
    const row = byId.get(resource.id);
    if (!row) continue;
    const drafts = sampleDrafts(row.id, JSON.parse(row.sample_rows), {
      columnKeys: (JSON.parse(row.file_header_row) as string[]).map(headerKey),
      headersMappings: JSON.parse(row.file_headers_mappings),
      constantsMappings: JSON.parse(row.file_constants_mappings),
      tagList: row.tag_list,
    });
    const built = drafts.map((draft) => sampleResources(draft, ctx));
    const contacts = built.map((sample) => sample.contact);
    resource.relationships!.sample_contacts = { data: contacts.map(({ type, id }) => ({ type, id })) };
    if (paths.length === 0) continue;
    const related = new Map(built.flatMap((sample) => [...sample.related]));
    included.push(...contacts, ...includedSamples(contacts, related, paths));
  }
  if (included.length > 0) doc.included = [...(doc.included ?? []), ...included];
  return doc;
}

/** The include paths under `sample_contacts` (`[]` for the contacts themselves); none when they are not asked for. */
function samplePaths(ctx: RequestContext): string[][] {
  const { include } = parseDocumentParams(ctx.params);
  if (!include.sample_contacts) return [];
  const paths: string[][] = [[]];
  const walk = (tree: Record<string, unknown>, path: string[]) => {
    for (const [name, subtree] of Object.entries(tree)) {
      paths.push([...path, name]);
      walk(subtree as Record<string, unknown>, [...path, name]);
    }
  };
  walk(include.sample_contacts as Record<string, unknown>, []);
  return paths;
}

async function queueWhenStarted(id: string, ctx: RequestContext): Promise<void> {
  if (startedBy.has(ctx)) await queueStartedImport(ctx.env, ctx.db, id);
}

export function registerImportRoutes(app: Hono<AppEnv>): void {
  app.use(`${IMPORTS}/*`, usersOnly);
  app.route(
    `${IMPORTS}/csv`,
    resourceRoutes(importResource, {
      actions: ["list", "show", "create", "update"],
      create: createImport,
      upload: {
        [TYPE_FIELD]: { description: "imports" },
        [FILE_FIELD]: { file: true, description: `The CSV file (UTF-8, with or without a byte order mark, or Windows-1252), at most ${MAX_FILE_SIZE_IN_BYTES} bytes` },
        [TAG_LIST_FIELD]: { optional: true, description: "Comma-separated tags given to every imported contact" },
      },
      complete: withSampleContacts,
      afterUpdate: queueWhenStarted,
    }),
  );
  app.route(IMPORTS, resourceRoutes(importResource, { actions: ["show"], complete: withSampleContacts }));
}
