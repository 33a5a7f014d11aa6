import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { cronMatches, readCrons } from '../scripts/lib/dev-crons.mjs';

// `npm run dev` runs wrangler.toml's crons on their schedules (scripts/lib/dev-crons.mjs).
const at = (iso: string) => new Date(iso);

describe('the dev crons', () => {
  it('reads the crons of wrangler.toml', async () => {
    expect(await readCrons()).toEqual(['* * * * *', '17 * * * *']);
    const dir = await mkdtemp(path.join(tmpdir(), 'crons-'));
    const file = path.join(dir, 'wrangler.toml');
    await writeFile(file, 'name = "x"\n[vars]\ncrons = ["no"]\n[triggers]\ncrons = [ "0 * * * *" ]\n');
    expect(await readCrons(file)).toEqual(['0 * * * *']);
    await writeFile(file, 'name = "x"\n');
    expect(await readCrons(file)).toEqual([]);
  });

  it('matches a minute the way Cloudflare does (UTC, five fields)', () => {
    expect(cronMatches('* * * * *', at('2026-11-24T02:40:00Z'))).toBe(true);
    expect(cronMatches('17 * * * *', at('2026-11-24T05:17:30Z'))).toBe(true);
    expect(cronMatches('17 * * * *', at('2026-11-24T05:18:00Z'))).toBe(false);
    expect(cronMatches('*/15 9-17 * * 1-5', at('2026-11-24T09:45:00Z'))).toBe(true); // a Tuesday
    expect(cronMatches('*/15 9-17 * * 1-5', at('2026-11-29T09:45:00Z'))).toBe(false); // a Sunday
    expect(cronMatches('0 0 1 * 7', at('2026-11-29T00:00:00Z'))).toBe(true); // day 1 or a Sunday
    expect(cronMatches('0,30 * * * *', at('2026-11-24T02:30:00Z'))).toBe(true);
    expect(() => cronMatches('* * * *', at('2026-11-24T02:30:00Z'))).toThrow(/five fields/);
  });
});
