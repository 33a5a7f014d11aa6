// Runs the README's five-minute tour against a Worker of its own. Run: node --test e2e/readme.e2e.mjs
//
// The tour is the ```sh blocks that follow a `<!-- tour -->` comment in README.md. They run in bash
// with `set -euo pipefail`, twice in a row on the same state (the README promises they can be pasted
// twice), in a directory whose .wrangler/dev-admin-key holds an admin key, as after `npm run dev`.
// The Worker gets its own --persist-to directory and a free port (like e2e/server.mjs), with the
// migrations applied and the demo catalogue seeded first, so it never touches your .wrangler state.
// TOUR_VERBOSE=1 prints what each run printed.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { insertApiKeySql, mintApiKey } from '../scripts/lib/api-keys.mjs';
import { ROOT, runWranglerOk, WRANGLER_JS, wranglerEnv } from '../scripts/lib/wrangler.mjs';
import { buildSeedStatements } from '../scripts/seed-data.mjs';

/** The tour's shell blocks: each ```sh fence right after a `<!-- tour -->` comment. */
export function tourBlocks(markdown) {
  return [...markdown.matchAll(/<!--\s*tour\s*-->\s*\n```(?:sh|bash)\n([\s\S]*?)\n```/g)].map((m) => m[1]);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, child, output, ms = 90_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${output.join('')}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`The Worker did not answer ${url} within ${ms / 1000}s:\n${output.join('')}`);
}

function runBash(script, { cwd, env }) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let state;
let home;
let child;
let port;
const output = [];

before(async () => {
  state = await mkdtemp(path.join(tmpdir(), 'store-readme-state-'));
  home = await mkdtemp(path.join(tmpdir(), 'store-readme-cwd-'));
  port = await freePort();
  await runWranglerOk(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state], 'Applying D1 migrations (readme)');
  // What `npm run dev` does to a new database: the demo catalogue and an admin key in .wrangler/dev-admin-key.
  const key = mintApiKey();
  const sql = [...buildSeedStatements(), insertApiKeySql(key, { name: 'README tour', role: 'admin' })].join('\n\n');
  const file = path.join(state, 'seed.sql');
  await writeFile(file, `${sql}\n`, 'utf8');
  await runWranglerOk(['d1', 'execute', 'DB', '--local', '--persist-to', state, '--file', file], 'Seeding (readme)');
  await mkdir(path.join(home, '.wrangler'), { recursive: true });
  await writeFile(path.join(home, '.wrangler', 'dev-admin-key'), `${key}\n`, 'utf8');

  const vars = { ENVIRONMENT: 'development', JWT_SECRET: randomBytes(32).toString('base64url') };
  const args = ['dev', '--port', String(port), '--ip', '127.0.0.1', '--persist-to', state, '--show-interactive-dev-session=false', '--env-file', '/dev/null'];
  for (const [name, value] of Object.entries(vars)) args.push('--var', `${name}:${value}`);
  child = spawn(process.execPath, [WRANGLER_JS, ...args], { cwd: ROOT, env: wranglerEnv({ BROWSER: 'none', NO_COLOR: '1' }), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => output.push(String(d)));
  child.stderr.on('data', (d) => output.push(String(d)));
  await waitFor(`http://127.0.0.1:${port}/api/health`, child, output);
});

after(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  if (state) await rm(state, { recursive: true, force: true });
  if (home) await rm(home, { recursive: true, force: true });
});

test('the README tour runs twice in a row, every command succeeding', async (t) => {
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  const blocks = tourBlocks(readme);
  assert.ok(blocks.length >= 3, `expected the tour's sh blocks to be marked <!-- tour -->, found ${blocks.length}`);
  const script = `set -euo pipefail\n${blocks.join('\n')}\n`;
  const env = { ...process.env, PORT: String(port) };
  delete env.KEY; // the tour reads it from .wrangler/dev-admin-key itself
  for (const run of [1, 2]) {
    const result = await runBash(script, { cwd: home, env });
    if (process.env.TOUR_VERBOSE) t.diagnostic(`run ${run}:\n${result.stdout}${result.stderr}`);
    assert.equal(result.code, 0, `run ${run} of the tour failed (exit ${result.code}):\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
    assert.doesNotMatch(result.stderr, /error:/i, `run ${run} printed an error:\n${result.stderr}`);
  }
});
