/**
 * GET /reports/pledge_histories: for each period (by default the last 13 months), the monthly pledges the list's
 * contacts had at its end, pledged (not yet received) and received, converted into the list's currency. A
 * contact's pledge at a period's end is the first status log recorded after it, else its pledge now. The totals
 * now are kept rows (`contact_pledges`, drizzle/kept-sums.ts); a past period's differ from them only by the contacts
 * logged or created since, which are read. Each period's pledges are converted at the rates of its last day.
 */
import { sql } from "drizzle-orm";
import { contacts, keptSums } from "../../../drizzle/schema";
import { q } from "../../db/sql";
import { datedRates } from "./dated-rates";
import { moneyNumber, negated, sum } from "./money";
import { contactStates, logsByContact, logsSince, loggedAfter, loggedContacts, monthlyPledge, stateOf, type PledgeState } from "./pledge-states";
import { definePeriodReport } from "./report";

export const pledgeHistories = definePeriodReport({
  path: "pledge_histories",
  type: "reports_pledge_histories_periods",
  coaches: true,
  defaultRange: "13m",
  periods: async (request, periods) => {
    const { list, read } = request;
    const earliest = periods.at(-1)!;
    const [groups, changedRows, logRows] = await read([
      sql`SELECT ${q(keptSums.key1)} AS pledge_currency, NULLIF(${q(keptSums.key2)}, '') AS pledge_frequency, CAST(${q(keptSums.key3)} AS INTEGER) AS pledge_received,
        CAST(${q(keptSums.units)} AS TEXT) AS pledge_amount FROM ${keptSums} WHERE ${q(keptSums.kind)} = 'contact_pledges' AND ${q(keptSums.ownerId)} = ${list.id}`,
      contactStates(list.id, sql`(${q(contacts.createdAt)} > ${earliest.lastSecond} OR ${q(contacts.id)} IN (${loggedContacts(list.id, earliest.endDay)}))`),
      logsSince(list.id, earliest.endDay),
    ]);
    const logs = logsByContact(logRows);
    const changed = changedRows.map((row) => ({ id: String(row.id), created: String(row.created_at), state: stateOf(row) }));
    const now = groups.map(stateOf);
    const changedNow = changed.map((contact) => contact.state);
    const pledgeCurrencies = [...now, ...changedNow, ...[...logs.values()].flat().map((log) => log.state)].map((state) => state.currency || list.currency);
    // Periods come newest first.
    const rates = await datedRates(request, [list.currency, ...pledgeCurrencies], earliest.endDay, periods[0].endDay);
    return periods.map((period) => {
      const monthly = (states: PledgeState[], received: boolean) =>
        sum(states.filter((state) => state.received === received).map((state) => monthlyPledge(state, list.currency, list.currency, rates.at(period.endDay), false)));
      // The changed contacts as they were at the period's end: logged after it, else as now if they existed.
      const then = changed.flatMap((contact) => {
        const logged = loggedAfter(logs, contact.id, period.endDay, true);
        return logged ? [logged] : contact.created <= period.lastSecond ? [contact.state] : [];
      });
      // The totals now, less the changed contacts as they are now, plus them as they were.
      const total = (received: boolean) => moneyNumber(sum([monthly(now, received), negated(monthly(changedNow, received)), monthly(then, received)]));
      return { pledged: total(false), received: total(true) };
    });
  },
});
