#!/usr/bin/env node
// `npm run dev`: prepares the local D1 database and starts `wrangler dev`.
//
//   1. applies the D1 migrations to the local database (.wrangler/state),
//   2. loads the demo catalogue (scripts/seed-data.mjs) if the catalogue is empty,
//   3. makes sure the admin key saved in .wrangler/dev-admin-key exists and is usable (else mints one),
//   3b. and the reference storefront's publishable key in .wrangler/dev-publishable-key (a pk_ key
//       allowed from http://127.0.0.1:8790 and http://localhost:8790 and STOREFRONT_PORT's, read by `npm run storefront`),
//   4. writes .dev.vars with a random JWT_SECRET the first time,
//   4b. makes sure the local admin-panel login saved in .wrangler/dev-admin-login works (else creates it),
//   5. starts `wrangler dev` on 127.0.0.1:$PORT (default 8787) and prints the URL and the key once ready,
//   6. runs the crons of wrangler.toml on their schedules, as Cloudflare does once deployed.
//
// Safe to re-run on the same state, and needs no terminal: wrangler runs non-interactively throughout.
// Options: --no-seed (or SEED=0) skips the demo catalogue.

import { spawn } from 'node:child_process';
import net from 'node:net';
import { constants as osConstants } from 'node:os';
import path from 'node:path';
import { buildSeedData, buildSeedStatements } from './seed-data.mjs';
import { uploadSeedImages } from './lib/seed-images.mjs';
import { ensureDevVars, STOREFRONT_ORIGINS } from './lib/dev-vars.mjs';
import {
  DEV_KEY_FILE,
  DEV_PUBLISHABLE_KEY_FILE,
  insertApiKeySql,
  keyUsableSql,
  mintApiKey,
  publishableKeyUsableSql,
  readDevKey,
  readDevPublishableKey,
  saveDevKey,
} from './lib/api-keys.mjs';
import { DEV_LOGIN_FILE, devAdminExistsSql, devAdminPlan, readDevLogin, saveDevLogin } from './lib/dev-admin.mjs';
import { readCrons, runCrons } from './lib/dev-crons.mjs';
import { describeAppliedMigrations, ROOT, stripAnsi, WRANGLER_JS, WranglerError, wranglerEnv, wranglerVersion, assertWranglerInstalled } from './lib/wrangler.mjs';
import { applyMigrations, runBatch, withLocalD1 } from './lib/local-d1.mjs';

const started = Date.now();
const args = process.argv.slice(2);
const seedEnabled = !args.includes('--no-seed') && !/^(0|false|no|off)$/i.test(process.env.SEED ?? '');
const HOST = '127.0.0.1';
const port = parsePort(process.env.PORT);
const useColor = Boolean(process.stdout.isTTY) && !('NO_COLOR' in process.env);
const paint = (code) => (text) => (useColor ? `\u001b[${code}m${text}\u001b[0m` : text);
const bold = paint('1');
const dim = paint('2');
const green = paint('32');
const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`;
const step = (text) => console.log(`${green('✔')} ${text}`);

function parsePort(value) {
  if (value === undefined || value === '') return 8787;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) fail(`PORT must be a port number (1-65535), got ${JSON.stringify(value)}`);
  return n;
}

function fail(message, error) {
  console.error(`\n✖ ${message}`);
  if (error) console.error(error instanceof WranglerError ? error.output : (error.stack ?? String(error)));
  process.exit(1);
}

/** True when nothing listens on host:port yet (checked up front, so a clash fails in a second, not after the D1 work). */
function portIsFree(p, host = HOST) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(p, host, () => server.close(() => resolve(true)));
  });
}

async function prepareDatabase() {
  const addedVars = await ensureDevVars();
  if (addedVars.length) step(`Wrote ${addedVars.join(', ')} to .dev.vars (local settings)`);
  // Every D1 step below runs in this one process (scripts/lib/local-d1.mjs): one local runtime start
  // for all of them, where a `wrangler` command per step started one each.
  return withLocalD1((db) => prepareDatabaseIn(db));
}

async function prepareDatabaseIn(db) {
  // 1. Migrations: each pending one in its own batch, recorded as wrangler records them.
  let t = Date.now();
  const applied = await applyMigrations(db, (pending) =>
    console.log(`${dim('…')} Applying ${pending.length} D1 migration${pending.length === 1 ? '' : 's'} to the local database`),
  );
  step(`${describeAppliedMigrations(applied)} ${dim(seconds(Date.now() - t))}`);

  // 2 + 3. One read for the state, then at most one write (a single D1 batch) for what is missing.
  t = Date.now();
  const now = new Date();
  const savedKey = await readDevKey();
  const savedPk = await readDevPublishableKey();
  const state = await runBatch(
    db,
    [
      'SELECT (SELECT count(*) FROM products) AS products, (SELECT count(*) FROM categories) AS categories, ' +
        '(SELECT count(*) FROM brands) AS brands, (SELECT count(*) FROM vendors) AS vendors',
      savedKey ? keyUsableSql(savedKey, now) : 'SELECT 0 AS usable',
      devAdminExistsSql(),
      savedPk ? publishableKeyUsableSql(savedPk, STOREFRONT_ORIGINS, now) : 'SELECT 0 AS usable',
    ],
    'Reading the local database state',
  );
  const counts = state[0][0];
  const keyUsable = state[1][0].usable > 0;
  const pkUsable = state[3][0].usable > 0;
  const catalogueEmpty = counts.products + counts.categories + counts.brands + counts.vendors === 0;

  const script = [];
  let seeded;
  if (seedEnabled && catalogueEmpty) {
    seeded = buildSeedData();
    script.push(...buildSeedStatements(seeded));
  }
  const key = keyUsable ? savedKey : mintApiKey();
  if (!keyUsable) script.push(insertApiKeySql(key, { name: 'Local development', role: 'admin', now }));
  const publishableKey = pkUsable ? savedPk : mintApiKey('publishable');
  if (!pkUsable) {
    script.push(insertApiKeySql(publishableKey, { name: 'Reference storefront (local)', type: 'publishable', allowedOrigins: STOREFRONT_ORIGINS, now }));
  }
  const savedLogin = await readDevLogin();
  const loginPlan = devAdminPlan(savedLogin, state[2][0].admins > 0, now);
  script.push(...loginPlan.sql);
  if (script.length) await runBatch(db, script, seeded ? 'Seeding the demo catalogue' : 'Creating the local keys and login');
  if (!keyUsable) await saveDevKey(key);
  if (!pkUsable) await saveDevKey(publishableKey, DEV_PUBLISHABLE_KEY_FILE);
  if (loginPlan.sql.length) await saveDevLogin(loginPlan.login);

  if (seeded) {
    step(
      `Seeded the demo catalogue: ${seeded.products.length} products (${seeded.product_variants.length} variants), ` +
        `${seeded.categories.length} categories, ${seeded.brands.length} brands, ${seeded.vendors.length} vendors, ` +
        `${seeded.currencies.length + 1} currencies, ${seeded.tax_rates.length} tax rates, coupon ${seeded.promotions
          .filter((p) => p.is_coupon)
          .map((c) => c.code)
          .join(', ')} ${dim(seconds(Date.now() - t))}`,
    );
  } else if (!seedEnabled) {
    step(`Demo catalogue skipped (--no-seed); the catalogue has ${counts.products} products`);
  } else {
    step(`Catalogue already has data (${counts.products} products); not seeding`);
  }
  const keyFile = path.relative(ROOT, DEV_KEY_FILE);
  if (keyUsable) step(`Reusing the admin key in ${keyFile}`);
  else step(`Created a new admin key${savedKey ? ` (the one in ${keyFile} was missing, revoked or expired)` : ''}, saved in ${keyFile}`);
  const pkFile = path.relative(ROOT, DEV_PUBLISHABLE_KEY_FILE);
  if (pkUsable) step(`Reusing the storefront's publishable key in ${pkFile}`);
  else {
    step(
      `Created a publishable key for the storefront (${STOREFRONT_ORIGINS.join(', ')})` +
        `${savedPk ? ` (the one in ${pkFile} was missing, revoked, expired or no longer allowed from them)` : ''}, saved in ${pkFile}: ${publishableKey}`,
    );
  }
  const loginFile = path.relative(ROOT, DEV_LOGIN_FILE);
  step(loginPlan.sql.length ? `Created the local admin login ${loginPlan.login.email}, saved in ${loginFile}` : `Reusing the admin login in ${loginFile}`);
  // A few active products get a picture in the local R2 bucket once the Worker is up (uploaded through the API).
  const pictured = seeded ? seeded.products.filter((p) => p.status === 'active') : [];
  return { key, publishableKey, login: loginPlan.login, pictured };
}

function banner({ key, publishableKey, login, crons }, readyPort) {
  const base = `http://localhost:${readyPort}`;
  const lines = [
    '',
    bold(`Store API is running (ready in ${seconds(Date.now() - started)})`),
    '',
    `  API:           ${base}/api`,
    `  Docs:          ${base}/docs`,
    `  OpenAPI:       ${base}/api/openapi.json`,
    `  Admin API key: ${key}`,
    `  Admin panel:   ${base}/admin  (sign in as ${login.email} / ${login.password})`,
    `  Storefront:    npm run storefront  (${STOREFRONT_ORIGINS[0]}, with the publishable key ${publishableKey.slice(0, 11)}... in ${path.relative(ROOT, DEV_PUBLISHABLE_KEY_FILE)})`,
    `  Crons:         ${crons.length ? crons.join(', ') : 'none'} (run here on their schedules, as when deployed)`,
    '',
    '  Try:',
    `    curl ${base}/api/health`,
    `    curl -H "Authorization: Bearer ${key}" "${base}/api/products?status=draft"`,
    '',
    dim('  Press Ctrl+C to stop. A new admin key: npm run --silent admin:key'),
    '',
  ];
  console.log(lines.join('\n'));
}

async function picturesFor({ key, pictured }, base) {
  if (!pictured.length) return;
  const t = Date.now();
  try {
    const stored = await uploadSeedImages(base, key, pictured);
    step(`Uploaded ${stored} product pictures to the local R2 bucket, one per active product ${dim(seconds(Date.now() - t))}`);
  } catch (error) {
    console.error(`✖ Uploading the demo pictures failed: ${error.message}`);
  }
}

function startWrangler(prepared) {
  const wranglerArgs = ['dev', '--port', String(port), '--ip', HOST, '--show-interactive-dev-session=false', '--test-scheduled'];
  // One line instead of wrangler's banner and its "update available": the pin is deliberate.
  console.log(dim(`wrangler ${wranglerVersion()}, pinned: the newest release that runs on Node 20 (update check and telemetry off)`));
  console.log(dim(`$ wrangler ${wranglerArgs.join(' ')}`));
  const env = wranglerEnv({ BROWSER: 'none' });
  // Keep wrangler's colours when we are on a terminal (its output is piped through us).
  if (useColor && env.FORCE_COLOR === undefined) env.FORCE_COLOR = '1';
  // stdin is closed: wrangler registers no hotkeys and never waits for input.
  const child = spawn(process.execPath, [WRANGLER_JS, ...wranglerArgs], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });

  let announced = false;
  // wrangler 4.86 neither exits nor rebuilds when the Worker's FIRST build fails (the port accepts
  // connections that hang, and edits are not picked up), so stop it and say so instead of hanging.
  let buildFailed = false;
  let stopping = false;
  let exitCode;
  const watch = (stream, out) => {
    let pending = '';
    stream.on('data', (chunk) => {
      out.write(chunk);
      if (announced) return;
      pending += chunk.toString('utf8');
      const lines = pending.split(/\r?\n/);
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const plain = stripAnsi(line);
        if (/\[ERROR\] Build failed/.test(plain)) buildFailed = true;
        const match = /Ready on (https?:\/\/\S+)/.exec(plain);
        if (match && !announced) {
          announced = true;
          let readyPort = port;
          try {
            readyPort = Number(new URL(match[1]).port) || port;
          } catch {}
          // Let wrangler's own line(s) flush first.
          setImmediate(async () => {
            // Through localhost, the origin the banner gives, so the pictures' URLs are on the panel's origin.
            await picturesFor(prepared, `http://localhost:${readyPort}`);
            banner(prepared, readyPort);
          });
          runCrons(`http://${HOST}:${readyPort}`, prepared.crons, {
            onError: (cron, error) => console.error(`✖ cron "${cron}" failed: ${error.message ?? error}`),
          });
          break;
        }
      }
      if (pending.length > 65536) pending = pending.slice(-4096);
      if (buildFailed && !announced && !stopping) {
        stopping = true;
        // Let wrangler finish printing the error, then stop it.
        setTimeout(() => {
          exitCode = 1;
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        }, 500);
      }
    });
  };
  watch(child.stdout, process.stdout);
  watch(child.stderr, process.stderr);

  const forward = (signal) => () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward(signal));

  child.on('error', (error) => fail('Could not start wrangler dev', error));
  child.on('exit', (code, signal) => {
    if (buildFailed && !announced) {
      console.error('\n✖ The Worker failed to build (see the error above). Fix it, then run `npm run dev` again.');
      process.exit(1);
    }
    if (exitCode !== undefined) process.exit(exitCode);
    if (signal) process.exit(128 + (osConstants.signals[signal] ?? 1));
    process.exit(code ?? 1);
  });
}

try {
  assertWranglerInstalled();
} catch (error) {
  fail(error.message);
}
if (!(await portIsFree(port))) {
  fail(`Port ${port} on ${HOST} is already in use (is another \`npm run dev\` running?). Stop it, or pick another port: PORT=8788 npm run dev`);
}
let prepared;
try {
  prepared = { ...(await prepareDatabase()), crons: await readCrons() };
} catch (error) {
  fail(error instanceof WranglerError ? error.message : 'Preparing the local database failed', error);
}
startWrangler(prepared);
