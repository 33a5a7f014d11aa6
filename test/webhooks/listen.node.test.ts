import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// `npm run webhooks:listen` as a developer runs it: a child process, fed real HTTP requests, judged by
// its answers and by what it prints. --no-register keeps it away from the API (and .wrangler).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'webhooks-listen.mjs');
const KEY = `sk_${'k'.repeat(40)}`;
const SECRET = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';

interface Listener {
  child: ChildProcess;
  port: number;
  output: () => string;
  /** Resolves once the output matches, or rejects after `ms`. */
  waitFor: (pattern: RegExp, ms?: number) => Promise<void>;
}

const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function start(args: string[], env: Record<string, string> = {}, script = SCRIPT): Omit<Listener, 'port'> {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let out = '';
  const waiters: Array<() => void> = [];
  const onData = (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const w of waiters) w();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const waitFor = (pattern: RegExp, ms = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; output so far:\n${out}`)), ms);
      const check = () => {
        if (pattern.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      };
      waiters.push(check);
      check();
    });
  return { child, output: () => out, waitFor };
}

async function startListener(extra: string[] = []): Promise<Listener> {
  const port = await freePort();
  const listener = start(['--no-register', '--secret', SECRET, '--port', String(port), ...extra]);
  await listener.waitFor(/Listening for webhooks on http:\/\/127\.0\.0\.1:\d+\/webhooks/);
  return { ...listener, port };
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
  });
}

/** Signs as the store does (independently, with node:crypto): both X-Store-Signature and Standard Webhooks. */
function signed(deliveryId: string, event: string, data: Record<string, unknown>, secret = SECRET) {
  const body = JSON.stringify({ id: `evt_${deliveryId}`, event, data, timestamp: new Date().toISOString() });
  const timestamp = Math.floor(Date.now() / 1000);
  const standardKey = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const headers = {
    'Content-Type': 'application/json',
    'X-Store-Event': event,
    'X-Store-Delivery': deliveryId,
    'X-Store-Signature': createHmac('sha256', secret).update(body).digest('hex'),
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${createHmac('sha256', standardKey).update(`${deliveryId}.${timestamp}.${body}`).digest('base64')}`,
  };
  return { body, headers };
}

const post = (port: number, init: { body: string; headers: Record<string, string> }) => fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', ...init });

// Generous: each test starts node processes, and a full run shares two cores with workerd.
describe('npm run webhooks:listen', { timeout: 30_000 }, () => {
  it('answers 200 to a signed delivery and 400 to a tampered one, printing both; stops cleanly', async () => {
    const listener = await startListener();
    expect(listener.output()).toContain('Not registered (--no-register)');

    const good = signed('dlv_good_1', 'order.placed', { orderId: 'ord_123', customerId: 'cus_9', total: 42.5, currency: 'EUR', status: 'pending' });
    const ok = await post(listener.port, good);
    expect(ok.status).toBe(200);
    await listener.waitFor(/order\.placed\s+dlv_good_1\s+ord_123\s+42\.5 EUR\s+pending/);

    const tampered = signed('dlv_bad_1', 'order.placed', { orderId: 'ord_124', total: 10, currency: 'EUR', status: 'pending' });
    const refused = await post(listener.port, { ...tampered, body: tampered.body.replace('"total":10', '"total":1') });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: 'invalid signature' });
    await listener.waitFor(/invalid signature: answered 400 to order\.placed dlv_bad_1/);

    const unsigned = await post(listener.port, { body: good.body, headers: { 'Content-Type': 'application/json' } });
    expect(unsigned.status).toBe(400);
    await listener.waitFor(/missing X-Store-Signature header/);

    const wrongSecret = signed('dlv_bad_2', 'ping', {}, `whsec_${Buffer.alloc(32, 1).toString('base64')}`);
    expect((await post(listener.port, wrongSecret)).status).toBe(400);
    await listener.waitFor(/invalid signature: answered 400 to ping dlv_bad_2/);

    // Correctly signed deliveries never trip the Standard Webhooks check.
    expect(listener.output()).not.toContain('webhook-signature did not verify');

    listener.child.kill('SIGTERM');
    expect(await exited(listener.child)).toBe(0);
    expect(listener.output()).toMatch(/Stopping \(SIGTERM\): 1 delivery in 1 request/);
  });

  it('marks a repeated delivery id as a duplicate, and --fail answers 500 first so the retry shows', async () => {
    const listener = await startListener(['--fail', '1', '--verbose']);
    const delivery = signed('dlv_retry_1', 'product.created', { productId: 'prd_1', product: { id: 'prd_1', name: 'Canvas tote', price: 24.5, status: 'active' } });

    expect((await post(listener.port, delivery)).status).toBe(500);
    await listener.waitFor(/product\.created\s+dlv_retry_1\s+prd_1\s+"Canvas tote"\s+24\.5\s+active .*answered 500/);
    expect((await post(listener.port, delivery)).status).toBe(200);
    await listener.waitFor(/dlv_retry_1 .*retry 1, \d+s after our 500/);
    expect((await post(listener.port, delivery)).status).toBe(200);
    await listener.waitFor(/dlv_retry_1 .*\(duplicate\)/);
    // --verbose prints the headers and the whole JSON.
    expect(listener.output()).toContain('x-store-delivery: dlv_retry_1');
    expect(listener.output()).toContain('"name": "Canvas tote"');

    listener.child.kill('SIGINT');
    expect(await exited(listener.child)).toBe(0);
  });

  it('says plainly that the API is not running, and exits 1', async () => {
    const [port, apiPort] = [await freePort(), await freePort()];
    const listener = start(['--port', String(port)], { STORE_API_URL: `http://127.0.0.1:${apiPort}` });
    expect(await exited(listener.child)).toBe(1);
    // Without a saved admin key it asks for `npm run dev` first; with one, it finds nothing at STORE_API_URL.
    expect(listener.output()).toMatch(/not running at http:\/\/127\.0\.0\.1:\d+|No admin API key/);
    expect(listener.output()).toContain('npm run dev');
  });

  it('refuses unknown arguments and a port in use', async () => {
    const bad = start(['--nope']);
    expect(await exited(bad.child)).toBe(1);
    expect(bad.output()).toContain('unknown argument: --nope');
    const badSince = start(['--since', 'soon']);
    expect(await exited(badSince.child)).toBe(1);
    expect(badSince.output()).toContain('--since takes a duration back from now (90s, 30m, 2h, 1d) or an ISO time, got "soon"');
    const unregistered = start(['--no-register', '--secret', SECRET, '--since', '2h']);
    expect(await exited(unregistered.child)).toBe(1);
    expect(unregistered.output()).toContain('--types and --since need the API');

    const first = await startListener();
    const second = start(['--no-register', '--secret', SECRET, '--port', String(first.port)]);
    expect(await exited(second.child)).toBe(1);
    expect(second.output()).toContain(`Port ${first.port} on 127.0.0.1 is already in use`);
    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);
  });

  it('listens on --port whatever PORT says, and registers with the API at STORE_API_URL (or --api)', async () => {
    const root = await ownCheckout();
    const api = await fakeApi();
    const busy = net.createServer();
    try {
      // PORT is the API's port in the README's tour: here a port in use, which the listener must leave alone.
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
      const busyPort = (busy.address() as net.AddressInfo).port;
      const port = await freePort();
      const script = path.join(root, 'scripts', 'webhooks-listen.mjs');

      const listener = start(['--port', String(port)], { PORT: String(busyPort), API_PORT: String(busyPort), STORE_API_URL: `${api.url}/` }, script);
      await listener.waitFor(new RegExp(`Listening for webhooks on http://127\\.0\\.0\\.1:${port}/webhooks`));
      expect(listener.output()).toContain('events: *');
      expect(api.requests).toEqual([
        { method: 'POST', url: '/api/webhooks', auth: `Bearer ${KEY}`, body: { url: `http://127.0.0.1:${port}/webhooks`, events: ['*'], description: 'npm run webhooks:listen' } },
      ]);
      expect(listener.output()).toContain(`curl -X POST ${api.url}/api/webhooks/wh_1/test`);
      expect(listener.output()).toContain('API_PORT is no longer read');
      expect(JSON.parse(await readFile(path.join(root, '.wrangler', 'webhook-listener.json'), 'utf8'))).toMatchObject({ endpointId: 'wh_1' });
      expect((await fetch(`http://127.0.0.1:${port}/webhooks`)).status).toBe(200);
      listener.child.kill('SIGTERM');
      expect(await exited(listener.child)).toBe(0);

      // --api wins over STORE_API_URL; the saved endpoint is reused there.
      api.requests.length = 0;
      const again = start(['--port', String(port), '--api', `${api.url}/api`], { STORE_API_URL: 'http://127.0.0.1:1' }, script);
      await again.waitFor(/reused from \.wrangler\/webhook-listener\.json/);
      expect(api.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/webhooks/wh_1']);
      again.child.kill('SIGTERM');
      expect(await exited(again.child)).toBe(0);
    } finally {
      busy.close();
      await api.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('--types subscribes to those kinds (order.* expanded from the API document) and --since replays [since, now] to the listener', async () => {
    const root = await ownCheckout();
    const api = await fakeApi();
    try {
      const port = await freePort();
      const script = path.join(root, 'scripts', 'webhooks-listen.mjs');
      const before = Date.now();
      const listener = start(['--port', String(port), '--types', 'order.*,payment.completed', '--since', '2h'], { STORE_API_URL: api.url }, script);
      await listener.waitFor(/replay whr_1 completed: 3 matched, 2 queued, 1 skipped/);
      expect(listener.output()).toContain('events: order.*, payment.completed');
      expect(listener.output()).toMatch(/replaying events since \S+ \(order\.\*, payment\.completed\): replay whr_1/);
      const calls = api.requests.map((r) => `${r.method} ${r.url}`);
      expect(calls.slice(0, 3)).toEqual(['GET /api/openapi.json', 'POST /api/webhooks', 'POST /api/webhooks/wh_1/replay']);
      expect(calls.slice(3).every((call) => call === 'GET /api/webhooks/wh_1/replays/whr_1')).toBe(true);
      expect(api.requests[1]!.body).toMatchObject({ events: ['order.placed', 'order.cancelled', 'payment.completed'] });
      const replay = api.requests[2]!.body as { from: string; to: string; types: string[] };
      expect(replay.types).toEqual(['order.*', 'payment.completed']);
      expect(Date.parse(replay.from)).toBeGreaterThanOrEqual(before - 2 * 3_600_000);
      expect(Date.parse(replay.from)).toBeLessThanOrEqual(Date.now() - 2 * 3_600_000);
      expect(Date.parse(replay.to)).toBeGreaterThanOrEqual(before);

      // A replayed delivery says so.
      const delivery = signed('dlv_replayed_1', 'order.placed', { orderId: 'ord_7', total: 5, currency: 'EUR', status: 'paid' });
      expect((await post(port, { ...delivery, headers: { ...delivery.headers, 'X-Store-Replay': 'whr_1' } })).status).toBe(200);
      await listener.waitFor(/dlv_replayed_1 .*replay whr_1/);

      // Run again without --types: the saved endpoint goes back to every kind.
      listener.child.kill('SIGTERM');
      expect(await exited(listener.child)).toBe(0);
      api.requests.length = 0;
      const again = start(['--port', String(port)], { STORE_API_URL: api.url }, script);
      await again.waitFor(/reused from \.wrangler\/webhook-listener\.json/);
      expect(api.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/webhooks/wh_1', 'PATCH /api/webhooks/wh_1']);
      expect(api.requests[1]!.body).toEqual({ events: ['*'] });
      again.child.kill('SIGTERM');
      expect(await exited(again.child)).toBe(0);
    } finally {
      await api.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});

/** A checkout of its own (the script, its lib and the verifier, and a dev admin key), so .wrangler/ there is the test's. */
async function ownCheckout() {
  const root = await mkdtemp(path.join(tmpdir(), 'store-listener-'));
  await cp(path.join(ROOT, 'scripts'), path.join(root, 'scripts'), { recursive: true });
  await mkdir(path.join(root, 'clients', 'typescript', 'src'), { recursive: true });
  await cp(path.join(ROOT, 'clients', 'typescript', 'src', 'webhooks.js'), path.join(root, 'clients', 'typescript', 'src', 'webhooks.js'));
  await mkdir(path.join(root, '.wrangler'));
  await writeFile(path.join(root, '.wrangler', 'dev-admin-key'), `${KEY}\n`);
  return root;
}

/**
 * The calls the listener makes, answered as the store does: registering (POST /api/webhooks), reading
 * and patching its endpoint, the document's event kinds, and a replay that is running once, then completed.
 */
async function fakeApi() {
  const requests: { method: string; url: string; auth: string | undefined; body?: unknown }[] = [];
  let endpoint: { id: string; url?: string; events?: string[]; active: boolean } | undefined;
  let replayReads = 0;
  const replay = (status: string) => ({ id: 'whr_1', status, matched: 3, queued: 2, skipped: 1, error: null });
  const answer = (method: string, url: string, body: any): [number, unknown] => {
    if (method === 'GET' && url === '/api/openapi.json')
      return [200, { webhooks: { 'order.placed': {}, 'order.cancelled': {}, 'payment.completed': {}, 'product.created': {}, ping: {} } }];
    if (method === 'POST' && url === '/api/webhooks') {
      endpoint = { id: 'wh_1', url: body.url, events: body.events, active: true };
      return [201, { success: true, data: { ...endpoint, secret: SECRET } }];
    }
    if (endpoint && url === '/api/webhooks/wh_1' && method === 'GET') return [200, { success: true, data: endpoint }];
    if (endpoint && url === '/api/webhooks/wh_1' && method === 'PATCH') {
      Object.assign(endpoint, body);
      return [200, { success: true, data: endpoint }];
    }
    if (method === 'POST' && url === '/api/webhooks/wh_1/replay') return [202, { success: true, data: replay('queued') }];
    if (method === 'GET' && url === '/api/webhooks/wh_1/replays/whr_1') return [200, { success: true, data: replay(++replayReads > 1 ? 'completed' : 'running') }];
    return [404, { success: false, error: { code: 'NOT_FOUND', message: 'not found', details: [] } }];
  };
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const body = text ? JSON.parse(text) : undefined;
      requests.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, ...(text ? { body } : {}) });
      const [status, json] = answer(req.method!, req.url!, body);
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
