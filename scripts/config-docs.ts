// Writes the table of variables in docs/deploying.md from src/config.ts, the one list of them
// (npm run docs:config; test/config.node.test.ts fails while the two differ).

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_DEFAULTS, CONFIG_NAMES, configDescription, SECRET_NAMES } from '../src/config';

export const CONFIG_DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'deploying.md');
const BEGIN = '<!-- config-table: generated from src/config.ts by npm run docs:config -->';
const END = '<!-- /config-table -->';

const MiB = 1024 * 1024;

function shown(value: unknown): string {
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return 'unset';
  if (typeof value === 'number' && value >= MiB && value % MiB === 0) return `${value} (${value / MiB} MiB)`;
  return `\`${Array.isArray(value) ? value.join(',') : String(value)}\``;
}

/** One row per variable: its name, its value when unset, and its description. */
export function configTable(): string {
  const rows = CONFIG_NAMES.map((name) => {
    const secret = SECRET_NAMES.includes(name);
    const description = configDescription(name).replace(/\|/g, '\\|');
    return `| \`${name}\` | ${secret ? 'secret' : shown(CONFIG_DEFAULTS[name])} | ${description} |`;
  });
  return ['| Variable | Unset means | What it does |', '| --- | --- | --- |', ...rows].join('\n');
}

/** `markdown` with the text between the markers replaced by the table. */
export function withConfigTable(markdown: string): string {
  const begin = markdown.indexOf(BEGIN);
  const end = markdown.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`${path.basename(CONFIG_DOC)} has no ${BEGIN} ... ${END} block`);
  return `${markdown.slice(0, begin + BEGIN.length)}\n${configTable()}\n${markdown.slice(end)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  writeFileSync(CONFIG_DOC, withConfigTable(readFileSync(CONFIG_DOC, 'utf8')));
  console.log(`${path.relative(process.cwd(), CONFIG_DOC)}: the table of variables is written from src/config.ts`);
}
