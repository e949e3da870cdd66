/**
 * GET /reports/donor_currency_donations and /reports/salary_currency_donations (the "14 month report"): each
 * partner's gifts by month over `filter[month_range]` (`<start>...<end>`, three dots; by default the twelve months
 * before this one and this one), grouped by the gifts' own currency or converted into the list's. The report lists
 * its gifts, so it reads them (one index range), and their partners once each.
 */
import { badRequest } from "../../jsonapi/errors";
import { isBlankValue, textValue } from "../../jsonapi/filter-values";
import { addMonths, parseDate } from "../../jsonapi/time";
import { giftPartners, type DonorInfo } from "./donor-infos";
import { datedRates } from "./dated-rates";
import { converted, giftOf, giftsSince, moneyNumber, type Gift } from "./money";
import { monthOf, monthsBetween } from "./periods";
import { defineReport, type ReportList, type ReportRequest, type SingleReport } from "./report";

const monthRangeError = () =>
  badRequest("Month range must be two dates joined by three dots, YYYY-MM-DD...YYYY-MM-DD", { parameter: "filter[month_range]" });

/** The report's months: from the start's month (or twelve months before the end's) to the end (or today). */
export function monthWindow({ filters, today }: ReportRequest): { start: string; end: string; months: string[] } {
  let [start, end]: Array<string | null> = [null, today];
  if (!isBlankValue(filters.month_range)) {
    const parts = textValue(filters.month_range).split("...");
    if (parts.length !== 2) throw monthRangeError();
    const [from, to] = parts.map((part) => part.trim());
    start = from === "" ? null : parseDate(from);
    end = to === "" ? today : parseDate(to);
    if ((from !== "" && !start) || !end) throw monthRangeError();
  }
  const first = start && start <= end! ? `${monthOf(start)}-01` : addMonths(`${monthOf(end!)}-01`, -12);
  return { start: first, end: end!, months: monthsBetween(first, end!) };
}

/** A gift as the donation reports list it, converted at the rates of its day. */
export const donationInfo = (gift: Gift, contact: DonorInfo, list: ReportList, rates: ReportRequest["rates"]) => ({
  amount: moneyNumber(gift.amount),
  contact_id: contact.contact_id,
  contact_name: contact.contact_name,
  converted_amount: moneyNumber(converted(gift.amount, gift.currency, list.currency, rates)),
  converted_currency: list.currency,
  currency: gift.currency,
  donation_date: gift.date,
  donation_id: gift.id,
  likelihood_type: "received",
  payment_method: gift.paymentMethod,
});

type DonationInfo = ReturnType<typeof donationInfo>;

/** One currency's gifts: totals by month and by partner. `value` is what is summed (the amount, or converted). */
function currencyGroup(infos: DonationInfo[], donors: DonorInfo[], months: string[], value: (info: DonationInfo) => number) {
  const add = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) * 100) / 100;
  const inMonth = (list: DonationInfo[], month: string) => list.filter((info) => monthOf(info.donation_date) === monthOf(month));
  const donation_infos = donors.flatMap((donor) => {
    const own = infos.filter((info) => info.contact_id === donor.contact_id);
    if (own.length === 0) return [];
    const values = own.map(value);
    const total = add(values);
    return [{
      contact_id: donor.contact_id,
      total,
      average: Math.round((total / own.length) * 100) / 100,
      minimum: Math.min(...values),
      maximum: Math.max(...values),
      months: months.map((month) => {
        const donations = inMonth(own, month);
        return { total: add(donations.map(value)), donations };
      }),
    }];
  });
  return {
    totals: {
      year: add(infos.map(value)),
      year_converted: add(infos.map((info) => info.converted_amount)),
      months: months.map((month) => add(inMonth(infos, month).map(value))),
    },
    donation_infos,
  };
}

/**
 * The list's gifts from `start` on that are a partner's (filtered by account), and those partners. The partners and
 * the rates of the gifts' days are read at once: neither needs the other.
 */
export async function giftsWithPartners(request: ReportRequest, start: string) {
  const { list, filters, read } = request;
  const [giftRows] = await read([giftsSince(list.id, filters, start)]);
  const gifts = giftRows.map(giftOf);
  const [{ donors, partnerOf }, rates] = await Promise.all([
    giftPartners(request, gifts),
    // Gifts come oldest first.
    datedRates(request, [list.currency, ...gifts.map((gift) => gift.currency)], gifts[0]?.date ?? start, gifts.at(-1)?.date ?? start),
  ]);
  const infos = gifts.flatMap((gift) => {
    const partner = partnerOf(gift);
    return partner ? [donationInfo(gift, partner, list, rates.at(gift.date))] : [];
  });
  return { donors, infos };
}

function currencyDonations(variant: "donor" | "salary"): SingleReport {
  return defineReport({
    path: `${variant}_currency_donations`,
    type: `reports_${variant}_currency_donations`,
    id: `reports::${variant}currencydonations`,
    coaches: false,
    attributes: async (request) => {
      const { list } = request;
      const { start, months } = monthWindow(request);
      const { donors, infos } = await giftsWithPartners(request, start);
      const groups: Record<string, ReturnType<typeof currencyGroup>> = {};
      if (variant === "salary") {
        if (infos.length > 0) groups[list.currency] = currencyGroup(infos, donors, months, (info) => info.converted_amount);
      } else {
        for (const currency of [...new Set(infos.map((info) => info.currency))].sort()) {
          groups[currency] = currencyGroup(infos.filter((info) => info.currency === currency), donors, months, (info) => info.amount);
        }
      }
      return { months, salary_currency: list.currency, default_currency: list.currency, donor_infos: donors, currency_groups: groups };
    },
  });
}

export const donorCurrencyDonations = currencyDonations("donor");
export const salaryCurrencyDonations = currencyDonations("salary");
