/**
 * Dates relative to the reference date the demo data is built around (2026-11-01 unless told otherwise):
 * "overdue", "upcoming", "last month" and the giving history are all computed from it, not from the wall clock.
 */
const DAY_MS = 86_400_000;

export class Clock {
  readonly reference: Date;

  constructor(referenceDate: string) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(referenceDate)) throw new Error(`reference date must be YYYY-MM-DD: ${referenceDate}`);
    this.reference = new Date(`${referenceDate}T00:00:00Z`);
  }

  /** The date `days` after the reference date (negative: before), as YYYY-MM-DD. */
  date(days: number): string {
    return formatDate(new Date(this.reference.getTime() + days * DAY_MS));
  }

  /** A timestamp `days` after the reference date at `hour`:`minute` UTC, as YYYY-MM-DDTHH:MM:SSZ. */
  time(days: number, hour = 12, minute = 0, second = 0): string {
    const ms = this.reference.getTime() + days * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000;
    return formatTimestamp(new Date(ms));
  }

  /** Whole days from the reference date to `date` (YYYY-MM-DD). */
  daysUntil(date: string): number {
    return Math.round((new Date(`${date}T00:00:00Z`).getTime() - this.reference.getTime()) / DAY_MS);
  }
}

export function formatDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function formatTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/** `date` (YYYY-MM-DD) moved by whole months, the day clamped to the target month's length. */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split("-").map(Number);
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return formatDate(target);
}

export function addDays(date: string, days: number): string {
  return formatDate(new Date(new Date(`${date}T00:00:00Z`).getTime() + days * DAY_MS));
}

/** A timestamp on `date` (YYYY-MM-DD). */
export function at(date: string, hour = 12, minute = 0, second = 0): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date}T${pad(hour)}:${pad(minute)}:${pad(second)}Z`;
}
