import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// `npm run deploy:setup` (scripts/deploy-setup.mjs) against a fake `wrangler` on the PATH that
// records what it is asked (test/deploy/fake-wrangler.mjs), and a fake Cloudflare API for the one
// call wrangler has no command for (read replication).

const ROOT = path.resolve(import.meta.dirname, '../..');
const QUEUES = ['store-events', 'webhook-deliveries', 'notifications', 'product-imports', 'webhook-replays', 'webhook-deliveries-dlq', 'notifications-dlq'];

interface Account {
  loggedIn: boolean;
  databases: { name: string; uuid: string }[];
  replication: 'auto' | 'disabled';
  queues: string[];
  buckets: string[];
  deployed: boolean;
  secrets: string[];
}

async function setup(account: Account) {
  const dir = mkdtempSync(path.join(tmpdir(), 'deploy-setup-'));
  const bin = path.join(dir, 'bin');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(bin);
  copyFileSync(path.join(ROOT, 'test/deploy/fake-wrangler.mjs'), path.join(bin, 'wrangler'));
  chmodSync(path.join(bin, 'wrangler'), 0o755);
  const config = path.join(dir, 'wrangler.toml');
  copyFileSync(path.join(ROOT, 'wrangler.toml'), config);
  const state = path.join(dir, 'state.json');
  writeFileSync(state, JSON.stringify(account));
  const log = path.join(dir, 'commands.log');
  writeFileSync(log, '');

  const puts: { url: string; auth: string; body: string }[] = [];
  const api = createServer((req, res) => {
    let body = '';
    req
      .on('data', (d) => (body += d))
      .on('end', () => {
        puts.push({ url: `${req.method} ${req.url}`, auth: req.headers.authorization ?? '', body });
        res.setHeader('Content-Type', 'application/json').end('{"success":true}');
      });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));

  const result = await new Promise<{ code: number; output: string }>((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts/deploy-setup.mjs'), '--config', config, '--yes'], {
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH}`,
        FAKE_WRANGLER_STATE: state,
        FAKE_WRANGLER_LOG: log,
        CLOUDFLARE_API_BASE: `http://127.0.0.1:${(api.address() as AddressInfo).port}/client/v4`,
        CLOUDFLARE_API_TOKEN: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
  api.close();
  const commands = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as string[]).join(' '));
  return { ...result, commands, puts, toml: readFileSync(config, 'utf8'), account: JSON.parse(readFileSync(state, 'utf8')) as Account };
}

const empty: Account = { loggedIn: true, databases: [], replication: 'disabled', queues: [], buckets: [], deployed: false, secrets: [] };

describe('npm run deploy:setup', () => {
  it('refuses clearly when not logged in, and runs nothing else', async () => {
    const run = await setup({ ...empty, loggedIn: false });
    expect(run.code).toBe(1);
    expect(run.output).toContain('Not logged in to Cloudflare: run `npx wrangler login`');
    expect(run.commands).toEqual(['whoami --json']);
  });

  it('creates everything on a new account: the database (its id into wrangler.toml), replication, queues, bucket, secrets; then migrates and deploys', async () => {
    const run = await setup(empty);
    expect(run.code, run.output).toBe(0);
    expect(run.commands).toEqual([
      'whoami --json',
      'd1 list --json',
      'd1 create store',
      'd1 info store --json',
      'auth token --json',
      'queues list',
      ...QUEUES.map((q) => `queues create ${q}`),
      'r2 bucket list',
      'r2 bucket create store-media',
      'secret list --format json',
      'secret put JWT_SECRET',
      'secret put BOOTSTRAP_SECRET',
      'd1 migrations apply DB --remote',
      'deploy',
    ]);
    expect(run.toml).toContain('database_id = "11111111-2222-4333-8444-555555555555"');
    expect(run.puts).toEqual([
      {
        url: 'PUT /client/v4/accounts/acc_test/d1/database/11111111-2222-4333-8444-555555555555',
        auth: 'Bearer fake-oauth-token',
        body: '{"read_replication":{"mode":"auto"}}',
      },
    ]);
    expect(run.output).toMatch(/BOOTSTRAP_SECRET is [\w-]{43}/);
    expect(run.account.queues.sort()).toEqual([...QUEUES].sort());
  });

  it('creates nothing again on an account that has it all: it only checks, migrates and deploys', async () => {
    const run = await setup({
      ...empty,
      databases: [{ name: 'store', uuid: '99999999-2222-4333-8444-555555555555' }],
      replication: 'auto',
      queues: QUEUES,
      buckets: ['store-media', 'other-bucket'],
      deployed: true,
      secrets: ['JWT_SECRET', 'BOOTSTRAP_SECRET'],
    });
    expect(run.code, run.output).toBe(0);
    expect(run.commands).toEqual([
      'whoami --json',
      'd1 list --json',
      'd1 info store --json',
      'queues list',
      'r2 bucket list',
      'secret list --format json',
      'd1 migrations apply DB --remote',
      'deploy',
    ]);
    expect(run.toml).toContain('database_id = "99999999-2222-4333-8444-555555555555"');
    expect(run.puts).toEqual([]);
  });

  it('creates only what is missing: one queue, and a bucket whose name another only starts with', async () => {
    const run = await setup({
      ...empty,
      databases: [{ name: 'store', uuid: '99999999-2222-4333-8444-555555555555' }],
      replication: 'auto',
      queues: QUEUES.filter((q) => q !== 'notifications-dlq'),
      buckets: ['store-media-old'],
    });
    expect(run.code, run.output).toBe(0);
    expect(run.commands.filter((c) => c.includes('create'))).toEqual(['queues create notifications-dlq', 'r2 bucket create store-media']);
  });
});
