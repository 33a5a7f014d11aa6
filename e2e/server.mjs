// Starts the Worker for the browser tests with its own state: a fresh --persist-to directory and a
// free port, migrations applied first, so it never touches the developer's .wrangler state.
// The first admin is created through the deployed-store bootstrap flow (POST /api/auth/bootstrap).
// startWranglerDev is the `wrangler dev` both it and e2e/seeded-worker.mjs (the docs' examples) start.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { applyLocalMigrations } from '../scripts/lib/local-d1.mjs';
import { ROOT, WRANGLER_JS, wranglerEnv } from '../scripts/lib/wrangler.mjs';

/** The port `npm run dev` serves the API on by default: no test Worker takes it (see freePort). */
export const DEV_PORT = 8787;

/**
 * A free TCP port on 127.0.0.1 (for the Worker, or a page served beside it on its own origin), never
 * DEV_PORT: a docs example that hard-codes 8787 must fail in `npm run test:docs`, not pass by luck.
 */
export async function freePort() {
  for (;;) {
    const port = await new Promise((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address();
        server.close(() => resolve(port));
      });
    });
    if (port !== DEV_PORT) return port;
  }
}

async function waitFor(url, child, output, ms = 90_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${output.join('')}`);
    if (/\[ERROR\] Build failed/.test(output.join(''))) throw new Error(`The Worker failed to build:\n${output.join('')}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`The Worker did not answer ${url} within ${ms / 1000}s:\n${output.join('')}`);
}

// The process groups of the wrangler devs still running: ended with this process, Ctrl+C included
// (being groups of their own, they do not get the terminal's SIGINT).
const running = new Set();
function endAll() {
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {}
  }
}
process.on('exit', endAll);
for (const name of ['SIGINT', 'SIGTERM']) {
  process.once(name, () => {
    endAll();
    process.kill(process.pid, name);
  });
}

/**
 * Starts `wrangler dev` on a free port of 127.0.0.1 (and a free inspector port: wrangler's default,
 * 9229, is taken by any other wrangler dev running) with its D1 and R2 in `state` and `vars` as Worker
 * vars; resolves once /api/health answers, with { base, port, output, stop() } (stop ends it).
 */
export async function startWranglerDev({ state, vars }) {
  // A port found free can be taken before wrangler binds it (an outgoing connection gets it as its
  // ephemeral port on a busy machine): that start fails at once with "Address already in use", so try other ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startWranglerDevOnce({ state, vars });
    } catch (error) {
      if (attempt === 3 || !/Address already in use/.test(String(error?.message ?? error))) throw error;
    }
  }
}

async function startWranglerDevOnce({ state, vars }) {
  const port = await freePort();
  const inspectorPort = await freePort();
  const args = [
    'dev',
    '--port',
    String(port),
    '--ip',
    '127.0.0.1',
    '--persist-to',
    state,
    '--show-interactive-dev-session=false',
    '--env-file',
    '/dev/null',
    '--inspector-port',
    String(inspectorPort),
  ];
  for (const [name, value] of Object.entries(vars)) args.push('--var', `${name}:${value}`);
  const output = [];
  // Its own process group, so that stop() reaches workerd too when wrangler does not end it.
  const child = spawn(process.execPath, [WRANGLER_JS, ...args], {
    cwd: ROOT,
    env: wranglerEnv({ BROWSER: 'none', NO_COLOR: '1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout.on('data', (d) => output.push(String(d)));
  child.stderr.on('data', (d) => output.push(String(d)));
  running.add(child.pid);
  const exited = new Promise((r) => child.once('exit', r)).then(() => running.delete(child.pid));
  const signal = (name) => {
    try {
      process.kill(-child.pid, name);
    } catch {}
  };
  // SIGTERM, and SIGKILL to the whole group if it is still there 10 s later (a Worker stuck in a request).
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    signal('SIGTERM');
    const ended = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 10_000))]);
    if (!ended) {
      signal('SIGKILL');
      await exited;
    }
  };
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/api/health`, child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, port, output, stop };
}

/**
 * Starts the Worker; resolves { base, admin: { email, password, name }, bootstrapSecret, stop() }.
 * With `bootstrap: false` the first admin is left for the test to create (the /admin/setup page).
 * `vars` adds or overrides Worker vars (e.g. `{ RATE_LIMIT_ANONYMOUS: '10' }`).
 */
export async function startWorker({ bootstrap = true, vars: extraVars = {} } = {}) {
  const state = await mkdtemp(path.join(tmpdir(), 'store-e2e-'));
  const bootstrapSecret = randomBytes(24).toString('base64url');
  const vars = {
    ENVIRONMENT: 'development',
    JWT_SECRET: randomBytes(32).toString('base64url'),
    BOOTSTRAP_SECRET: bootstrapSecret,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    ...extraVars,
  };
  await applyLocalMigrations(undefined, { persistTo: state });
  let worker;
  const stop = async () => {
    await worker?.stop();
    await rm(state, { recursive: true, force: true });
  };
  try {
    worker = await startWranglerDev({ state, vars });
    const { base, output } = worker;
    const admin = { email: 'owner@example.com', password: `pw-${randomBytes(9).toString('base64url')}`, name: 'Store Owner' };
    if (!bootstrap) return { base, admin, bootstrapSecret, stop, output };
    const res = await fetch(`${base}/api/auth/bootstrap`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ secret: bootstrapSecret, ...admin }),
    });
    if (res.status !== 201) throw new Error(`bootstrap answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer().catch(() => {});
    return { base, admin, bootstrapSecret, stop, output };
  } catch (error) {
    await stop();
    throw error;
  }
}
