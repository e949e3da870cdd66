/**
 * GET (and POST with X-HTTP-Method-Override: GET) /reports/partner_giving_analysis: a page of the list's contacts
 * who have given, each with the count, sum and average of their gifts in `filter[donation_date]` (by default the
 * twelve months up to today), their first and latest gift and their lifetime total. The contacts are narrowed by the
 * contact filters of GET /contacts (the same declarations); the gift figures by `donation_period_*` `{min, max}`.
 * Sums are of the gifts' amounts as given, whatever their currency.
 */
import { sql, type SQL } from "drizzle-orm";
import { contactDonorAccounts, contacts, donations } from "../../../drizzle/schema";
import { formatMoney } from "../../decimal";
import { and, q } from "../../db/sql";
import { filterConditions } from "../../engine/filter-conditions";
import { badRequest } from "../../jsonapi/errors";
import { isBlankValue, parseDateRange, textValue } from "../../jsonapi/filter-values";
import { isObject, type ParamValue } from "../../jsonapi/params";
import { parsePaging, parseSort, rawSort } from "../../jsonapi/query";
import { addDays, addMonths } from "../../jsonapi/time";
import { contactResource } from "../contacts/resource";
import { defineListingReport, type ReportRequest } from "./report";

const SORTS = [
  "donation_period_average",
  "donation_period_count",
  "donation_period_percent_rank",
  "donation_period_sum",
  "first_donation_amount",
  "first_donation_date",
  "last_donation_amount",
  "last_donation_date",
  "name",
  "total_donations",
];

/** The figures `donation_period_<name>` filters bound, as the columns of the ranked rows. */
const BOUNDED = ["average", "count", "percent_rank", "sum"];

/** Filters of this report that are not contact filters. */
const OWN_FILTERS = new Set(["account_list_id", "donation_date", "name_like", ...BOUNDED.map((name) => `donation_period_${name}`)]);

/** A contact's gifts to its list, as `g`. */
const giftsOf = (where: SQL = sql``) =>
  sql`FROM ${contactDonorAccounts} AS cda JOIN ${donations} AS g ON g.donor_account_id = cda.donor_account_id AND g.account_list_id = ${q(contacts.accountListId)}
    WHERE cda.contact_id = ${q(contacts.id)} ${where}`;

function period({ filters, today }: ReportRequest): { from: string; until: string } {
  if (isBlankValue(filters.donation_date)) return { from: addMonths(today, -12), until: addDays(today, 1) };
  const range = parseDateRange("donation_date", filters.donation_date);
  return { from: range.fromDate, until: range.untilDate };
}

function bounds(filters: Record<string, ParamValue>): SQL[] {
  return BOUNDED.flatMap((name) => {
    const value = filters[`donation_period_${name}`];
    if (isBlankValue(value)) return [];
    if (!isObject(value)) throw badRequest(`donation_period_${name} must be an object with min and max`, { parameter: `filter[donation_period_${name}]` });
    return (["min", "max"] as const).flatMap((end) => {
      const text = textValue(value[end]);
      if (text === "") return [];
      if (!/^-?\d+(\.\d+)?$/.test(text)) throw badRequest(`donation_period_${name} ${end} must be a number`, { parameter: `filter[donation_period_${name}][${end}]` });
      // Sums and averages are kept in money units.
      const scaled = name === "sum" || name === "average" ? Number(text) * 10_000 : Number(text);
      return [sql`${sql.raw(`period_${name}`)} ${sql.raw(end === "min" ? ">=" : "<=")} ${scaled}`];
    });
  });
}

export const partnerGivingAnalysis = defineListingReport({
  path: "partner_giving_analysis",
  type: "contacts",
  coaches: false,
  listing: async (request) => {
    const { list, ctx, filters, read, sentFilters } = request;
    const { from, until } = period(request);
    const paging = parsePaging(ctx.params);
    const sortText = rawSort(ctx.params);
    const [sort] = parseSort(sortText, SORTS, false);
    const contactFilters = Object.fromEntries(Object.entries(filters).filter(([name]) => !OWN_FILTERS.has(name)));
    const { conditions } = await filterConditions(contactResource, ctx, contactFilters);
    const nameLike = textValue(filters.name_like);
    const inPeriod = sql`AND g.donation_date >= ${from} AND g.donation_date < ${until}`;
    const picked = and([
      sql`${q(contacts.accountListId)} = ${list.id}`,
      sql`${q(contacts.lastGiftOn)} IS NOT NULL`,
      nameLike ? sql`${q(contacts.name)} LIKE ${nameLike.slice(0, 50)}` : undefined,
      ...conditions,
    ]);
    const orderColumn = sort ? (sort.field === "donation_period_percent_rank" ? "period_sum" : sort.field.replace("donation_period_", "period_")) : "name";
    const order = sql.raw(`${orderColumn} ${sort?.descending ? "DESC" : "ASC"}, id`);
    const [rows] = await read([
      sql`WITH stats AS (
        SELECT ${q(contacts.id)} AS id, ${q(contacts.name)} AS name, ${q(contacts.pledgeCurrency)} AS pledge_currency,
          (SELECT count(*) ${giftsOf(inPeriod)}) AS period_count,
          (SELECT COALESCE(SUM(g.amount), 0) ${giftsOf(inPeriod)}) AS period_sum,
          (SELECT COALESCE(SUM(g.amount), 0) ${giftsOf()}) AS total_donations,
          (SELECT json_array(g.amount, g.currency, g.donation_date) ${giftsOf()} ORDER BY g.donation_date DESC, g.created_at DESC LIMIT 1) AS last_gift,
          (SELECT json_array(g.amount, g.currency, g.donation_date) ${giftsOf()} ORDER BY g.donation_date, g.created_at LIMIT 1) AS first_gift
        FROM ${contacts} WHERE ${picked}
      ), ranked AS (
        SELECT *, PERCENT_RANK() OVER (ORDER BY period_sum) AS period_percent_rank,
          CASE WHEN period_count > 0 THEN period_sum / period_count ELSE 0 END AS period_average,
          json_extract(last_gift, '$[0]') AS last_donation_amount, json_extract(last_gift, '$[2]') AS last_donation_date,
          json_extract(first_gift, '$[0]') AS first_donation_amount, json_extract(first_gift, '$[2]') AS first_donation_date
        FROM stats
      )
      SELECT *, count(*) OVER () AS total_count FROM ranked WHERE ${and([sql`last_gift IS NOT NULL`, ...bounds(filters)])}
      ORDER BY ${order} LIMIT ${Math.max(paging.perPage, 1)} OFFSET ${paging.offset}`,
    ]);
    const totalCount = rows.length > 0 ? Number(rows[0].total_count) : 0;
    // per_page=0 counts: the one row read for its total is not shown.
    if (paging.perPage === 0) rows.length = 0;
    const units = (value: unknown) => formatMoney(BigInt(Math.trunc(Number(value ?? 0))));
    return {
      data: rows.map((row) => {
        const last = JSON.parse(String(row.last_gift)) as [number, string, string];
        return {
          id: String(row.id),
          type: "contacts",
          attributes: {
            name: row.name,
            donation_period_average: units(row.period_average),
            donation_period_count: Number(row.period_count),
            donation_period_sum: units(row.period_sum),
            donation_period_percent_rank: Number(row.period_percent_rank),
            first_donation_amount: units(row.first_donation_amount),
            first_donation_date: row.first_donation_date,
            last_donation_amount: units(last[0]),
            last_donation_currency: last[1],
            last_donation_date: last[2],
            pledge_currency: row.pledge_currency ?? list.currency,
            total_donations: units(row.total_donations),
          },
        };
      }),
      meta: {
        pagination: { page: paging.page, per_page: paging.perPage, total_count: totalCount, total_pages: paging.perPage > 0 ? Math.ceil(totalCount / paging.perPage) : 0 },
        sort: sortText,
        filter: sentFilters,
      },
    };
  },
});
