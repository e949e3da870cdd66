/**
 * Reports: read-only answers about one account list (its goal, its giving by month, its partners' gifts), each
 * declared once (`defineReport`, `definePeriodReport`) and served here alike: which list a report covers and who
 * may ask, the list's row and the currency rates, the document's shape, GET and POST with
 * `X-HTTP-Method-Override: GET`. A report runs on its list's database (src/db/placement.ts, `reportDatabase`).
 */
import { sql, type SQL } from "drizzle-orm";
import { Hono, type Context } from "hono";
import { accountLists } from "../../../drizzle/schema";
import { firstOwnList } from "../../db/placement";
import type { Ratio } from "../../decimal";
import { q } from "../../db/sql";
import { rowsOf, type Rows } from "../../db/statements";
import type { RequestContext } from "../../engine/define";
import { requestContext } from "../../engine/context";
import { UUID_PARAM } from "../../routes/resource-routes";
import { RATES, ratesMap } from "../../engine/rates";
import type { AppEnv } from "../../env";
import { ApiError } from "../../jsonapi/errors";
import { textValue } from "../../jsonapi/filter-values";
import type { ParamValue } from "../../jsonapi/params";
import { rawFilters } from "../../jsonapi/query";
import { jsonApi } from "../../jsonapi/respond";
import { todayIn } from "../../jsonapi/time";
import { parsePeriods, type Period } from "./periods";

/** The list a report covers, as its row holds it. */
export interface ReportList {
  id: string;
  name: string;
  /** The list's currency: what the original called its salary (and default) currency. */
  currency: string;
  monthlyGoal: bigint | null;
  salaryOrganizationId: string | null;
  primaryAppealId: string | null;
}

/** What a report's answer is computed from. */
export interface ReportRequest {
  ctx: RequestContext;
  list: ReportList;
  rates: Map<string, Ratio>;
  filters: Record<string, ParamValue>;
  /** The viewer's today, in their time zone. */
  today: string;
  /** Runs statements in one round trip. */
  read: (queries: SQL[]) => Promise<Rows[]>;
  /** The filters as a POST with X-HTTP-Method-Override sent them, JSON values kept (booleans stay booleans). */
  sentFilters: Record<string, unknown>;
}

interface ReportBase {
  /** The path under /api/v2/reports. */
  path: string;
  type: string;
  /** Whether a coach of the list may ask for it by id (the original's `permit_coach?`). */
  coaches: boolean;
  /** The list's id from the path (`/reports/<path>/<list id>`) rather than `filter[account_list_id]`. */
  listInPath?: boolean;
}

/** A report answered as one resource object. */
export interface SingleReport extends ReportBase {
  id: string;
  /** Whether its object links its account list (every report but the monthly totals by donation). */
  linksList?: boolean;
  attributes: (request: ReportRequest) => Promise<Record<string, unknown>>;
}

/** A report answered as one resource object a period (newest first), with `meta.filter` and maybe averages. */
export interface PeriodReport extends ReportBase {
  /** The default of `filter[range]`, e.g. `4w`. */
  defaultRange: string;
  /** Periods' start and end answered as dates (a client parses them as such), else as UTC timestamps. */
  plainDates?: boolean;
  /** Whether `meta.averages` holds the rounded average of each counted attribute (`average_<name>`). */
  averages?: string[];
  periods: (request: ReportRequest, periods: Period[]) => Promise<Array<Record<string, unknown>>>;
}

/** A report answered as a page of other resources (contacts), with its own `meta`. */
export interface ListingReport extends ReportBase {
  listing: (request: ReportRequest) => Promise<{ data: unknown[]; meta: Record<string, unknown> }>;
}

export const defineReport = (report: SingleReport): SingleReport => report;
export const defineListingReport = (report: ListingReport): ListingReport => report;
export const definePeriodReport = (report: PeriodReport): PeriodReport => report;

const listNotFound = (id: string) => new ApiError(404, [{ detail: `Resource 'AccountList' with id '${id}' does not exist.` }]);

/**
 * The list a report covers: the path's, else `filter[account_list_id]`, else the user's first list. A list the
 * viewer cannot read, or only coaches where the report is not a coach's, is not found.
 */
function reportListId(report: ReportBase, ctx: RequestContext): string {
  const named = report.listInPath ? ctx.pathParams.account_list_id : textValue(rawFilters(ctx.params).account_list_id).trim();
  const allowed = report.coaches ? ctx.viewer.readableListIds : ctx.viewer.writableListIds;
  if (!named) {
    const first = firstOwnList(ctx.viewer);
    if (!first) throw listNotFound("");
    return first;
  }
  const id = named.toLowerCase();
  if (!allowed.includes(id)) throw listNotFound(named);
  return id;
}

const LIST_ROW = (id: string) => sql`SELECT ${q(accountLists.id)} AS id, ${q(accountLists.name)} AS name, ${q(accountLists.currency)} AS currency,
  CAST(${q(accountLists.monthlyGoal)} AS TEXT) AS monthly_goal, ${q(accountLists.salaryOrganizationId)} AS salary_organization_id,
  ${q(accountLists.primaryAppealId)} AS primary_appeal_id FROM ${accountLists} WHERE ${q(accountLists.id)} = ${id}`;

async function reportRequest(report: ReportBase, ctx: RequestContext, sentFilters: Record<string, unknown>): Promise<ReportRequest> {
  const id = reportListId(report, ctx);
  const [[row], rates] = await rowsOf(ctx.db, [LIST_ROW(id), RATES]);
  if (!row) throw listNotFound(id);
  const list: ReportList = {
    id,
    name: String(row.name),
    currency: String(row.currency || "USD").toUpperCase(),
    monthlyGoal: row.monthly_goal === null ? null : BigInt(String(row.monthly_goal)),
    salaryOrganizationId: (row.salary_organization_id as string | null) ?? null,
    primaryAppealId: (row.primary_appeal_id as string | null) ?? null,
  };
  return {
    ctx,
    list,
    rates: ratesMap(rates as Array<{ code: string; rate: string }>),
    filters: rawFilters(ctx.params),
    today: todayIn(ctx.viewer.timeZone, new Date(Date.parse(ctx.now))),
    read: (queries) => rowsOf(ctx.db, queries),
    sentFilters,
  };
}

/** Every report's object carries these, as the original's did. */
const stamps = (ctx: RequestContext) => ({ created_at: ctx.now, updated_at: null, updated_in_db_at: null });

const listLinkage = (list: ReportList) => ({ account_list: { data: { id: list.id, type: "account_lists" } } });

async function singleDocument(report: SingleReport, request: ReportRequest) {
  const attributes = await report.attributes(request);
  return {
    data: {
      id: report.id,
      type: report.type,
      attributes: { ...attributes, ...stamps(request.ctx) },
      ...(report.linksList === false ? {} : { relationships: listLinkage(request.list) }),
    },
  };
}

async function periodsDocument(report: PeriodReport, request: ReportRequest) {
  const periods = parsePeriods(request.filters, report.defaultRange, request.today, request.ctx.viewer.timeZone);
  const answers = await report.periods(request, periods);
  const data = periods.map((period, index) => ({
    id: period.startDay,
    type: report.type,
    attributes: {
      start_date: report.plainDates ? period.startDay : period.from,
      end_date: report.plainDates ? period.endDay : period.lastSecond,
      ...answers[index],
      ...stamps(request.ctx),
    },
    relationships: listLinkage(request.list),
  }));
  const meta: Record<string, unknown> = { filter: echoedFilters(request.filters) };
  if (report.averages) meta.averages = averagesOf(report.averages, answers);
  return { data, meta };
}

/** The filters a period report takes, echoed as sent. */
function echoedFilters(filters: Record<string, ParamValue>): Record<string, ParamValue> {
  const echoed: Record<string, ParamValue> = {};
  for (const name of ["account_list_id", "range", "end_date"]) if (filters[name] !== undefined) echoed[name] = filters[name];
  return echoed;
}

function averagesOf(names: string[], answers: Array<Record<string, unknown>>): Record<string, number> {
  return Object.fromEntries(
    names.map((name) => {
      const total = answers.reduce((sum, answer) => sum + Number(answer[name] ?? 0), 0);
      return [`average_${name}`, answers.length > 0 ? Math.round(total / answers.length) : 0];
    }),
  );
}

type AnyReport = SingleReport | PeriodReport | ListingReport;

async function reportDocument(report: AnyReport, request: ReportRequest): Promise<unknown> {
  if ("listing" in report) return report.listing(request);
  if ("periods" in report) return periodsDocument(report, request);
  return singleDocument(report, request);
}

/** GET of one report; a POST with `X-HTTP-Method-Override: GET` arrives as one, its body's parameters merged (src/jsonapi/method-override.ts). */
function reportRoutes(report: AnyReport): Hono<AppEnv> {
  const answer = async (c: Context<AppEnv>, ctx: RequestContext, sent: Record<string, unknown>) =>
    jsonApi(c, await reportDocument(report, await reportRequest(report, ctx, sent)));
  const path = report.listInPath ? `/:account_list_id${UUID_PARAM}` : "/";
  return new Hono<AppEnv>()
    .get(path, (c) => {
      const ctx = requestContext(c);
      return answer(c, ctx, rawFilters(ctx.params));
    });
}

export function mountReports(app: Hono<AppEnv>, prefix: string, reports: AnyReport[]): void {
  for (const report of reports) app.route(`${prefix}/${report.path}`, reportRoutes(report));
}
