#!/usr/bin/env node
// `npm run bench`: the store API against the bare runtime, in workerd through Miniflare's own API.
//
// For each catalogue size (1k, 10k, 100k products; `--quick`: 1k and 10k, short runs) one Miniflare
// runs, each Worker on its own port (workerd sockets, no proxy in front):
//   store    the real Worker, bundled by `wrangler deploy --dry-run`, with its D1 (migrations from
//            migrations/*.sql), the RateLimiter Durable Object, both queues and their consumers, and
//            the vars of wrangler.toml (ENVIRONMENT=production as deployed, rate limits raised out of the way);
//   metered  the same bundle with its D1 and limiter bindings counted (bench/workers/metered.js),
//            used only for a few requests per scenario to read D1 round trips, rows read and DO calls;
//   B0       a fixed JSON body, no middleware (bench/workers/b0.js);
//   B1       the first page of products from the same D1 in one query (bench/workers/b1.js);
//   B2       the rows of a one-line guest order written in one D1 batch, no validation (bench/workers/b2.js),
//            run in slices beside the orders scenario as B1 is beside every scenario;
//   floor    each rendered read's own D1 floor: the D1 calls the metered copy recorded for one of its
//            requests, replayed with their results sent as JSON (bench/workers/floor.js,
//            bench/lib/floor.mjs), run in slices beside that scenario; an order's (no webhook
//            endpoint) likewise, with new ids and the next variant each time, its event sent on;
//   admin    the runner's door to D1 for migrations and seeding (never measured).
// Load comes from autocannon at a fixed concurrency, after a warm-up, alternating B1 and scenario
// in slices. Every run measures a copy of the seeded catalogue (bench/.tmp/run-<size>).
// Before the sizes, the cold start (bench/lib/cold-start.mjs): fresh isolate to first answer, the
// startup CPU of `wrangler check startup`, the bundle's bytes by package.
// Results: bench/results.md, bench/chart.svg (and the raw numbers in bench/.tmp/results.json).
//
// Options: --quick, --sizes 1000,10000, --duration <s>, --warmup <s>, --connections <n>, --slices <n>
// (each scenario's run split into n slices alternating with B1; 3, or 1 with --quick), --fresh
// (reseed even when the saved database matches); for profiling, --only <scenario ids> and --path <GET path>
// (repeatable), which leave results.md alone; --cold: the cold start figures alone (printed, and
// kept in bench/.tmp/cold.json; results.md left alone).

import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Miniflare } from 'miniflare';
import {
  catalogueStatements,
  expectedCounts,
  LEAVES,
  productId,
  productStatus,
  SALES_YEAR,
  salesYearStatements,
  SEARCH_WORD,
  SEED_VERSION,
  variantCount,
  variantId,
} from './lib/catalogue.mjs';
import { coldStart } from './lib/cold-start.mjs';
import { readProfile, selfTimeByStage } from './lib/cpuprofile.mjs';
import { defineOwnFloor, readTrace, TRACE_HEADER } from './lib/floor.mjs';
import { writeReport } from './lib/report.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(BENCH);
const TMP = path.join(BENCH, '.tmp');
const BUILD = path.join(TMP, 'build');
const require = (await import('node:module')).createRequire(import.meta.url);

// ---------------------------------------------------------------------------------------------
// Options

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
function option(name, fallback) {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i === -1) return fallback;
  const arg = argv[i];
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[i + 1];
}
const quick = flag('quick');
const opts = {
  quick,
  sizes: String(option('sizes', quick ? '1000,10000' : '1000,10000,100000'))
    .split(',')
    .map(Number),
  duration: Number(option('duration', quick ? 1.5 : 10)),
  warmup: Number(option('warmup', quick ? 0.5 : 2)),
  connections: Number(option('connections', 16)),
  // Each scenario's run is split into this many slices alternating with B1's (and B2's for orders): measureBeside.
  slices: Number(option('slices', quick ? 1 : 3)),
  fresh: flag('fresh'),
  drainSeconds: Number(option('drain', quick ? 4 : 30)),
  // Profiling aids: run only these scenario ids, and/or extra anonymous GETs; the report is not rewritten.
  only: option('only', undefined)?.split(','),
  paths: argv.flatMap((a, i) => (argv[i - 1] === '--path' ? [a] : [])),
  // --profile <scenario id>: a V8 CPU profile of the store Worker during that scenario's run.
  profile: option('profile', undefined),
  cold: flag('cold'),
};
const partial = Boolean(opts.only || opts.paths.length || opts.profile || opts.cold);
const started = Date.now();
const log = (...a) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s]`, ...a);

// ---------------------------------------------------------------------------------------------
// Build

const WRANGLER_ENV = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' };
const WRANGLER_JS = require.resolve('wrangler/bin/wrangler.js');

function run(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: WRANGLER_ENV });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}\n${out}`))));
  });
}

// Besides index.js: esbuild's metafile (bytes by package) and the upload's multipart bundle
// (what `wrangler check startup --worker` takes).
const METAFILE = path.join(BUILD, 'bundle-meta.json');
const WORKER_BUNDLE = path.join(BUILD, 'worker.bundle');

async function build() {
  await rm(BUILD, { recursive: true, force: true });
  await run(process.execPath, [WRANGLER_JS, 'deploy', '--dry-run', '--outdir', BUILD, '--metafile', METAFILE, '--outfile', WORKER_BUNDLE]);
  await copyFile(path.join(BENCH, 'workers', 'metered.js'), path.join(BUILD, 'metered.js'));
}

// ---------------------------------------------------------------------------------------------
// Configuration from wrangler.toml, through wrangler's own reader

const wrangler = await import('wrangler');
const config = wrangler.unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml') }, { hideWarnings: true });
const BENCH_LIMIT = '1000000000';
const vars = {
  ...Object.fromEntries(Object.entries(config.vars ?? {}).map(([k, v]) => [k, String(v)])),
  // The measured Worker runs as deployed (no Server-Timing, no D1 cost headers); the metered copy
  // runs in development and reports the costs.
  ENVIRONMENT: 'production',
  JWT_SECRET: randomBytes(32).toString('hex'),
  // The limiter stays in the path (a busy key is served from leases: src/rate-limit/leases.ts);
  // only its limits move out of the way.
  RATE_LIMIT_ANONYMOUS: BENCH_LIMIT,
  RATE_LIMIT_AUTHENTICATED: BENCH_LIMIT,
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
};
const queueConsumers = Object.fromEntries(
  (config.queues?.consumers ?? []).map((c) => [
    c.queue,
    { maxBatchSize: c.max_batch_size, maxBatchTimeout: c.max_batch_timeout, maxRetries: c.max_retries, deadLetterQueue: c.dead_letter_queue },
  ]),
);
const queueProducers = Object.fromEntries((config.queues?.producers ?? []).map((p) => [p.binding, { queueName: p.queue }]));
const D1_ID = 'bench-store';
const LIMITERS = { RATE_LIMITER: { className: 'RateLimiter', useSQLite: true }, ADDRESS_LIMITER: { className: 'AddressLimiter', useSQLite: true } };
const IP_POOL = 200;
/** How B2's order.placed events begin (bench/workers/b2.js), so the webhook count leaves them out. */
const B2_EVENT_PREFIX = 'evt_b2-';
const socket = [{ host: '127.0.0.1', port: 0 }];

const common = { modules: true, compatibilityDate: config.compatibility_date, compatibilityFlags: config.compatibility_flags ?? [] };
const esModules = (root, ...files) => ({ modulesRoot: root, modules: files.map((f) => ({ type: 'ESModule', path: path.join(root, f) })) });
// The store's bindings: its vars, D1, limiters and queue producers.
const storeBindings = { bindings: vars, d1Databases: { DB: D1_ID }, durableObjects: LIMITERS, queueProducers };
/**
 * The store Worker as deployed. Its modules are listed, not found from a scriptPath: Miniflare would
 * parse the 3 MB bundle in Node to walk its imports on every start (over a second, no part of a
 * Worker's start).
 */
const storeWorker = { ...common, name: 'store', ...esModules(BUILD, 'index.js'), ...storeBindings };
const b0Worker = { ...common, name: 'b0', scriptPath: path.join(BENCH, 'workers', 'b0.js') };
/** B0's answer with the store's bindings (the cold start's reference for the store's configuration). */
const b0BoundWorker = { ...common, name: 'b0-bound', ...esModules(path.join(BENCH, 'workers'), 'b0-bound.js', 'b0.js'), ...storeBindings };

function miniflareOptions(stateDir) {
  return {
    ...(opts.profile ? { inspectorPort: PROFILE_PORT } : {}),
    d1Persist: path.join(stateDir, 'd1'),
    durableObjectsPersist: false,
    cachePersist: false,
    kvPersist: false,
    log: undefined,
    workers: [
      { ...common, name: 'admin', scriptPath: path.join(BENCH, 'workers', 'admin.js'), d1Databases: { DB: D1_ID } },
      { ...storeWorker, queueConsumers, unsafeDirectSockets: socket },
      {
        ...common,
        name: 'metered',
        // Listed explicitly: Miniflare's import walker cannot parse the bundle, workerd can.
        ...esModules(BUILD, 'metered.js', 'index.js'),
        ...storeBindings,
        bindings: { ...vars, ENVIRONMENT: 'development' },
        unsafeDirectSockets: socket,
      },
      { ...b0Worker, unsafeDirectSockets: socket },
      { ...common, name: 'b1', scriptPath: path.join(BENCH, 'workers', 'b1.js'), d1Databases: { DB: D1_ID }, unsafeDirectSockets: socket },
      {
        ...common,
        name: 'floor',
        scriptPath: path.join(BENCH, 'workers', 'floor.js'),
        d1Databases: { DB: D1_ID },
        // An order's own floor sends its events as the store does, for the store's consumers.
        queueProducers: { EVENTS_QUEUE: queueProducers.EVENTS_QUEUE },
        unsafeDirectSockets: socket,
      },
      {
        ...common,
        name: 'b2',
        scriptPath: path.join(BENCH, 'workers', 'b2.js'),
        bindings: { EVENT_ID_PREFIX: B2_EVENT_PREFIX },
        d1Databases: { DB: D1_ID },
        unsafeDirectSockets: socket,
      },
      {
        // B2 with its aftermath: its event goes to the store's events queue, for the store's consumers.
        ...common,
        name: 'b2-after',
        scriptPath: path.join(BENCH, 'workers', 'b2.js'),
        bindings: { EVENT_ID_PREFIX: `${B2_EVENT_PREFIX}after-` },
        d1Databases: { DB: D1_ID },
        queueProducers: { EVENTS_QUEUE: queueProducers.EVENTS_QUEUE },
        unsafeDirectSockets: socket,
      },
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// D1 through the admin Worker

async function adminPost(mf, what, body) {
  const res = await mf.dispatchFetch(`http://admin.local/${what}`, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
  const json = await res.json();
  if (!res.ok) throw new Error(`D1 ${what} failed: ${json.error}`);
  return json;
}
const d1Batch = (mf, statements) => adminPost(mf, 'batch', statements);
const d1Query = async (mf, sql, params = []) => (await adminPost(mf, 'query', [sql, params])).results;

async function migrationFiles() {
  const dir = path.join(ROOT, config.d1_databases?.[0]?.migrations_dir ?? 'migrations');
  const names = (await readdir(dir)).filter((n) => n.endsWith('.sql')).sort();
  return Promise.all(names.map(async (name) => ({ name, sql: await readFile(path.join(dir, name), 'utf8') })));
}

/** Applies the migrations not yet recorded in d1_migrations (wrangler's table), in order. */
async function migrate(mf, files) {
  await d1Batch(mf, [
    ['CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP)'],
  ]);
  const applied = new Set((await d1Query(mf, 'SELECT name FROM d1_migrations')).map((r) => r.name));
  const done = [];
  for (const file of files) {
    if (applied.has(file.name)) continue;
    // wrangler's splitter keeps CREATE TRIGGER ... BEGIN ... END together; drizzle's breakpoints are comments.
    const statements = wrangler
      .unstable_splitSqlQuery(file.sql)
      .map((s) => s.trim())
      .filter((s) => s && !/^(--[^\n]*\n?\s*)*$/.test(s));
    await d1Batch(mf, [...statements.map((s) => [s]), ['INSERT INTO d1_migrations (name) VALUES (?)', [file.name]]]);
    done.push(file.name);
  }
  return done;
}

async function seed(mf, count) {
  const perBatch = 500;
  let pending = [];
  let statements = 0;
  const t = Date.now();
  for (const statement of catalogueStatements(count)) {
    pending.push(statement);
    if (pending.length === perBatch) {
      await d1Batch(mf, pending);
      statements += pending.length;
      pending = [];
    }
  }
  if (pending.length) await d1Batch(mf, pending);
  statements += pending.length;
  return { statements, ms: Date.now() - t };
}

// ---------------------------------------------------------------------------------------------
// Load

function cannon(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: opts.connections, pipelining: 1, timeout: 10, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

function summarize(result, duration = opts.duration) {
  const codes = result.statusCodeStats ?? {};
  const count = (code) => codes[code]?.count ?? 0;
  const total = Object.values(codes).reduce((s, c) => s + c.count, 0);
  const ok = Object.entries(codes)
    .filter(([code]) => code >= 200 && code < 300)
    .reduce((s, [, c]) => s + c.count, 0);
  const r429 = count(429);
  return {
    rps: ok / (result.duration || duration),
    seconds: result.duration || duration,
    allRps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: total,
    ok,
    errors: result.errors + result.timeouts + (total - ok - r429),
    r429,
    codes: Object.fromEntries(Object.entries(codes).map(([k, v]) => [k, v.count])),
  };
}

/**
 * CPU time (ms) the workerd processes have used so far: the sum of every thread's
 * /proc/<pid>/task/<tid>/schedstat (nanoseconds on CPU). Per request it is the cost of a scenario
 * that other load on the machine does not change much, unlike requests per second; undefined where
 * /proc is not Linux's.
 */
async function workerdCpuMs() {
  try {
    // This run's workerd only (other workerd processes on the machine are not ours): descendants of this process.
    const parents = new Map();
    const names = new Map();
    for (const pid of await readdir('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
      const close = stat.lastIndexOf(')');
      if (close < 0) continue;
      names.set(pid, stat.slice(stat.indexOf('(') + 1, close));
      parents.set(pid, stat.slice(close + 2).split(' ')[1]);
    }
    const ours = (pid) => {
      for (let p = pid, hops = 0; p && p !== '0' && hops < 10; p = parents.get(p), hops++) if (p === String(process.pid)) return true;
      return false;
    };
    let ns = 0;
    for (const [pid, name] of names) {
      if (!name.startsWith('workerd') || !ours(pid)) continue;
      for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [])) {
        const stat = await readFile(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').catch(() => '0');
        ns += Number(stat.split(' ')[0]);
      }
    }
    return ns / 1e6;
  } catch {
    return undefined;
  }
}

const PROFILE_PORT = 9329;

/**
 * Starts V8's sampling profiler in the store Worker (through workerd's inspector) and returns a
 * function that stops it, writes bench/.tmp/<name>.cpuprofile (open it in Chrome DevTools) and
 * prints the functions with the most self time.
 */
async function startProfile(name) {
  const stops = await Promise.all(['core:user:store', 'd1:db'].map((id) => profileTarget(id, `${name}-${id.replace(/\W+/g, '-')}`)));
  return async () => {
    for (const stop of stops) await stop();
  };
}

async function profileTarget(targetId, name) {
  const { default: WebSocket } = await import('ws');
  const targets = await (await fetch(`http://127.0.0.1:${PROFILE_PORT}/json`)).json();
  const target = targets.find((t) => t.id === targetId);
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let next = 1;
  const pending = new Map();
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data));
    if (!msg.id || !pending.has(msg.id)) return;
    pending.get(msg.id)(msg.result);
    pending.delete(msg.id);
  });
  const send = (method, params = {}) =>
    new Promise((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 100 });
  await send('Profiler.start');
  return async () => {
    const { profile } = await send('Profiler.stop');
    ws.close();
    await writeFile(path.join(TMP, `${name}.cpuprofile`), JSON.stringify(profile));
    const hits = new Map();
    for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
    const self = new Map();
    for (const node of profile.nodes) {
      const f = node.callFrame;
      const key = `${f.functionName || '(anonymous)'} ${f.url ? `${path.basename(f.url)}:${f.lineNumber + 1}` : ''}`.trim();
      self.set(key, (self.get(key) ?? 0) + (hits.get(node.id) ?? 0));
    }
    const idle = self.get('(idle)') ?? 0;
    const busy = profile.samples.length - idle;
    const ms = (n) => (n * (profile.endTime - profile.startTime)) / profile.samples.length / 1000;
    log(`profile ${name}: busy ${ms(busy).toFixed(0)} ms of ${ms(profile.samples.length).toFixed(0)} ms; bench/.tmp/${name}.cpuprofile; most self time (share of busy):`);
    for (const [key, n] of [...self]
      .filter(([k]) => k !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25)) {
      console.log(`  ${((100 * n) / busy).toFixed(1).padStart(5)}%  ${key}`);
    }
    if (targetId !== 'core:user:store') return;
    log(`profile ${name}: self time by stage (charged to the nearest frame of src/ on the stack; share of busy):`);
    for (const { name: stage, share } of selfTimeByStage(readProfile(path.join(TMP, `${name}.cpuprofile`)), path.join(BUILD, 'index.js'))) {
      console.log(`  ${(100 * share).toFixed(1).padStart(5)}%  ${stage}`);
    }
  };
}

// Each target is warmed up once per catalogue size (before its first measured run).
let warmed = new WeakSet();
async function measure(target, duration = opts.duration) {
  if (opts.warmup > 0 && !warmed.has(target)) await cannon({ ...target.load(), duration: opts.warmup });
  warmed.add(target);
  const cpuBefore = await workerdCpuMs();
  const result = await cannon({ ...target.load(), duration });
  const cpuAfter = await workerdCpuMs();
  const summary = summarize(result, duration);
  // Includes the queue consumers' work a scenario causes (webhook deliveries of placed orders).
  summary.cpuMs = cpuBefore === undefined ? undefined : cpuAfter - cpuBefore;
  summary.cpuMsPerRequest = summary.cpuMs === undefined || !summary.requests ? undefined : summary.cpuMs / summary.requests;
  return summary;
}

/**
 * A scenario against its floors, by name (B1; B2 for orders; its own D1 floor for a rendered read),
 * in `opts.slices` alternating slices of the run's duration (B1, scenario, B1, scenario, ...; B1,
 * B2, orders, ...): this machine's speed drifts by 10-20% over a minute, and slices cancel most of
 * that drift out of the ratios. A scenario that leaves work behind (orders: webhook deliveries)
 * settles before the next B1 slice; its work done during its own slices is charged to it, as in one
 * run. Requests, errors and CPU add up over the slices; p50 and p99 are the median of the slices'
 * own. A floor that leaves work behind (B2 with its aftermath) settles too. Returns each floor's, by
 * the same names, and the scenario's.
 */
async function measureBeside(floors, scenario) {
  const slice = opts.duration / opts.slices;
  const floorRuns = Object.fromEntries(Object.keys(floors).map((name) => [name, []]));
  const runs = [];
  for (let i = 0; i < opts.slices; i++) {
    for (const [name, floor] of Object.entries(floors)) {
      floorRuns[name].push(await measure(floor, slice));
      await floor.settle?.();
    }
    runs.push(await measure(scenario, slice));
    await scenario.settle?.();
  }
  return { floors: Object.fromEntries(Object.entries(floorRuns).map(([name, r]) => [name, combine(r)])), run: combine(runs) };
}

/** Resolves once the queue consumer has marked every outbox event published (at most 30 s). */
async function published(mf) {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    const [{ n }] = await d1Query(mf, 'SELECT count(*) AS n FROM events WHERE published_at IS NULL');
    if (n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Resolves once `count()` has not changed for half a second (at most 30 s). */
async function quiet(count) {
  const until = Date.now() + 30_000;
  let last = count();
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = count();
    if (now === last) return;
    last = now;
  }
}

function combine(runs) {
  if (runs.length === 1) return runs[0];
  const sum = (key) => runs.reduce((s, r) => s + (r[key] ?? 0), 0);
  const median = (key) => runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  const seconds = sum('seconds');
  const codes = {};
  for (const r of runs) for (const [code, n] of Object.entries(r.codes)) codes[code] = (codes[code] ?? 0) + n;
  const cpuMs = runs.some((r) => r.cpuMs === undefined) ? undefined : sum('cpuMs');
  return {
    rps: sum('ok') / seconds,
    allRps: sum('requests') / seconds,
    p50: median('p50'),
    p99: median('p99'),
    requests: sum('requests'),
    ok: sum('ok'),
    errors: sum('errors'),
    r429: sum('r429'),
    codes,
    seconds,
    slices: runs.length,
    cpuMs,
    cpuMsPerRequest: cpuMs === undefined || !sum('requests') ? undefined : cpuMs / sum('requests'),
  };
}

// ---------------------------------------------------------------------------------------------
// Webhook receiver

function startReceiver() {
  const deliveries = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ at: Date.now(), headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200).end('ok');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, deliveries, url: `http://127.0.0.1:${server.address().port}/hooks` })));
}

// ---------------------------------------------------------------------------------------------
// One catalogue size

const migrations = await migrationFiles();
const migrationsHash = createHash('sha256')
  .update(migrations.map((m) => `${m.name}\n${m.sql}`).join('\n'))
  .digest('hex')
  .slice(0, 16);

/** A database with every migration and no rows in `dir` (made anew): the cold start's storefront page reads it. */
async function migratedEmptyD1(dir) {
  await rm(dir, { recursive: true, force: true });
  const mf = new Miniflare({
    d1Persist: dir,
    workers: [{ ...common, name: 'admin', scriptPath: path.join(BENCH, 'workers', 'admin.js'), d1Databases: { DB: D1_ID } }],
  });
  try {
    await mf.ready;
    await migrate(mf, await migrationFiles());
  } finally {
    await mf.dispose();
  }
  return dir;
}

/** Migrates the saved catalogue and seeds it unless it holds exactly the expected one: its seed facts, or 'written' when load ran on it. */
async function prepareCatalogue(size, stateDir, manifest) {
  const seeding = new Miniflare(miniflareOptions(stateDir));
  try {
    await seeding.ready;
    const applied = await migrate(seeding, migrations);
    if (applied.length) log(`${size}: applied ${applied.length} migration(s): ${applied.join(', ')}`);
    const expected = expectedCounts(size);
    const [counts] = await d1Query(
      seeding,
      "SELECT (SELECT count(*) FROM products WHERE sku LIKE 'BENCH-%') AS products, (SELECT count(*) FROM product_variants WHERE sku LIKE 'BENCH-%') AS variants, (SELECT count(*) FROM orders) AS orders",
    );
    if (counts.orders > 0) return 'written';
    if (manifest && counts.products === expected.products && counts.variants === expected.variants) {
      log(`${size}: reusing the seeded catalogue (${counts.products} products, ${counts.variants} variants)`);
      return { ...manifest.seed, reused: true, variants: expected.variants };
    }
    if (counts.products > 0) throw new Error(`bench/.tmp/catalogue-${size} holds an unexpected catalogue; run with --fresh`);
    const result = await seed(seeding, size);
    const facts = { reused: false, statements: result.statements, ms: result.ms };
    await writeFile(path.join(stateDir, 'seed.json'), JSON.stringify({ seedVersion: SEED_VERSION, products: size, migrations: migrationsHash, seed: facts }, null, 2));
    log(`${size}: seeded ${size} products, ${expected.variants} variants in ${result.statements} INSERTs (≤100 parameters each) in ${(result.ms / 1000).toFixed(1)} s`);
    return { ...facts, variants: expected.variants };
  } finally {
    await seeding.dispose();
  }
}

async function benchSize(size) {
  const stateDir = path.join(TMP, `catalogue-${size}`);
  const manifestFile = path.join(stateDir, 'seed.json');
  let manifest = existsSync(manifestFile) ? JSON.parse(await readFile(manifestFile, 'utf8')) : undefined;
  if (opts.fresh || !manifest || manifest.seedVersion !== SEED_VERSION || manifest.products !== size) {
    await rm(stateDir, { recursive: true, force: true });
    manifest = undefined;
  }
  await mkdir(stateDir, { recursive: true });

  // The seeded catalogue is only migrated and seeded; each run measures a copy of it, so every run
  // starts from the same rows (orders, audit entries and deliveries of earlier runs would pile up).
  const out = { size, scenarios: [], baselines: {} };
  let prepared = await prepareCatalogue(size, stateDir, manifest);
  if (prepared === 'written') {
    log(`${size}: the saved catalogue holds orders of runs made before runs used copies; seeding it again`);
    await rm(stateDir, { recursive: true, force: true });
    await mkdir(stateDir, { recursive: true });
    prepared = await prepareCatalogue(size, stateDir, undefined);
  }
  out.seed = prepared;
  const runDir = path.join(TMP, `run-${size}`);
  await rm(runDir, { recursive: true, force: true });
  await cp(path.join(stateDir, 'd1'), path.join(runDir, 'd1'), { recursive: true });

  warmed = new WeakSet();
  const mf = new Miniflare(miniflareOptions(runDir));
  await mf.ready;
  try {
    // A fresh admin key (minted and hashed as scripts/lib/api-keys.mjs does), and no webhook
    // endpoint of an earlier run left active (their receivers are gone).
    const { hashApiKey, mintApiKey, apiKeyPrefix } = await import('../scripts/lib/api-keys.mjs');
    const key = mintApiKey();
    const now = new Date().toISOString();
    await d1Batch(mf, [
      [
        'INSERT INTO api_keys (id, name, prefix, key_hash, role_id, permissions, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [`key_bench${randomBytes(8).toString('hex')}`, 'bench', apiKeyPrefix(key), hashApiKey(key), 'admin', '[]', now, now],
      ],
      ['UPDATE webhook_endpoints SET active = 0 WHERE active = 1', []],
    ]);
    // A year of orders in this run's copy, for the reports (the saved catalogue stays without orders).
    const year = [...salesYearStatements(size)];
    for (let i = 0; i < year.length; i += 500) await d1Batch(mf, year.slice(i, i + 500));
    const yearOrders = SALES_YEAR.ordersPerDay * 365;

    const url = {};
    for (const name of ['store', 'metered', 'b0', 'b1', 'b2', 'b2-after', 'floor']) url[name] = (await mf.unsafeGetDirectURL(name)).origin;
    const auth = { Authorization: `Bearer ${key}` };
    // A signed-in customer, who orders for itself: a shopper's order, which the audit log leaves out.
    const signUp = await fetch(`${url.store}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '192.0.2.2' },
      body: JSON.stringify({ email: `shopper-${randomBytes(6).toString('hex')}@bench.example.com`, password: randomBytes(12).toString('hex') }),
    });
    const signedUp = await signUp.json();
    if (signUp.status !== 201) throw new Error(`signing up the bench's customer answered ${signUp.status}: ${JSON.stringify(signedUp).slice(0, 300)}`);
    const customerAuth = { Authorization: `Bearer ${signedUp.data.token}` };

    // Scenario inputs: the chosen category, 100 active products to read by id, variants to order.
    const category = LEAVES[3].slug;
    const activeIds = [];
    for (let i = size - 1; activeIds.length < 100 && i >= 0; i -= 7) if (productStatus(i) === 'active') activeIds.push(productId(i));
    // The orders scenario and B2 order the same variants in turn.
    const orderLines = [];
    for (let i = 0; orderLines.length < 500 && i < size; i += Math.max(1, Math.floor(size / 600))) {
      if (productStatus(i) === 'active') orderLines.push({ variantId: variantId(i, i % variantCount(i)), productId: productId(i) });
    }
    const orderVariants = orderLines.map((l) => l.variantId);
    // Anonymous requests come from a pool of client IPs (each its own count, as real traffic
    // would), round robin; the limits are raised, so any 429 would be a bug, reported apart.
    let ipCounter = 0;
    const anonIp = (req) => ({ ...req, headers: { ...req.headers, 'cf-connecting-ip': `198.51.100.${ipCounter++ % IP_POOL}` } });

    // A client IP no request has come from before: a storefront's shoppers as the limiter first sees them.
    let newIpCounter = 0;
    const newIp = (req) => ({ ...req, headers: { ...req.headers, 'cf-connecting-ip': `2001:db8:${randomBytes(2).toString('hex')}::${(newIpCounter++).toString(16)}` } });
    // More distinct URLs than an isolate keeps (1,000 answers), asked in turn: each request misses the
    // isolate's kept answers and is served from the colo's cache (the Cache API) once the warm-up
    // has rendered it. Sort x limit x page = 2 x 12 x 50 = 1,200 pages, none of them empty.
    const COLO_URLS = Array.from(
      { length: 1200 },
      (_, n) => `/api/products?sort=${n % 2 ? 'price:asc' : 'created_at:desc'}&limit=${1 + (Math.floor(n / 2) % 12)}&page=${1 + Math.floor(n / 24)}`,
    );
    let coloN = 0;
    // A bookmark, as a client gets it with every answer and sends back to read its own writes.
    const bookmark = (await fetch(`${url.store}/api/products?limit=1`)).headers.get('x-d1-bookmark');

    const get =
      (origin, p, headers = {}, rotateIp = true) =>
      () => ({
        url: origin,
        requests: [{ method: 'GET', path: p, headers, ...(rotateIp ? { setupRequest: anonIp } : {}) }],
      });
    /** A POST of `body()` to `origin` + `p` on every request: B2's load, and an order's own floor's. */
    const post = (origin, p, body) => () => ({
      url: origin,
      requests: [{ method: 'POST', path: p, setupRequest: (req) => ({ ...req, headers: { 'content-type': 'application/json' }, body: body() }) }],
    });
    let byId = 0;
    let orderN = 0;
    /**
     * An orders scenario, judged against B2 too (what its rows cost to write): one line of the next
     * variant each, with `headers` and, for a guest order by staff, `email(n)`. The cost probes order
     * one variant again and again: the last probe shows an order whose quote inputs the isolate keeps
     * (src/modules/orders/quote-inputs.ts), as the load's are after warm-up.
     */
    const orderScenario = (headers, email) => {
      const body = (variantId) => JSON.stringify({ lines: [{ variantId, quantity: 1 }], ...(email ? { email: email(orderN) } : {}) });
      const next = () => body(orderVariants[orderN++ % orderVariants.length]);
      return {
        writeFloor: true,
        method: 'POST',
        path: '/api/orders',
        headers,
        body: () => {
          const text = body(orderVariants[0]);
          orderN++;
          return text;
        },
        load: () => ({
          url: url.store,
          requests: [{ method: 'POST', path: '/api/orders', setupRequest: (req) => ({ ...req, headers: { ...headers, 'content-type': 'application/json' }, body: next() }) }],
        }),
      };
    };
    const scenarios = [
      { id: 'list', name: 'First page (anonymous)', path: '/api/products' },
      { id: 'list-auth', name: 'First page (admin API key)', path: '/api/products', headers: auth, rotateIp: false },
      // The same first page rendered on every request: the client's `Cache-Control: no-cache` skips the answers
      // the isolate keeps per catalogue version (src/middleware/catalogue-cache.ts).
      { id: 'list-fresh', name: 'First page (anonymous, no-cache)', path: '/api/products', headers: { 'cache-control': 'no-cache' } },
      {
        id: 'list-new-ip',
        name: 'First page (anonymous, a new client IP each request)',
        path: '/api/products',
        load: () => ({ url: url.store, requests: [{ method: 'GET', path: '/api/products', setupRequest: newIp }] }),
      },
      {
        id: 'list-colo',
        name: '1,200 pages in turn (anonymous; Cache API hits)',
        path: COLO_URLS[7],
        load: () => ({ url: url.store, requests: [{ method: 'GET', setupRequest: (req) => anonIp({ ...req, path: COLO_URLS[coloN++ % COLO_URLS.length] }) }] }),
      },
      { id: 'list-bookmark', name: 'First page (anonymous, X-D1-Bookmark)', path: '/api/products', headers: { 'x-d1-bookmark': bookmark } },
      { id: 'page50', name: 'Page 50', path: '/api/products?page=50' },
      { id: 'category', name: `Category, sort=price:asc`, path: `/api/products?category=${category}&sort=price:asc` },
      { id: 'category-fresh', name: `Category, sort=price:asc (no-cache)`, path: `/api/products?category=${category}&sort=price:asc`, headers: { 'cache-control': 'no-cache' } },
      { id: 'fields', name: 'fields=id,name,variants(id,price)', path: '/api/products?fields=id,name,variants(id,price)' },
      // Full-text search: the same 20 products match at every size (bench/lib/catalogue.mjs), ranked by relevance.
      { id: 'search', name: `Search q=${SEARCH_WORD} (relevance)`, path: `/api/products?q=${SEARCH_WORD}`, headers: { 'cache-control': 'no-cache' } },
      {
        id: 'search-facets',
        name: `Search q=${SEARCH_WORD}&facets=category,brand,price`,
        path: `/api/products?q=${SEARCH_WORD}&facets=category,brand,price`,
        headers: { 'cache-control': 'no-cache' },
      },
      {
        id: 'facets',
        name: 'First page with facets=category,brand,price (kept counts)',
        path: '/api/products?facets=category,brand,price',
        headers: { 'cache-control': 'no-cache' },
      },
      {
        id: 'by-id',
        name: 'One product by id',
        path: `/api/products/${activeIds[0]}`,
        load: () => ({
          url: url.store,
          requests: [{ method: 'GET', setupRequest: (req) => anonIp({ ...req, path: `/api/products/${activeIds[byId++ % activeIds.length]}` }) }],
        }),
      },
      // The orders with no webhook endpoint subscribed: the order, its event on the queue and the
      // consumer marking it published (B2 writes it published already), and no delivery. Run before
      // the receiver is registered; their events are not counted as deliveries owed. Judged against
      // B2 with its event's aftermath as well (bench/workers/b2.js).
      {
        ...orderScenario(auth, (n) => `quiet${n}@bench.example.com`),
        id: 'orders-quiet',
        aftermathFloor: true,
        settle: () => published(mf),
        name: 'POST /api/orders, no webhook endpoint',
      },
      // The same, placed by a signed-in customer for itself (a shopper's order: no audit entries).
      {
        ...orderScenario(customerAuth),
        id: 'orders-customer',
        aftermathFloor: true,
        settle: () => published(mf),
        name: 'POST /api/orders, signed-in customer, no webhook endpoint',
      },
      {
        ...orderScenario(auth, (n) => `guest${n}@bench.example.com`),
        id: 'orders',
        // Every order.placed from here on is delivered to the bench's receiver.
        webhooks: true,
        // Its webhook deliveries trail the orders by a second or two (queue batches): let them finish
        // before the next B1 slice, so B1 never shares the machine with this scenario's work.
        settle: () => quiet(() => receiver.deliveries.length),
        name: 'POST /api/orders (admin key, guest)',
      },
      // The reports read daily totals: a year of orders costs the year's days, not its orders.
      {
        id: 'report-sales',
        name: `Sales report by month, a year of ${yearOrders.toLocaleString('en')} orders`,
        path: `/api/reports/sales?from=${SALES_YEAR.year}-01-01&to=${SALES_YEAR.year}-12-31&interval=month`,
        headers: auth,
        rotateIp: false,
      },
      {
        id: 'report-products',
        name: `Top 10 products over the same year`,
        path: `/api/reports/products?from=${SALES_YEAR.year}-01-01&to=${SALES_YEAR.year}-12-31`,
        headers: auth,
        rotateIp: false,
      },
    ];
    opts.paths.forEach((p, i) => scenarios.push({ id: `path${i}`, name: p, path: p }));
    if (opts.only) scenarios.splice(0, scenarios.length, ...scenarios.filter((s) => opts.only.includes(s.id) || s.id.startsWith('path')));
    for (const s of scenarios) s.load ??= get(url.store, s.path, s.headers, s.rotateIp !== false);
    const b0 = { load: get(url.b0, '/', {}, false) };
    const b1 = { load: get(url.b1, '/', {}, false) };
    let b2N = 0;
    const b2Body = () => JSON.stringify({ ...orderLines[b2N % orderLines.length], email: `b2-${b2N++}@bench.example.com` });
    const b2 = { load: post(url.b2, '/', b2Body) };
    const b2After = {
      // Its events' consumer work trails it: done before the next slice, so the next slice's own is all it has.
      settle: () => published(mf),
      load: post(url['b2-after'], '/', b2Body),
    };

    // One request of each through the Worker under test (must be 2xx), then the metered copy.
    const probe = async (origin, s, extraHeaders = {}) => {
      const init = { method: s.method ?? 'GET', headers: { ...(s.headers ?? {}), 'cf-connecting-ip': '192.0.2.1', ...extraHeaders } };
      if (s.body) {
        init.body = s.body();
        init.headers['content-type'] = 'application/json';
      }
      const res = await fetch(origin + s.path, init);
      const text = await res.text();
      return { res, text };
    };
    for (const s of scenarios) {
      const { res, text } = await probe(url.store, s);
      if (!res.ok && !s.id.startsWith('path')) throw new Error(`${s.name}: ${s.method ?? 'GET'} ${s.path} answered ${res.status}: ${text.slice(0, 300)}`);
      s.exposed = Object.fromEntries([...res.headers].filter(([k]) => /d1|rows|server-timing|etag|cache-control/i.test(k)));
      // The Worker's own D1 cost headers (development only), when it has them.
      if (res.headers.has('x-d1-rows-read')) s.workerCost = { rowsRead: Number(res.headers.get('x-d1-rows-read')), roundTrips: Number(res.headers.get('x-d1-round-trips') ?? NaN) };
      const samples = [];
      let lastProbeAt;
      for (let i = 0; i < 3; i++) {
        // Each probe's D1 calls are kept under the scenario's id: the last one stays, as its cost does.
        lastProbeAt = Date.now();
        const m = await probe(url.metered, s, { [TRACE_HEADER]: s.id });
        const h = (n) => Number(m.res.headers.get(n));
        samples.push({
          roundTrips: h('x-bench-d1-round-trips'),
          batches: h('x-bench-d1-batches'),
          rowsRead: h('x-bench-d1-rows-read'),
          rowsWritten: h('x-bench-d1-rows-written'),
          doCalls: h('x-bench-do-calls'),
          cache: m.res.headers.get('x-store-cache'),
        });
      }
      // The last request is what the load sees (a kept answer where there is one); the first one was rendered.
      s.cost = samples[samples.length - 1];
      s.renderedCost = samples[0];
      const write = s.aftermathFloor ? { since: lastProbeAt, line: orderLines[0], probeLine: orderLines[1] } : undefined;
      s.ownFloor = await defineOwnFloor(url.floor, s, await readTrace(url.metered, s.id), write);
      if (s.ownFloor) s.ownFloor.load = write ? post(url.floor, s.ownFloor.path, b2Body) : get(url.floor, s.ownFloor.path, {}, false);
      // A write floor's events are consumed after it, as the order's are.
      if (s.ownFloor && write) s.ownFloor.settle = () => published(mf);
    }
    const b1Probe = await fetch(url.b1);
    await b1Probe.text();
    out.b1Cost = { roundTrips: 1, rowsRead: Number(b1Probe.headers.get('x-bench-d1-rows-read')) };
    if (scenarios.some((s) => s.writeFloor)) {
      const b2Probe = await fetch(url.b2, { method: 'POST', headers: { 'content-type': 'application/json' }, body: b2Body() });
      if (b2Probe.status !== 201) throw new Error(`B2 answered ${b2Probe.status}: ${(await b2Probe.text()).slice(0, 300)}`);
      await b2Probe.text();
      const afterProbe = await fetch(url['b2-after'], { method: 'POST', headers: { 'content-type': 'application/json' }, body: b2Body() });
      if (afterProbe.status !== 201) throw new Error(`B2 with its aftermath answered ${afterProbe.status}: ${(await afterProbe.text()).slice(0, 300)}`);
      await afterProbe.text();
      const h = (n) => Number(b2Probe.headers.get(n));
      out.b2Cost = { roundTrips: 1, statements: h('x-bench-d1-statements'), rowsWritten: h('x-bench-d1-rows-written') };
    }

    // Webhook receiver for the orders' order.placed events, registered just before the first
    // scenario that has its orders delivered (`webhooks`): the orders before it have no endpoint.
    const receiver = await startReceiver();
    let registeredAt;
    let secret;
    const registerReceiver = async () => {
      registeredAt = new Date().toISOString();
      const reg = await fetch(`${url.store}/api/webhooks`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, events: ['order.placed'], description: 'bench receiver' }),
      });
      const regBody = await reg.json();
      if (!reg.ok) throw new Error(`registering the webhook receiver answered ${reg.status}: ${JSON.stringify(regBody)}`);
      secret = regBody.data.secret;
    };

    // Load, alternating B1 and scenario; B0 at both ends.
    const b0Runs = [await measure(b0)];
    log(`${size}: B0 ${b0Runs[0].rps.toFixed(0)} req/s`);
    for (const s of scenarios) {
      if (s.webhooks && secret === undefined) await registerReceiver();
      const stopProfile = opts.profile === s.id ? await startProfile(`profile-${s.id}-${size}`) : undefined;
      const {
        floors: { b1: base, b2: b2Run, b2After: b2AfterRun, own: ownRun },
        run: r,
      } = await measureBeside({ b1, ...(s.writeFloor ? { b2 } : {}), ...(s.aftermathFloor ? { b2After } : {}), ...(s.ownFloor ? { own: s.ownFloor } : {}) }, s);
      await stopProfile?.();
      out.scenarios.push({
        id: s.id,
        name: s.name,
        path: s.path,
        method: s.method ?? 'GET',
        b1: base,
        ...(b2Run ? { b2: b2Run } : {}),
        ...(b2AfterRun ? { b2After: b2AfterRun } : {}),
        ...(ownRun ? { ownFloor: { ...ownRun, calls: s.ownFloor.calls, bytes: s.ownFloor.bytes, trace: s.ownFloor.trace } } : {}),
        ...r,
        cost: s.cost,
        renderedCost: s.renderedCost,
        workerCost: s.workerCost,
        exposed: s.exposed,
      });
      log(
        `${size}: ${s.name.padEnd(36)} ${(s.id.startsWith('path') ? r.allRps : r.rps).toFixed(0).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors}  429 ${r.r429}  | B1 ${base.rps.toFixed(0)} req/s  ratio ${(r.rps / base.rps).toFixed(2)}  | workerd CPU ${r.cpuMsPerRequest?.toFixed(2)} ms/req (B1 ${base.cpuMsPerRequest?.toFixed(2)}, ÷ ${(base.cpuMsPerRequest / r.cpuMsPerRequest).toFixed(2)})${b2Run ? `  | B2 ${b2Run.rps.toFixed(0)} req/s  ratio ${(r.rps / b2Run.rps).toFixed(2)}` : ''}${b2AfterRun ? `  | B2 with aftermath ${b2AfterRun.rps.toFixed(0)} req/s  ratio ${(r.rps / b2AfterRun.rps).toFixed(2)}  CPU ${b2AfterRun.cpuMsPerRequest?.toFixed(2)} ms/req (B2 ${b2Run?.cpuMsPerRequest?.toFixed(2)})` : ''}${ownRun ? `  | own floor (${s.ownFloor.calls}) ${ownRun.rps.toFixed(0)} req/s  ratio ${(r.rps / ownRun.rps).toFixed(2)}  CPU ${ownRun.cpuMsPerRequest?.toFixed(2)} ms/req` : ''}`,
      );
    }
    b0Runs.push(await measure(b0));
    // The ratio uses the first B0 run: the last one shares the machine with the queue consumers still
    // delivering the orders' webhooks, and is kept in results.json only.
    out.baselines.b0 = { rps: b0Runs[0].rps, p50: b0Runs[0].p50, p99: b0Runs[0].p99, runs: b0Runs };

    // Webhooks: every order placed in this run (probe, warm-up and measured) emits order.placed; wait
    // for the deliveries, then rate them over the time they were arriving: from the first to the last
    // one received, less the pauses of over a second (the B1 slices between the orders slices).
    const orders = out.scenarios.find((s) => s.id === 'orders');
    const expectedDeliveries =
      registeredAt === undefined
        ? 0
        : await d1Query(mf, "SELECT count(*) AS n FROM events e WHERE e.type = 'order.placed' AND e.created_at >= ?1 AND substr(e.id, 1, length(?2)) != ?2", [
            registeredAt,
            B2_EVENT_PREFIX,
          ])
            .then((r) => r[0].n)
            .catch(() => undefined);
    const deadline = Date.now() + opts.drainSeconds * 1000;
    while (Date.now() < deadline && (expectedDeliveries === undefined || receiver.deliveries.length < expectedDeliveries)) await new Promise((r) => setTimeout(r, 250));
    const d = receiver.deliveries;
    const sample = d.filter((_, i) => i % Math.max(1, Math.floor(d.length / 20)) === 0).slice(0, 20);
    const { verifyWebhook } = await import('../clients/typescript/src/webhooks.js');
    let verified = 0;
    for (const x of sample) if (secret && (await verifyWebhook({ body: x.body, headers: x.headers, secret })).valid) verified++;
    const ids = new Set(d.map((x) => x.headers['x-store-delivery']));
    let span = 0;
    for (let i = 1; i < d.length; i++) if (d[i].at - d[i - 1].at <= 1000) span += (d[i].at - d[i - 1].at) / 1000;
    out.webhooks = {
      received: d.length,
      unique: ids.size,
      expected: expectedDeliveries,
      perSecond: span > 0 ? (d.length - 1) / span : 0,
      spanSeconds: span,
      verifiedSample: verified,
      sample: sample.length,
      ordersPerSecond: orders?.rps,
    };
    log(
      `${size}: webhooks ${d.length}/${expectedDeliveries ?? '?'} delivered, ${out.webhooks.perSecond.toFixed(0)}/s over ${span.toFixed(1)} s, ${verified}/${sample.length} sampled signatures valid`,
    );
    receiver.server.close();
  } finally {
    await mf.dispose();
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Main

// --report-only: rewrite results.md and chart.svg from bench/.tmp/results.json (no load).
if (flag('report-only')) {
  const saved = JSON.parse(await readFile(path.join(TMP, 'results.json'), 'utf8'));
  for (const r of saved.results) if (r.baselines.b0.runs) r.baselines.b0 = { ...r.baselines.b0, rps: r.baselines.b0.runs[0].rps };
  await writeReport(saved, BENCH);
  process.exit(0);
}

function versionOf(pkg) {
  try {
    return JSON.parse(require('node:fs').readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

log(`bench: ${opts.quick ? 'quick, ' : ''}sizes ${opts.sizes.join(', ')}; ${opts.connections} connections, ${opts.warmup} s warm-up + ${opts.duration} s per run`);
const t = Date.now();
await build();
log(`built the Worker with wrangler deploy --dry-run (${((Date.now() - t) / 1000).toFixed(1)} s)`);
await mkdir(TMP, { recursive: true });
// On a quiet machine, before any load; a partial run other than --cold skips it.
const cold =
  opts.cold || !partial
    ? await coldStart({
        workers: { b0: b0Worker, bound: b0BoundWorker, store: storeWorker },
        catalogueD1: await migratedEmptyD1(path.join(TMP, 'cold-d1')),
        compatibility: { date: config.compatibility_date, flags: config.compatibility_flags ?? [] },
        buildDir: BUILD,
        metafile: METAFILE,
        workerBundle: WORKER_BUNDLE,
        tmp: TMP,
        wranglerJs: WRANGLER_JS,
        root: ROOT,
        env: WRANGLER_ENV,
        log,
      })
    : undefined;
if (opts.cold) {
  await writeFile(path.join(TMP, 'cold.json'), JSON.stringify(cold, null, 2));
  log('cold start only (--cold): bench/.tmp/cold.json; results.md and chart.svg left as they are');
  process.exit(0);
}
const results = [];
for (const size of opts.sizes) results.push(await benchSize(size));

const cpus = os.cpus();
const report = {
  date: new Date().toISOString(),
  options: opts,
  machine: {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    wrangler: versionOf('wrangler'),
    miniflare: versionOf('miniflare'),
    workerd: versionOf('workerd'),
    autocannon: versionOf('autocannon'),
  },
  cold,
  results,
  seconds: (Date.now() - started) / 1000,
};
if (partial) {
  await writeFile(path.join(TMP, 'partial.json'), JSON.stringify(report, null, 2));
  log('partial run (--only / --path): bench/.tmp/partial.json; results.md and chart.svg left as they are');
  process.exit(0);
}
await writeFile(path.join(TMP, 'results.json'), JSON.stringify(report, null, 2));
await writeReport(report, BENCH);
log(`wrote bench/results.md and bench/chart.svg (${report.seconds.toFixed(0)} s in all)`);
