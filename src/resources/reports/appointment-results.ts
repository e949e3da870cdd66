/**
 * GET /reports/appointment_results: for each period (by default the last four weeks), the appointments held and
 * scheduled, the partners who began or raised (or lowered) a monthly pledge, and the pledges to the list's primary
 * appeal. A partner's monthly pledge at the start and end of a period is read from its status logs (the first
 * recorded in or after the period), else from the contact now. The appointments and the appeal's pledges are kept
 * counts by time (drizzle/kept-sums.ts, `appointments` and `appeal_pledges_made`).
 */
import { sql } from "drizzle-orm";
import { contacts } from "../../../drizzle/schema";
import { inList, q } from "../../db/sql";
import { FINANCIAL_PARTNER } from "../account-lists/totals";
import { timeSums, type TimeGroup } from "./kept-by-time";
import { moneyNumber } from "./money";
import { contactStates, logsByContact, logsSince, loggedAfter, monthlyPledge, stateOf } from "./pledge-states";
import { definePeriodReport } from "./report";

const rowsIn = (groups: TimeGroup[]) => groups.reduce((rows, group) => rows + group.rows, 0);

export const appointmentResults = definePeriodReport({
  path: "appointment_results",
  type: "reports_appointment_results_periods",
  coaches: true,
  defaultRange: "4w",
  // The mobile client parses these as dates.
  plainDates: true,
  averages: ["individual_appointments", "group_appointments", "new_monthly_partners", "new_special_pledges", "monthly_increase", "pledge_increase"],
  periods: async ({ list, rates, read }, periods) => {
    const [from, until] = [periods.at(-1)!.from, periods[0].until];
    const appointmentSums = timeSums("appointments", list.id, periods);
    const pledgeSums = list.primaryAppealId ? timeSums("appeal_pledges_made", list.primaryAppealId, periods) : undefined;
    const [logRows, created, ...answers] = await read([
      logsSince(list.id, periods.at(-1)!.startDay),
      contactStates(list.id, sql`${q(contacts.createdAt)} >= ${from} AND ${q(contacts.createdAt)} < ${until}`),
      ...appointmentSums.queries,
      ...(pledgeSums?.queries ?? []),
    ]);
    const appointments = appointmentSums.sums(answers.slice(0, appointmentSums.queries.length));
    const appealPledges = pledgeSums?.sums(answers.slice(appointmentSums.queries.length)) ?? periods.map(() => []);
    const logs = logsByContact(logRows);
    // The contacts whose pledge changed: logged, or created as financial partners; and their state now.
    const changedIds = [...new Set([...logs.keys(), ...created.filter((row) => row.status === FINANCIAL_PARTNER).map((row) => String(row.id))])];
    // The contacts created in the periods were read with their state now; only the others logged are read for theirs.
    const createdIds = new Set(created.map((row) => String(row.id)));
    const loggedOnly = [...logs.keys()].filter((id) => !createdIds.has(id));
    const [current] = loggedOnly.length > 0 ? await read([contactStates(list.id, inList(contacts.id, loggedOnly))]) : [[]];
    const now = new Map([...created, ...current].map((row) => [String(row.id), { created: String(row.created_at), state: stateOf(row) }]));
    const monthly = (state: Parameters<typeof monthlyPledge>[0] | undefined) => (state ? moneyNumber(monthlyPledge(state, list.currency, list.currency, rates, true)) : 0);
    return periods.map((period, index) => {
      const inPeriod = (at: unknown) => String(at) >= period.from && String(at) < period.until;
      const changes = changedIds.flatMap((id) => {
        const contact = now.get(id);
        const loggedIn = (logs.get(id) ?? []).some((log) => log.day >= period.startDay && log.day <= period.endDay);
        const createdIn = contact !== undefined && inPeriod(contact.created) && contact.state.status === FINANCIAL_PARTNER;
        if (!contact || (!loggedIn && !createdIn)) return [];
        const beginning = createdIn ? 0 : monthly(loggedAfter(logs, id, period.startDay, false) ?? contact.state);
        const end = monthly(loggedAfter(logs, id, period.endDay, true) ?? contact.state);
        return [{ beginning, increase: Math.round((end - beginning) * 100) / 100 }];
      });
      const pledged = moneyNumber({ numerator: appealPledges[index].reduce((units, group) => units + group.units, 0n), denominator: 1n });
      const add = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) * 100) / 100;
      return {
        individual_appointments: rowsIn(appointments[index].filter((group) => group.key2 === "held")),
        appointments_scheduled: rowsIn(appointments[index]),
        weekly_individual_appointment_goal: 10,
        group_appointments: 0,
        new_monthly_partners: changes.filter((change) => change.beginning === 0 && change.increase > 0).length,
        monthly_increase: add(changes.filter((change) => change.increase > 0).map((change) => change.increase)),
        monthly_decrease: add(changes.filter((change) => change.increase < 0).map((change) => change.increase)),
        // A contact pledges to an appeal once: its pledges are its pledging contacts.
        new_special_pledges: rowsIn(appealPledges[index]),
        pledge_increase: pledged,
        special_gifts: pledged,
      };
    });
  },
});
