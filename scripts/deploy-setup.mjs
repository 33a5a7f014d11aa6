// `npm run deploy:setup`: puts the store on your Cloudflare account, creating only what is missing,
// so it is safe to run again (after an upgrade, say):
//
//   1. checks you are logged in (`wrangler login`, or CLOUDFLARE_API_TOKEN), else stops;
//   2. the D1 database of wrangler.toml: created if missing, its id written into wrangler.toml;
//      read replication turned on (Cloudflare's API: wrangler has no command for it yet);
//   3. the queues and the R2 bucket wrangler.toml names: created if missing;
//   4. the secrets: JWT_SECRET and BOOTSTRAP_SECRET made up if missing (the bootstrap secret is
//      printed once: you need it to create the first admin), the optional ones asked for on a
//      terminal (Enter skips);
//   5. the remote migrations, then `wrangler deploy`.
//
// It runs `wrangler` from the PATH (`npm run` puts the project's own first), each command printed
// before it runs. Options: --config <file> (wrangler.toml by default), --yes (ask nothing).

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';

const args = process.argv.slice(2);
const configPath = args.includes('--config') ? args[args.indexOf('--config') + 1] : 'wrangler.toml';
const askNothing = args.includes('--yes') || !process.stdin.isTTY;
const API = (process.env.CLOUDFLARE_API_BASE ?? 'https://api.cloudflare.com/client/v4').replace(/\/+$/, '');

/** Secrets the store needs, made up here when missing; and the ones a store may add, asked for. */
const GENERATED_SECRETS = ['JWT_SECRET', 'BOOTSTRAP_SECRET'];
const OPTIONAL_SECRETS = {
  STRIPE_SECRET_KEY: 'Stripe secret key (sk_live_… / sk_test_…), for card payments',
  STRIPE_WEBHOOK_SECRET: 'Stripe webhook signing secret (whsec_…) of /api/payments/stripe/webhook',
  RESEND_API_KEY: 'Resend API key, with NOTIFICATIONS_EMAIL_PROVIDER = "resend"',
  TWILIO_ACCOUNT_SID: 'Twilio account SID, with NOTIFICATIONS_SMS_PROVIDER = "twilio"',
  TWILIO_AUTH_TOKEN: 'Twilio auth token',
  TWILIO_FROM: 'Twilio sending number or Messaging Service SID',
};

/** What wrangler.toml asks for: the D1 database, every queue (dead-letter ones too) and every R2 bucket. */
export function resources(toml) {
  const all = (pattern) => [...toml.matchAll(pattern)].map((m) => m[1]);
  return {
    database: all(/^\s*database_name\s*=\s*"([^"]+)"/gm)[0],
    databaseId: all(/^\s*database_id\s*=\s*"([^"]+)"/gm)[0],
    queues: [...new Set([...all(/^\s*queue\s*=\s*"([^"]+)"/gm), ...all(/^\s*dead_letter_queue\s*=\s*"([^"]+)"/gm)])],
    buckets: [...new Set(all(/^\s*bucket_name\s*=\s*"([^"]+)"/gm))],
  };
}

/** A name listed as a whole word in wrangler's text output (queues list and r2 bucket list print tables). */
const listed = (output, name) => new RegExp(`(^|[\\s│|:])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[\\s│|])`, 'm').test(output);

function run(command, { input, quiet = false } = {}) {
  console.log(`$ wrangler ${command.join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn('wrangler', command, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, WRANGLER_SEND_METRICS: 'false' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      if (!quiet) process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      if (!quiet) process.stderr.write(d);
    });
    child.on('error', (error) => resolve({ code: 127, stdout, stderr: `${stderr}${error.message}` }));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

async function must(command, options) {
  const result = await run(command, options);
  if (result.code !== 0) {
    if (options?.quiet) console.error(result.stdout + result.stderr);
    throw new Error(`wrangler ${command.join(' ')} failed (exit ${result.code})`);
  }
  return result;
}

const json = (text) => JSON.parse(text.slice(Math.min(...['[', '{'].map((c) => text.indexOf(c)).filter((i) => i >= 0))));

async function main() {
  let toml = readFileSync(configPath, 'utf8');
  const wanted = resources(toml);

  const who = await run(['whoami', '--json'], { quiet: true });
  if (who.code !== 0) {
    console.error('✖ Not logged in to Cloudflare: run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN), then run this again.');
    process.exit(1);
  }
  const account = process.env.CLOUDFLARE_ACCOUNT_ID || json(who.stdout).accounts?.[0]?.id;

  // The database, and its id in wrangler.toml.
  const databases = json((await must(['d1', 'list', '--json'], { quiet: true })).stdout);
  let id = databases.find((d) => d.name === wanted.database)?.uuid;
  if (!id) {
    const created = await must(['d1', 'create', wanted.database]);
    id = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(created.stdout)?.[0];
    if (!id) throw new Error('could not read the new database id from wrangler d1 create');
  }
  if (wanted.databaseId !== id) {
    toml = toml.replace(/^(\s*database_id\s*=\s*)"[^"]*"/m, `$1"${id}"`);
    writeFileSync(configPath, toml);
    console.log(`✔ wrote database_id = "${id}" into ${configPath}`);
  }
  const info = json((await must(['d1', 'info', wanted.database, '--json'], { quiet: true })).stdout);
  if (info.read_replication?.mode !== 'auto') await enableReadReplication(account, id);

  // Queues and buckets.
  const queues = (await must(['queues', 'list'], { quiet: true })).stdout;
  for (const queue of wanted.queues.filter((q) => !listed(queues, q))) await must(['queues', 'create', queue]);
  if (wanted.buckets.length) {
    const buckets = (await must(['r2', 'bucket', 'list'], { quiet: true })).stdout;
    for (const bucket of wanted.buckets.filter((b) => !listed(buckets, b))) await must(['r2', 'bucket', 'create', bucket]);
  }

  // Secrets (a Worker not deployed yet has none: the listing fails).
  const secretList = await run(['secret', 'list', '--format', 'json'], { quiet: true });
  const present = new Set(secretList.code === 0 ? json(secretList.stdout).map((s) => s.name) : []);
  for (const name of GENERATED_SECRETS.filter((n) => !present.has(n))) {
    const value = randomBytes(32).toString('base64url');
    await must(['secret', 'put', name], { input: value });
    if (name === 'BOOTSTRAP_SECRET') console.log(`✔ BOOTSTRAP_SECRET is ${value}: create the first admin with it (/admin/setup), then delete it.`);
  }
  const missing = Object.keys(OPTIONAL_SECRETS).filter((n) => !present.has(n));
  if (missing.length && !askNothing) {
    const ask = createInterface({ input: process.stdin, output: process.stdout });
    for (const name of missing) {
      const value = (await ask.question(`${name} (${OPTIONAL_SECRETS[name]}; Enter skips): `)).trim();
      if (value) await must(['secret', 'put', name], { input: value });
    }
    ask.close();
  }

  await must(['d1', 'migrations', 'apply', 'DB', '--remote']);
  await must(['deploy']);
  console.log('✔ Deployed. Next: open /admin/setup on the Worker with the BOOTSTRAP_SECRET, or see docs/deploying.md.');
}

/** Cloudflare's API with wrangler's own credential: PUT the database's read_replication mode. */
async function enableReadReplication(account, id) {
  const token = process.env.CLOUDFLARE_API_TOKEN || json((await must(['auth', 'token', '--json'], { quiet: true })).stdout).token;
  console.log(`$ PUT ${API}/accounts/${account}/d1/database/${id} {"read_replication":{"mode":"auto"}}`);
  const response = await fetch(`${API}/accounts/${account}/d1/database/${id}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ read_replication: { mode: 'auto' } }),
  });
  if (!response.ok) throw new Error(`turning on read replication answered ${response.status}: ${await response.text()}`);
  console.log('✔ read replication is on');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(`✖ ${error.message}`);
    process.exit(1);
  });
}
