// Runs the Worker's crons under `npm run dev` as Cloudflare runs them when deployed. wrangler dev
// fires no cron by itself; started with `--test-scheduled` it answers `/__scheduled?cron=...` by
// calling the Worker's scheduled handler, so this calls that URL whenever a schedule of
// wrangler.toml's `[triggers] crons` matches the current minute.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from './wrangler.mjs';

/** The `crons = [...]` of wrangler.toml's `[triggers]` table. */
export async function readCrons(file = path.join(ROOT, 'wrangler.toml')) {
  const toml = await readFile(file, 'utf8');
  const table = /^\[triggers\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(toml)?.[1] ?? '';
  const list = /^\s*crons\s*=\s*\[([^\]]*)\]/m.exec(table)?.[1] ?? '';
  return [...list.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
}

const FIELDS = [
  { min: 0, max: 59 }, // minute
  { min: 0, max: 23 }, // hour
  { min: 1, max: 31 }, // day of month
  { min: 1, max: 12 }, // month
  { min: 0, max: 6 }, // day of week (7 is Sunday too)
];

/** The values one cron field allows: `*`, `5`, `1-5`, `*\/15`, `0-30/10`, and lists of these. */
function allowed(field, { min, max }) {
  const values = new Set();
  for (const part of field.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    let [from, to] = range === '*' ? [min, max] : range.split('-').map(Number);
    if (to === undefined) to = stepText === undefined ? from : max;
    if (![from, to, step].every(Number.isInteger) || step < 1) throw new Error(`Unsupported cron field "${field}"`);
    for (let v = from; v <= to; v += step) values.add(v === 7 && max === 6 ? 0 : v);
  }
  return values;
}

/** Whether a five-field cron expression matches a time (UTC, as Cloudflare runs crons). */
export function cronMatches(expression, date) {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) throw new Error(`A cron has five fields: "${expression}"`);
  const now = [date.getUTCMinutes(), date.getUTCHours(), date.getUTCDate(), date.getUTCMonth() + 1, date.getUTCDay()];
  const [minute, hour, day, month, weekday] = fields.map((f, i) => allowed(f, FIELDS[i]));
  const dayMatches = fields[2] === '*' || fields[4] === '*' ? day.has(now[2]) && weekday.has(now[4]) : day.has(now[2]) || weekday.has(now[4]);
  return minute.has(now[0]) && hour.has(now[1]) && month.has(now[3]) && dayMatches;
}

/**
 * Calls `${base}/__scheduled?cron=...` for every cron that matches each minute, from the next
 * minute on; returns a function that stops it. Failures are reported through `onError` and never stop
 * the schedule.
 */
export function runCrons(base, crons, { onRun = () => {}, onError = () => {} } = {}) {
  let timer;
  const tick = async () => {
    const now = new Date();
    for (const cron of crons) {
      if (!cronMatches(cron, now)) continue;
      try {
        const res = await fetch(`${base}/__scheduled?cron=${encodeURIComponent(cron)}`, { signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`answered ${res.status}`);
        onRun(cron);
      } catch (error) {
        onError(cron, error);
      }
    }
    schedule();
  };
  const schedule = () => {
    const ms = 60_000 - (Date.now() % 60_000) + 50;
    timer = setTimeout(tick, ms);
    timer.unref?.();
  };
  schedule();
  return () => clearTimeout(timer);
}
