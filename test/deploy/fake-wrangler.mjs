#!/usr/bin/env node
// A stand-in for `wrangler` on the PATH (test/deploy/deploy-setup.node.test.ts): it records every
// command line in FAKE_WRANGLER_LOG and answers like wrangler 4.86 from the account in FAKE_WRANGLER_STATE.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const statePath = process.env.FAKE_WRANGLER_STATE;
const state = JSON.parse(readFileSync(statePath, 'utf8'));
const stdin = args[0] === 'secret' && args[1] === 'put' ? readFileSync(0, 'utf8') : '';
appendFileSync(process.env.FAKE_WRANGLER_LOG, `${JSON.stringify(args)}\n`);
const save = () => writeFileSync(statePath, JSON.stringify(state));
const out = (value) => process.stdout.write(typeof value === 'string' ? value : JSON.stringify(value));
const cmd = args
  .filter((a) => !a.startsWith('--'))
  .slice(0, 3)
  .join(' ');

switch (true) {
  case cmd.startsWith('whoami'):
    if (!state.loggedIn) {
      process.stderr.write('You are not authenticated. Please run `wrangler login`.\n');
      process.exit(1);
    }
    out({ loggedIn: true, accounts: [{ id: 'acc_test', name: 'Test account' }] });
    break;
  case cmd === 'd1 list':
    out(state.databases);
    break;
  case cmd.startsWith('d1 create'): {
    const uuid = '11111111-2222-4333-8444-555555555555';
    state.databases.push({ name: args[2], uuid });
    save();
    out(`✅ Successfully created DB '${args[2]}'\n\n[[d1_databases]]\nbinding = "DB"\ndatabase_name = "${args[2]}"\ndatabase_id = "${uuid}"\n`);
    break;
  }
  case cmd.startsWith('d1 info'):
    out({ name: args[2], read_replication: { mode: state.replication } });
    break;
  case cmd === 'queues list':
    out(`┌──────┬──────┐\n│ name │ producers │\n${state.queues.map((q) => `│ ${q} │ 1 │`).join('\n')}\n└──────┘\n`);
    break;
  case cmd.startsWith('queues create'):
    state.queues.push(args[2]);
    save();
    break;
  case cmd === 'r2 bucket list':
    out(state.buckets.map((b) => `name:           ${b}\ncreation_date:  2026-01-01T00:00:00.000Z\n`).join('\n'));
    break;
  case cmd.startsWith('r2 bucket create'):
    state.buckets.push(args[3]);
    save();
    break;
  case cmd.startsWith('secret list'):
    if (!state.deployed) {
      process.stderr.write('This Worker does not exist on your account.\n');
      process.exit(1);
    }
    out(state.secrets.map((name) => ({ name, type: 'secret_text' })));
    break;
  case cmd.startsWith('secret put'):
    if (!stdin) process.exit(1);
    state.secrets.push(args[2]);
    save();
    break;
  case cmd === 'auth token':
    out({ type: 'oauth', token: 'fake-oauth-token' });
    break;
  case cmd.startsWith('d1 migrations apply'):
  case cmd === 'deploy':
    break;
  default:
    process.stderr.write(`fake wrangler: no answer for ${args.join(' ')}\n`);
    process.exit(2);
}
