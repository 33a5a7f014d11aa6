import type { Interval } from './reports.schemas';

/** Days are `YYYY-MM-DD` strings in UTC; this file does their arithmetic. */

const DAY_MS = 86_400_000;
const toDate = (day: string) => new Date(`${day}T00:00:00Z`);
const toDay = (date: Date) => date.toISOString().slice(0, 10);

export const addDays = (day: string, n: number) => toDay(new Date(toDate(day).getTime() + n * DAY_MS));
export const daysBetween = (from: string, to: string) => Math.round((toDate(to).getTime() - toDate(from).getTime()) / DAY_MS);

/** The first day of the period `day` falls in: itself, its week's Monday, or its month's 1st. */
export function periodStart(day: string, interval: Interval): string {
  if (interval === 'day') return day;
  if (interval === 'month') return `${day.slice(0, 7)}-01`;
  const weekday = (toDate(day).getUTCDay() + 6) % 7; // Monday 0 ... Sunday 6
  return addDays(day, -weekday);
}

function nextPeriodStart(start: string, interval: Interval): string {
  if (interval === 'day') return addDays(start, 1);
  if (interval === 'week') return addDays(start, 7);
  const date = toDate(start);
  return toDay(new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)));
}

/** Every period from `from` to `to`, the first and last cut to the range: `{ key, start, end }`, key being the period's own first day. */
export function periodsOf(from: string, to: string, interval: Interval): { key: string; start: string; end: string }[] {
  const periods = [];
  for (let key = periodStart(from, interval); key <= to; key = nextPeriodStart(key, interval)) {
    const last = addDays(nextPeriodStart(key, interval), -1);
    periods.push({ key, start: key < from ? from : key, end: last > to ? to : last });
  }
  return periods;
}
