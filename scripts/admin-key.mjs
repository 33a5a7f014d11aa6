#!/usr/bin/env node
// `npm run --silent admin:key`: creates a new admin API key in the LOCAL D1 database (applying any
// pending migrations first) and prints only the key on stdout, so it can be captured:
//
//   KEY=$(npm run --silent admin:key)
//   curl -H "Authorization: Bearer $KEY" http://localhost:8787/api/products?status=draft
//
// Options: --name <text> (default "Local admin (npm run admin:key)"). Errors go to stderr, exit code 1.
// Works while `npm run dev` is running; the key is usable at once.

import { insertApiKeySql, mintApiKey } from './lib/api-keys.mjs';
import { applyLocalMigrations } from './lib/local-d1.mjs';
import { d1Query, WranglerError } from './lib/wrangler.mjs';

function parseArgs(argv) {
  let name = 'Local admin (npm run admin:key)';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--name' && i + 1 < argv.length) name = argv[++i];
    else if (arg.startsWith('--name=')) name = arg.slice('--name='.length);
    else if (arg === '-h' || arg === '--help') {
      process.stderr.write('Usage: npm run --silent admin:key [-- --name <text>]\nPrints a new admin API key for the local database.\n');
      process.exit(0);
    } else throw new Error(`unknown argument: ${arg}`);
  }
  name = name.trim();
  if (!name || name.length > 200) throw new Error('--name must be 1 to 200 characters');
  return { name };
}

try {
  const { name } = parseArgs(process.argv.slice(2));
  await applyLocalMigrations();
  const key = mintApiKey();
  await d1Query(insertApiKeySql(key, { name, role: 'admin' }), 'Inserting the admin key');
  process.stdout.write(`${key}\n`);
} catch (error) {
  process.stderr.write(`admin:key: ${error.message}\n`);
  if (error instanceof WranglerError) process.stderr.write(`${error.output}\n`);
  process.exitCode = 1;
}
