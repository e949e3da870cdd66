/**
 * GET /reports/year_donations: the list's partners' gifts since the first day of the month twelve months ago, each
 * converted into the list's currency, with their partners.
 */
import { addMonths } from "../../jsonapi/time";
import { giftsWithPartners } from "./currency-donations";
import { monthOf } from "./periods";
import { defineReport } from "./report";

export const yearDonations = defineReport({
  path: "year_donations",
  type: "reports_year_donations",
  id: "reports::yeardonations",
  coaches: false,
  attributes: async (request) => {
    const { donors, infos } = await giftsWithPartners(request, addMonths(`${monthOf(request.today)}-01`, -12));
    return { donor_infos: donors, donation_infos: infos };
  },
});
