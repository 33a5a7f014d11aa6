// The client libraries' live tests (`npm run test:clients`): one Worker of its own (e2e/server.mjs:
// fresh --persist-to directory, free port, migrations applied, first admin bootstrapped) with a small
// anonymous rate limit (10 requests per sliding 2 s window) so each client's 429 retry is reached in
// a few requests; the admin signs in and mints an admin API key; then each client's own scenario
// runs as a child process with STORE_API_BASE and STORE_API_KEY, one after the other on the same
// Worker, and must exit 0 (its output is printed when it does not). Each scenario also mints, with
// that admin key, a publishable key (reads products and makes a guest cart with it, from its origin
// and not from another, and falls back to it when its shopper signs out) and a storefront:buyer-ip
// secret key (its requests with buyerIp are counted on each shopper: X-RateLimit-Remaining goes
// down for one shopper and starts afresh for another, under the authenticated limit), and runs its
// 400 (limit=100000) and 422 checks twice: in the API version the client was generated for, which it
// sends as Store-Version by default, and in 2026-11-20 (details one object, read as a list of one).
//
//   TypeScript  node --test clients/typescript/test/unit.test.mjs clients/typescript/test/live.test.mjs
//               (after building the package: tsc -p clients/typescript)
//   Python      python3 -m unittest discover -s tests -p "test_*.py" -v   (cwd clients/python; unit tests too)
//   PHP         php clients/php/tests/unit.php, then php clients/php/tests/live.php
//               (skipped when php is not installed; CI installs it)

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT } from '../scripts/lib/wrangler.mjs';
import { startWorker } from './server.mjs';

const CHILD_TIMEOUT_MS = 6 * 60_000;
let worker;
let apiKey;

/** JSON request with the 429 retried after Retry-After (the anonymous limit is small here). */
async function call(base, method, pathname, { body, token } = {}) {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${base}${pathname}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status === 429 && attempt < 10) {
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000 + 100));
      continue;
    }
    const json = text ? JSON.parse(text) : null;
    if (!res.ok) throw new Error(`${method} ${pathname} answered ${res.status}: ${text}`);
    return json.data;
  }
}

/** Runs a command; resolves { code, output } with stdout and stderr interleaved. */
function run(command, args, { cwd = ROOT, env = {} } = {}) {
  return new Promise((resolve, reject) => {
    // Without NODE_TEST_CONTEXT: a child `node --test` that inherits it runs nothing, and exits 0.
    const { NODE_TEST_CONTEXT: _, ...parentEnv } = process.env;
    const child = spawn(command, args, { cwd, env: { ...parentEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      output += `\n[killed after ${CHILD_TIMEOUT_MS / 1000}s]`;
      child.kill('SIGTERM');
    }, CHILD_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), output });
    });
  });
}

async function runScenario(label, command, args, options = {}) {
  const env = { STORE_API_BASE: worker.base, STORE_API_KEY: apiKey, NO_COLOR: '1' };
  const { code, output } = await run(command, args, { ...options, env });
  if (process.env.CLIENTS_VERBOSE === '1' || code !== 0) console.log(`--- ${label}: ${[command, ...args].join(' ')} (exit ${code}) ---\n${output}`);
  assert.equal(code, 0, `${label} live test failed (exit ${code}); its output is printed above`);
}

before(async () => {
  worker = await startWorker({
    vars: { RATE_LIMIT_ANONYMOUS: '10', RATE_LIMIT_WINDOW_SECONDS: '2', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
  });
  const session = await call(worker.base, 'POST', '/api/auth/login', { body: { email: worker.admin.email, password: worker.admin.password } });
  const created = await call(worker.base, 'POST', '/api/settings/api-keys', { token: session.token, body: { name: `clients live test ${Date.now()}`, role: 'admin' } });
  apiKey = created.key;
  assert.match(apiKey, /^sk_/);
});

after(async () => {
  await worker?.stop();
});

test('TypeScript client (clients/typescript)', async () => {
  const build = await run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'clients/typescript']);
  if (build.code !== 0) console.log(build.output);
  assert.equal(build.code, 0, 'the TypeScript client does not build (tsc -p clients/typescript)');
  await runScenario('TypeScript', process.execPath, [
    '--test',
    '--test-concurrency=1',
    '--test-reporter=spec',
    'clients/typescript/test/unit.test.mjs',
    'clients/typescript/test/live.test.mjs',
  ]);
});

test('Python client (clients/python)', async () => {
  // test_*.py: the unit tests (no server needed) and the live scenario.
  await runScenario('Python', 'python3', ['-m', 'unittest', 'discover', '-s', 'tests', '-p', 'test_*.py', '-v'], { cwd: path.join(ROOT, 'clients', 'python') });
});

test('PHP client (clients/php)', async (t) => {
  if (spawnSync('php', ['-v'], { stdio: 'ignore' }).status !== 0) {
    t.skip('php is not installed (CI installs it)');
    return;
  }
  await runScenario('PHP unit', 'php', ['clients/php/tests/unit.php']);
  await runScenario('PHP', 'php', ['clients/php/tests/live.php']);
});
