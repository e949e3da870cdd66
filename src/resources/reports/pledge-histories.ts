/**
 * GET /reports/pledge_histories: for each period (by default the last 13 months), the monthly pledges the list's
 * contacts had at its end, pledged (not yet received) and received, converted into the list's currency. A
 * contact's pledge at a period's end is the first status log recorded after it, else its pledge now.
 */
import { sql } from "drizzle-orm";
import { contacts } from "../../../drizzle/schema";
import { q } from "../../db/sql";
import { contactStates, logsByContact, logsSince, loggedAfter, monthlyPledge, stateOf, type PledgeState } from "./pledge-states";
import { moneyNumber, sum } from "./money";
import { definePeriodReport } from "./report";

export const pledgeHistories = definePeriodReport({
  path: "pledge_histories",
  type: "reports_pledge_histories_periods",
  coaches: true,
  defaultRange: "13m",
  periods: async ({ list, rates, read }, periods) => {
    const earliest = periods.at(-1)!.endDay;
    const [contactRows, logRows] = await read([contactStates(list.id, sql`${q(contacts.pledgeAmount)} > 0`), logsSince(list.id, earliest)]);
    const logs = logsByContact(logRows);
    const now = new Map(contactRows.map((row) => [String(row.id), { created: String(row.created_at), state: stateOf(row) }]));
    const ids = new Set([...now.keys(), ...logs.keys()]);
    return periods.map((period) => {
      const states: PledgeState[] = [];
      for (const id of ids) {
        const logged = loggedAfter(logs, id, period.endDay, true);
        const current = now.get(id);
        if (logged) states.push(logged);
        else if (current && current.created <= period.lastSecond) states.push(current.state);
      }
      const total = (received: boolean) =>
        moneyNumber(sum(states.filter((state) => state.received === received).map((state) => monthlyPledge(state, list.currency, list.currency, rates, false))));
      return { pledged: total(false), received: total(true) };
    });
  },
});
