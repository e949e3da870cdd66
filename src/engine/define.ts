/**
 * Resource declarations. Each JSON:API type is described once — table, attributes with their read and write
 * rules, relationships, sorts, filters — and the generic read and write paths (src/read/, src/write/, src/routes/) serve every
 * resource from that description. Resource folders keep only what is truly their own.
 */
import { getTableColumns, getTableName, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Bindings, Database, Viewer } from "../env";
import { conflict, type ApiError, type FieldError } from "../jsonapi/errors";
import { clientObject, type ParamValue } from "../jsonapi/params";
import type { Ratio } from "../decimal";
import { TIMESTAMP } from "../jsonapi/formats";

/** What every handler and hook gets: the database, the signed-in user and the request's clock. */
export interface RequestContext {
  /** The database the request runs on (src/routing.ts). */
  db: Database;
  /** The directory database; `db` itself when the request runs there (copies of its rows follow some writes: src/db/mirrors.ts). */
  directory?: Database;
  /** The binding `db` is (src/db/databases.ts), and every database by binding, in the request's sessions. */
  databaseName?: string;
  databaseOn?: (name: string) => Database;
  /** Client-chosen ids the creates being prepared take, claimed deployment-wide before they are written (client-ids.ts). */
  idClaims?: IdClaim[];
  /**
   * The list a record moves to, kept on another database, while the move is checked where the record is
   * (record-moves.ts): taken as one of this database's lists, though its row is not here.
   */
  movingTo?: string;
  /** Notes that the request wrote another database too (a record moved there): what it recorded there is sent. */
  alsoWrote?: (name: string) => void;
  viewer: Viewer;
  env: Bindings;
  /** One "now" per request, `YYYY-MM-DDTHH:MM:SSZ`. */
  now: string;
  /** Query-string and override-body parameters of the request. */
  params: Record<string, ParamValue>;
  /** Path parameters, e.g. the parent account list of nested routes. */
  pathParams: Record<string, string>;
  /**
   * The id a create without a client id takes, for requests that may run more than once (a stored background
   * request runs again when its outcome was not recorded): the second run then answers 409 instead of creating a
   * second record.
   */
  createdId?: string;
  /**
   * The databases of the viewer's lists a list or summary read covers, when they are several (src/routing.ts): the
   * read runs on each of them itself (src/read/spread-list.ts, src/read/summaries.ts).
   */
  listDatabases?: string[];
  /** Adds members to the request's log line (src/request-log.ts): what a read planned, say. */
  log?: (fields: Record<string, unknown>) => void;
}

/** How a resource's deleted rows are remembered for offline clients (deletions.ts, `recordsDeletion`). */
export interface DeletionRecord {
  /** The original's model name clients filter by: `Contact`, `Activity`, `Donation`. */
  deletableType: string;
  idColumn: SQLiteColumn;
  accountListColumn: SQLiteColumn;
  /** Where the record was deleted from: its account list unless said otherwise (a donation: its designation account). */
  deletedFrom?: { type: string; column: SQLiteColumn };
}

/** A client-chosen id a create takes, and what its record hangs off: its list, or its parent (client-ids.ts). */
export interface IdClaim {
  def: ResourceDef;
  id: string;
  anchor: string;
}

/** Values loaded once per read for computed fields (currency rates) — only when a selected field needs them. */
export interface ReadExtras {
  rates: Map<string, Ratio>;
}

export type Row = Record<string, unknown>;

export interface AttributeDef {
  /** The stored column this attribute reads from (and writes to, when writable). */
  column?: SQLiteColumn;
  /** A computed SQL expression, selected per row under `$<attribute>` when the attribute is wanted. */
  select?: (ctx: RequestContext) => SQL;
  /**
   * A per-row SQL value several attributes read from (e.g. one aggregate over a child table answering many
   * attributes): selected once, under `%<key>`, when any of them is wanted; `read` gets it as `selected`.
   */
  shared?: SharedSelect;
  /** Other columns the read function needs. */
  needs?: SQLiteColumn[];
  /** Turns the selected values into the answered value; defaults to the column value or the computed value. */
  read?: (row: Row, ctx: RequestContext, extras: ReadExtras, selected: unknown) => unknown;
  /** Whether read needs currency rates loaded. */
  usesRates?: boolean;
  /** How a request value is checked and converted; absent means read-only (ignored in requests). */
  write?: WriteRule;
  /** When false, the attribute is only listed when asked for by a sparse fieldset. */
  default?: boolean;
  /** With `default: false`: still listed by default when the resource is a single-resource document's data. */
  defaultOnShow?: boolean;
  /**
   * The answered value's JSON Schema (src/openapi), where the column's type does not say it all (a date, a
   * timestamp) or there is no column; otherwise derived from the column.
   */
  schema?: Record<string, unknown>;
}

export interface SharedSelect {
  key: string;
  select: (ctx: RequestContext) => SQL;
}

export interface WriteRule {
  parse: (value: unknown, ctx: RequestContext) => ParseResult;
  /** Only accepted on create (ignored on update). */
  createOnly?: boolean;
  /** Create fails with "can't be blank" when absent or blank. */
  required?: boolean;
}

export type ParseResult = { ok: true; value: unknown } | { ok: false; message: string };

/** What a sideposting relationship writes to (src/engine/sidepost.ts): its records under a parent, or only links to unlink. */
export type SidepostRule =
  /** Records owned by the parent through the target's relationship `parent` (a contact's addresses: `contact`). */
  | { parent: string }
  /** Records linked through a join table, which a nested `_destroy` only unlinks (a contact's donor accounts). */
  | { unlink: (ctx: RequestContext, parentId: string, targetIds: string[]) => BatchStatement };

export interface RelationshipDef {
  /** The type written in linkage. */
  type: string;
  /** The declaration used to include the targets, when it differs from the linkage type. */
  resource?: string;
  kind: "one" | "many";
  /** to-one through a foreign key column on this table. */
  column?: SQLiteColumn;
  /** to-one: SQL giving the target id; to-many: SQL giving a JSON array of ids. */
  select?: (ctx: RequestContext) => SQL;
  /** Writable to-one relationships: checks the target may be linked (exists and is visible). */
  write?: {
    /** The JSON:API types accepted in requests (defaults to [type]). */
    acceptTypes?: string[];
    /** Checks the target id may be linked; throws an ApiError if not. */
    check?: (id: string, ctx: RequestContext) => Promise<void>;
    nullable?: boolean;
    /**
     * Ids of another resource linked under the same type, kept in a column of their own: a comment's `person` may
     * name a user, as the original's users are people. The linkage then reads `select` (one of the two columns).
     */
    orLinks?: { resource: string; column: SQLiteColumn };
    /**
     * A to-many name the original also takes for this to-one link, holding exactly one identifier: its bulk
     * people name their contact as `contacts: {data: [{type, id}]}`.
     */
    listedAs?: string;
  };
  /** When false, the relationship is only listed when asked for by a sparse fieldset or include. */
  default?: boolean;
  /** to-many accepting nested writes of its records from `included` (see sidepost.ts). */
  sidepost?: SidepostRule;
  /** to-one whose `select` gives a JSON object: the target's id and further members its identifier carries. */
  identifierMembers?: boolean;
  /**
   * Other types a to-one may link (a deleted record's list or designation account): its `select` gives, with
   * `identifierMembers`, the identifier's `type` beside its id. Included targets are read as `type`'s only.
   */
  alsoTypes?: string[];
  /**
   * Linkage read from a per-row SQL value several relationships share (one walk of the rows they all hang off, in
   * place of a walk each): selected once, under `%<key>`, when any of them is wanted; `pick` takes this
   * relationship's linkage (an id, or an array of ids) from the selected value.
   */
  shared?: { select: SharedSelect; pick: (selected: unknown) => unknown };
}

/** A filter turns the client's value into a condition, or undefined when the value selects everything. */
export type FilterDef = (value: ParamValue, ctx: RequestContext, all: Record<string, ParamValue>) => SQL | undefined | Promise<SQL | undefined>;

export interface SortDef {
  expression: SQL | SQLiteColumn;
}

export interface WriteInput {
  id: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, unknown>;
  included: unknown[];
}

/** Statements to run in the same atomic batch as the row's insert or update. */
export type BatchStatement = { run: () => unknown } & Parameters<Database["batch"]>[0][number];

export interface ResourceDef<TTable extends SQLiteTable = SQLiteTable> {
  type: string;
  /** The model name in "Couldn't find <Model> with 'id'=<id>". */
  model: string;
  table: TTable;
  idColumn: SQLiteColumn;
  createdAtColumn?: SQLiteColumn;
  updatedAtColumn?: SQLiteColumn;
  /** The account list a row belongs to; scopes reads to the viewer's lists and writes to their writable lists. */
  accountListColumn?: SQLiteColumn;
  /** Extra read scope, for resources not owned by an account list (e.g. background batches owned by a user). */
  scope?: (ctx: RequestContext) => SQL | undefined;
  /**
   * True when `scope` says which rows are shown rather than whose they are (announcements outside their display
   * window): a row outside it is answered as not found (404), not as someone else's (403).
   */
  scopeHidesRows?: boolean;
  /**
   * Rows that may appear in `included` (reached through another resource's relationship); defaults to the read
   * scope. Wider than the read scope where a resource is listed narrowly but shown more widely (other users).
   */
  includeScope?: (ctx: RequestContext) => SQL | undefined;
  /** Write scope: rows the viewer may change; defaults to the read scope limited to writable lists. */
  writeScope?: (ctx: RequestContext) => SQL | undefined;
  /**
   * The path parameter naming the parent of a nested route other than an account list (e.g. `appeal_id`): a
   * record outside that parent is answered as not found (404) rather than forbidden, as under an account list.
   */
  parentParam?: string;
  attributes: Record<string, AttributeDef>;
  relationships: Record<string, RelationshipDef>;
  sorts?: Record<string, SQL | SQLiteColumn>;
  multipleSorts?: boolean;
  /** Order when no sort is asked for; defaults to created_at ascending, ties by id. */
  defaultOrder?: (ctx: RequestContext) => OrderKey[];
  /**
   * Parts the default order puts first, in this order, then the other rows; within each, `defaultOrder` (tasks:
   * overdue first). Declared apart from the order so that a page the first parts fill is taken from them alone.
   */
  defaultOrderParts?: (ctx: RequestContext) => OrderPart[];
  /**
   * The rows after the first parts, in `defaultOrder`, as an index walks them within one account list. With it and
   * a `walk` on every first part, a page in the default order at any depth is read by walking each part in each
   * list in order, merged, up to the page's end: never a sort of every row (`walkedPage` in src/read/list-pages.ts).
   */
  defaultOrderRest?: (ctx: RequestContext) => OrderWalk;
  filters?: Record<string, FilterDef>;
  /** Whether every filter can be negated with filter[reverse_<name>]=true. */
  reversibleFilters?: boolean;
  /** Condition applied when a list has no filter of its own for it (e.g. invites neither cancelled nor accepted). */
  defaultFilters?: (filters: Record<string, ParamValue>, ctx: RequestContext) => SQL | undefined;
  /**
   * Values of a column a list leaves out unless a filter asks for that column (contacts: the hidden statuses).
   * Declared as values rather than as a condition so that a list with no other condition can count its total
   * as all its rows less those holding an excluded value, both read from indexes (see `listResources`).
   */
  defaultExclusion?: (filters: Record<string, ParamValue>, ctx: RequestContext) => DefaultExclusion | undefined;
  /**
   * Rows per account list and value of `column` are kept in `list_row_counts` by triggers (see
   * drizzle/list-counts.ts): a list whose only conditions are its account lists, its default exclusion on that
   * column and `filter` reads its exact total from those counts, a handful of rows instead of every row in scope.
   */
  maintainedCounts?: MaintainedCounts;
  /**
   * The original implementation's name for the table, where ours differs: a client id that already exists answers
   * 409 naming its primary key (`activities_pkey`), the text offline-sync clients recognise (see `duplicateId`).
   */
  storedAs?: string;
  /**
   * Deleting a row writes a `deleted_records` row in the same batch (src/engine/deletions.ts), for offline clients;
   * the row's list is `accountListColumn`.
   */
  recordsDeletion?: Omit<DeletionRecord, "idColumn" | "accountListColumn">;
  /** Resource rules that run after attribute parsing; may change values or report field errors. */
  hooks?: ResourceHooks;
}

export interface MaintainedCounts {
  column: SQLiteColumn;
  /** The filter on `column` whose values name buckets ('' for blank); undefined for a value the buckets cannot answer. */
  filter?: { name: string; buckets: (value: ParamValue) => string[] | undefined };
  /**
   * Filters whose total other kept rows answer (drizzle/kept-sums.ts): given the filter's value and the lists in
   * scope, the statement that counts (as "count"), or undefined for a value they cannot answer.
   */
  keptTotals?: Record<string, (value: ParamValue, ctx: RequestContext, lists: string[]) => SQL | undefined>;
}

/** One term of a list's order: what it sorts by, which way, and where NULLs go when not where SQLite puts them. */
export interface OrderKey {
  expression: SQL | SQLiteColumn;
  descending: boolean;
  nulls?: "first" | "last";
}

/** Rows of a list's default order that come before the rest (see `defaultOrderParts`). */
export interface OrderPart {
  condition: SQL;
  /**
   * The part's rows in the default order, as an index walks them within one account list: each list's rows of the
   * part are then walked in the index up to the page's end instead of sorted. Only where it equals `defaultOrder`
   * for these rows.
   */
  walk?: OrderWalk;
}

/**
 * An order an index gives within one account list: its keys are the index's columns or expressions, in its
 * sequence and directions, with no NULLS placement (a placement SQLite does not keep is a key of its own, such as
 * `start_at IS NULL` before `start_at`).
 */
export interface OrderWalk {
  keys: OrderKey[];
  /** The index to walk, where the planner would take another and sort (one made for the part alone). */
  index?: string;
}

/** Rows whose `column` holds one of `values` (none of them blank) are left out; blank and NULL stay in. */
export interface DefaultExclusion {
  column: SQLiteColumn;
  /** Constants of the code: they are written into the statements (src/db/sql.ts, noneOf). */
  values: readonly string[];
}

export interface ResourceHooks {
  beforeCreate?: (values: Row, input: WriteInput, ctx: RequestContext) => Promise<FieldError[] | void> | FieldError[] | void;
  beforeUpdate?: (values: Row, existing: Row, input: WriteInput, ctx: RequestContext) => Promise<FieldError[] | void> | FieldError[] | void;
  /** Extra statements written atomically with the row (tags, people, join rows). */
  sideWrites?: (id: string, values: Row, input: WriteInput, ctx: RequestContext, existing?: Row) => Promise<BatchStatement[]> | BatchStatement[];
  beforeDelete?: (existing: Row, ctx: RequestContext) => Promise<BatchStatement[] | void> | BatchStatement[] | void;
}

const registry = new Map<string, ResourceDef>();

/** A declaration as written: the id and timestamp columns default to the table's `id`, `createdAt` and `updatedAt`. */
export type ResourceDeclaration<TTable extends SQLiteTable = SQLiteTable> = Omit<ResourceDef<TTable>, "idColumn"> & { idColumn?: SQLiteColumn };

/** Registers a declaration; every resource with timestamps answers created_at, updated_at and updated_in_db_at. */
export function defineResource<TTable extends SQLiteTable>(declaration: ResourceDeclaration<TTable>): ResourceDef<TTable> {
  const columns = getTableColumns(declaration.table) as Record<string, SQLiteColumn | undefined>;
  const idColumn = declaration.idColumn ?? columns.id;
  if (!idColumn) throw new Error(`${declaration.type}: the table has no id column; name idColumn`);
  const def: ResourceDef<TTable> = {
    ...declaration,
    idColumn,
    createdAtColumn: declaration.createdAtColumn ?? columns.createdAt,
    updatedAtColumn: declaration.updatedAtColumn ?? columns.updatedAt,
  };
  const timestamps: Record<string, AttributeDef> = {};
  if (def.createdAtColumn) timestamps.created_at = { column: def.createdAtColumn, schema: TIMESTAMP };
  if (def.updatedAtColumn) {
    timestamps.updated_at = { column: def.updatedAtColumn, schema: TIMESTAMP };
    timestamps.updated_in_db_at = { column: def.updatedAtColumn, schema: TIMESTAMP };
  }
  // Requests name attributes, relationships, sorts and filters by the client's text: the tables are prototype-less
  // so that `constructor` or `__proto__` is simply not declared (see clientObject).
  const full = {
    ...def,
    attributes: Object.assign(clientObject<AttributeDef>(), def.attributes, timestamps),
    relationships: Object.assign(clientObject<RelationshipDef>(), def.relationships),
    sorts: def.sorts && Object.assign(clientObject<SQL | SQLiteColumn>(), def.sorts),
    filters: def.filters && Object.assign(clientObject<FilterDef>(), def.filters),
  };
  registry.set(def.type, full as unknown as ResourceDef);
  return full;
}

/**
 * The 409 for a client id that is already taken. Offline-sync clients (the Android app) recognise "already exists"
 * only by the original's database error text naming the primary key, e.g. `activities_pkey` for a task; without
 * it they send the record again forever.
 */
/** A unique-constraint failure of a write: a concurrent request won the race. The database error stays as the cause (bulk writes tell rules apart by it). */
export function raceConflict(error: unknown): ApiError {
  return Object.assign(conflict("Another request has just stored a conflicting record; reload and try again"), { cause: error });
}

export function duplicateId(def: Pick<ResourceDef, "table" | "storedAs">, id: string, pointer = "/data/id"): ApiError {
  const table = def.storedAs ?? getTableName(def.table);
  return conflict(`duplicate key value violates unique constraint "${table}_pkey": Key (id)=(${id}) already exists.`, { pointer });
}

export function resourceFor(type: string): ResourceDef | undefined {
  return registry.get(type);
}

/** Every declared resource, for checks that must hold across all of them. */
export function declaredResources(): ResourceDef[] {
  return [...registry.values()];
}
