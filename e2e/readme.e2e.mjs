// Runs the README's five-minute tour against a Worker of its own. Run: node --test e2e/readme.e2e.mjs
//
// The tour is the ```sh blocks that follow a `<!-- tour -->` comment in README.md. They run in bash
// with `set -euo pipefail`, twice in a row on the same state (the README promises they can be pasted
// twice), in a directory whose .wrangler/dev-admin-key holds an admin key, as after `npm run dev`.
// The Worker is e2e/seeded-worker.mjs's: a free port, its own state, the migrations applied and the
// demo catalogue seeded first, so it never touches your .wrangler state.
// TOUR_VERBOSE=1 prints what each run printed.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT } from '../scripts/lib/wrangler.mjs';
import { startSeededWorker } from './seeded-worker.mjs';

/** The tour's shell blocks: each ```sh fence right after a `<!-- tour -->` comment. */
export function tourBlocks(markdown) {
  return [...markdown.matchAll(/<!--\s*tour\s*-->\s*\n```(?:sh|bash)\n([\s\S]*?)\n```/g)].map((m) => m[1]);
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

let worker;

before(async () => {
  worker = await startSeededWorker({ label: 'readme' });
});

after(async () => {
  await worker?.stop();
});

test('the README tour runs twice in a row, every command succeeding', async (t) => {
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  const blocks = tourBlocks(readme);
  assert.ok(blocks.length >= 3, `expected the tour's sh blocks to be marked <!-- tour -->, found ${blocks.length}`);
  const script = `set -euo pipefail\n${blocks.join('\n')}\n`;
  const env = { ...process.env, PORT: String(worker.port) };
  delete env.KEY; // the tour reads it from .wrangler/dev-admin-key itself
  for (const run of [1, 2]) {
    const result = await runBash(script, { cwd: worker.home, env });
    if (process.env.TOUR_VERBOSE) t.diagnostic(`run ${run}:\n${result.stdout}${result.stderr}`);
    assert.equal(result.code, 0, `run ${run} of the tour failed (exit ${result.code}):\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
    assert.doesNotMatch(result.stderr, /error:/i, `run ${run} printed an error:\n${result.stderr}`);
  }
});
