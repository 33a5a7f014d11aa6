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

/**
 * A range as whole calendar months (`[firstMonth, lastMonth]` as `YYYY-MM`, or none) and the day
 * ranges before and after them: 2025-01-15..2025-04-10 is months 2025-02..2025-03 and days
 * 2025-01-15..2025-01-31 and 2025-04-01..2025-04-10.
 */
export function monthsAndDays(from: string, to: string): { months?: [string, string]; days: [string, string][] } {
  const firstWhole = from.endsWith('-01') ? from : nextPeriodStart(periodStart(from, 'month'), 'month');
  const afterTo = addDays(to, 1);
  const lastWholeEnd = afterTo.endsWith('-01') ? to : addDays(periodStart(to, 'month'), -1);
  if (firstWhole > lastWholeEnd) return { days: [[from, to]] };
  const days: [string, string][] = [];
  if (from < firstWhole) days.push([from, addDays(firstWhole, -1)]);
  if (lastWholeEnd < to) days.push([addDays(lastWholeEnd, 1), to]);
  return { months: [firstWhole.slice(0, 7), lastWholeEnd.slice(0, 7)], days };
}
