/**
 * GET /reports/pledge_histories: for each period (by default the last 13 months), the monthly pledges the list's
 * contacts had at its end, pledged (not yet received) and received, converted into the list's currency. A
 * contact's pledge at a period's end is the first status log recorded after it, else its pledge now. The totals
 * now are kept rows (`contact_pledges`, drizzle/kept-sums.ts); a past period's differ from them by the pledges of
 * the contacts created since (kept by when they were created, `contact_pledges_created`) and of those logged since,
 * which are read. Each period's pledges are converted at the rates of its last day.
 */
import { sql } from "drizzle-orm";
import { contacts, keptSums } from "../../../drizzle/schema";
import { q } from "../../db/sql";
import { datedRates } from "./dated-rates";
import { timeSums, UNTIL_THE_END, type TimeGroup } from "./kept-by-time";
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
    const createdSince = timeSums("contact_pledges_created", list.id, periods.map((period) => ({ from: period.until, until: UNTIL_THE_END })));
    // One batch: the totals now and the pledges of the contacts created since are of one moment.
    const [groups, loggedRows, logRows, ...createdAnswers] = await read([
      sql`SELECT ${q(keptSums.key1)} AS pledge_currency, NULLIF(${q(keptSums.key2)}, '') AS pledge_frequency, CAST(${q(keptSums.key3)} AS INTEGER) AS pledge_received,
        CAST(${q(keptSums.units)} AS TEXT) AS pledge_amount FROM ${keptSums} WHERE ${q(keptSums.kind)} = 'contact_pledges' AND ${q(keptSums.ownerId)} = ${list.id}`,
      contactStates(list.id, sql`${q(contacts.id)} IN (${loggedContacts(list.id, earliest.endDay)})`),
      logsSince(list.id, earliest.endDay),
      ...createdSince.queries,
    ]);
    const logs = logsByContact(logRows);
    const logged = loggedRows.map((row) => ({ id: String(row.id), created: String(row.created_at), state: stateOf(row) }));
    const now = groups.map(stateOf);
    const created = createdSince.sums(createdAnswers).map((span) => span.map(createdState));
    const pledgeCurrencies = [...now, ...created.flat(), ...logged.map((contact) => contact.state), ...[...logs.values()].flat().map((log) => log.state)].map((state) => state.currency || list.currency);
    // Periods come newest first.
    const rates = await datedRates(request, [list.currency, ...pledgeCurrencies], earliest.endDay, periods[0].endDay);
    return periods.map((period, index) => {
      const monthly = (states: PledgeState[], received: boolean) =>
        sum(states.filter((state) => state.received === received).map((state) => monthlyPledge(state, list.currency, list.currency, rates.at(period.endDay), false)));
      // The logged contacts that existed at the period's end, as they are now, and as they were then: logged after
      // it, else as now.
      const existed = logged.filter((contact) => contact.created <= period.lastSecond);
      const then = logged.flatMap((contact) => {
        const loggedThen = loggedAfter(logs, contact.id, period.endDay, true);
        return loggedThen ? [loggedThen] : contact.created <= period.lastSecond ? [contact.state] : [];
      });
      // The totals now, less the pledges of the contacts created since and of the logged ones as they are now
      // (those created since are already taken), plus the logged ones as they were.
      const total = (received: boolean) =>
        moneyNumber(sum([monthly(now, received), negated(monthly(created[index], received)), negated(monthly(existed.map((contact) => contact.state), received)), monthly(then, received)]));
      return { pledged: total(false), received: total(true) };
    });
  },
});

/** The kept pledges of the contacts created in a span, as one pledge (`contact_pledges_created`: currency, frequency|received). */
function createdState(group: TimeGroup): PledgeState {
  const [frequency, received] = group.key3.split("|");
  return stateOf({ pledge_currency: group.key2 || null, pledge_frequency: frequency || null, pledge_received: received === "1", pledge_amount: group.units });
}
