/** When a pledge's gifts fall due. */
import { type FrequencyName, PLEDGE_FREQUENCIES } from "./catalog";
import { addDays, addMonths } from "./clock";

/** Due dates from the pledge start, in order, up to and including `until` (YYYY-MM-DD). */
export function dueDates(startDate: string, frequency: FrequencyName, until: string): string[] {
  const dates: string[] = [];
  for (let n = 0; n < 2000; n++) {
    const date = dueDate(startDate, frequency, n);
    if (date > until) break;
    dates.push(date);
  }
  return dates;
}

export function dueDate(startDate: string, frequency: FrequencyName, n: number): string {
  if (frequency === "weekly") return addDays(startDate, 7 * n);
  if (frequency === "biweekly") return addDays(startDate, 14 * n);
  return addMonths(startDate, PLEDGE_FREQUENCIES[frequency].months * n);
}

/** The first due date after `date`: for a partner who stopped giving, the day they became late. */
export function firstDueAfter(startDate: string, frequency: FrequencyName, date: string): string {
  for (let n = 0; n < 2000; n++) {
    const due = dueDate(startDate, frequency, n);
    if (due > date) return due;
  }
  throw new Error("no due date found");
}
