#!/usr/bin/env node
// `npm run webhooks:listen`: a local webhook receiver that verifies and prints each delivery, so you
// can watch events arrive while using `npm run dev` in another terminal.
//
//   1. listens on http://127.0.0.1:<--port> (default 8789) and takes POSTs on /webhooks,
//   2. registers itself with the API at $STORE_API_URL or --api (default http://127.0.0.1:8787) the first time (POST /api/webhooks with the admin key in
//      .wrangler/dev-admin-key) and saves { endpointId, secret, url } in .wrangler/webhook-listener.json;
//      later runs reuse that endpoint (a new one if it was deleted), so what was sent while the
//      listener was stopped is retried to it,
//   3. verifies every request with the TypeScript client's verifier, clients/typescript/src/webhooks.js
//      (400 and a red line when it does not verify), answers 200 at once and prints one line per
//      delivery; a delivery id seen before is "(duplicate)".
//
// Options (after `--`): --port <n>, --api <url>, --secret <whsec_...> (repeatable) with --no-register to verify
// against your own secret without touching the API, --fail <n> to answer 500 to the first n
// deliveries (to watch the retries), --verbose for headers and the full JSON, --types to subscribe
// to some kinds only, --since to replay the events of [since, now] to the listener
// (POST /api/webhooks/{id}/replay). Needs no terminal.

import http from 'node:http';
import path from 'node:path';
import { verifyStandardWebhook, verifyStoreSignature, verifyWebhook } from '../clients/typescript/src/webhooks.js';
import { ensureEndpoint, followReplay, LISTENER_FILE, ListenerError, readSavedEndpoint, sinceTime, startReplay, subscriptionFor } from './lib/webhook-listener-api.mjs';
import { clock, duration, makePaint, summarize } from './lib/webhook-listener-format.mjs';
import { ROOT } from './lib/wrangler.mjs';

const HOST = '127.0.0.1';
const PATHNAME = '/webhooks';
/** Deliveries are small; anything bigger is not one. */
const MAX_BODY_BYTES = 5 * 1024 * 1024;
const { bold, dim, red, green, yellow, cyan } = makePaint();

const USAGE = `Usage: npm run webhooks:listen [-- options]

Receives the local store API's webhooks on http://127.0.0.1:<port>/webhooks, verifies each one and
prints it. The first run registers the listener with the API started by \`npm run dev\` (events: *)
and saves the endpoint in .wrangler/webhook-listener.json; later runs reuse it.

Options:
  --port <n>          port to listen on (default: 8789; PORT is not read, it is the API's port)
  --api <url>         the store API's address (default: $STORE_API_URL, else http://127.0.0.1:8787)
  --secret <whsec_>   verify with this secret (repeat it to accept several, e.g. during a rotation)
  --no-register       do not talk to the API: verify with --secret (or the saved secret)
  --fail <n>          answer 500 to the first n deliveries, to watch the store retry them
  --types <a,b,...>   subscribe to these event kinds only (order.* for every order. kind)
  --since <time>      replay the events since then to the listener: 2h, 30m, 1d, 90s or an ISO time
                      (of --types, if given); each replayed delivery is marked "replay"
  --verbose, -v       also print the headers and the full JSON of each delivery
  --help, -h          this text

Environment: STORE_API_URL, the store API's address without /api (e.g. http://127.0.0.1:8788).`;

function fail(message, hint) {
  console.error(red(`✖ ${message}`));
  if (hint) console.error(hint);
  process.exit(1);
}

function parsePort(value, what) {
  const n = Number(value);
  if (!/^\d+$/.test(String(value)) || !Number.isInteger(n) || n < 1 || n > 65535) fail(`${what} must be a port number (1-65535), got ${JSON.stringify(value)}`);
  return n;
}

/** The API's base URL (no trailing slash, no /api: the listener adds the paths). */
function parseApiUrl(value, what) {
  let url;
  try {
    url = new URL(value);
  } catch {}
  if (!url || !/^https?:$/.test(url.protocol)) fail(`${what} must be an http(s) URL like http://127.0.0.1:8787, got ${JSON.stringify(value)}`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/api$/, '')}`;
}

function parseArgs(argv) {
  const options = {
    // Never PORT: the README's tour exports it for the API, so the listener would take the API's port.
    port: 8789,
    api: process.env.STORE_API_URL ? parseApiUrl(process.env.STORE_API_URL, 'STORE_API_URL') : 'http://127.0.0.1:8787',
    secrets: [],
    register: true,
    fail: 0,
    verbose: false,
    types: undefined,
    since: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let value;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq !== -1) [arg, value] = [arg.slice(0, eq), arg.slice(eq + 1)];
    const takeValue = () => {
      if (value !== undefined) return value;
      if (i + 1 >= argv.length) fail(`${arg} needs a value\n\n${USAGE}`);
      return argv[++i];
    };
    switch (arg) {
      case '--port':
        options.port = parsePort(takeValue(), '--port');
        break;
      case '--api':
        options.api = parseApiUrl(takeValue(), '--api');
        break;
      case '--secret': {
        const secret = takeValue().trim();
        if (!secret) fail('--secret must not be empty');
        options.secrets.push(secret);
        break;
      }
      case '--no-register':
        options.register = false;
        break;
      case '--fail': {
        const n = takeValue();
        if (!/^\d+$/.test(n)) fail(`--fail takes a number of deliveries, got ${JSON.stringify(n)}`);
        options.fail = Number(n);
        break;
      }
      case '--types': {
        const types = takeValue()
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean);
        if (types.length === 0) fail('--types needs event kinds, e.g. --types order.*,payment.completed');
        options.types = [...new Set(types)];
        break;
      }
      case '--since': {
        const value = takeValue();
        options.since = sinceTime(value);
        if (!options.since) fail(`--since takes a duration back from now (90s, 30m, 2h, 1d) or an ISO time, got ${JSON.stringify(value)}`);
        break;
      }
      case '--verbose':
      case '-v':
        options.verbose = true;
        break;
      case '--help':
      case '-h':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        fail(`unknown argument: ${argv[i]}\n\n${USAGE}`);
    }
  }
  if (!options.register && (options.types || options.since)) fail('--types and --since need the API: leave out --no-register.');
  return options;
}

const options = parseArgs(process.argv.slice(2));
const listenUrl = `http://${HOST}:${options.port}${PATHNAME}`;
const apiBase = options.api;
/** The secrets deliveries are verified with: --secret ones, then the registered (or saved) one. */
const secrets = [...options.secrets];

/** Per delivery id: what we answered each time, so retries and duplicates can be told apart. */
const seen = new Map();
let received = 0;
let failuresLeft = options.fail;

/** The request body as bytes, up to MAX_BODY_BYTES. */
function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(Object.assign(new Error('body too large'), { status: 413 }));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function answer(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function parseJson(bytes) {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

async function handleDelivery(req, res) {
  const at = new Date();
  const body = await readBody(req);
  if (secrets.length === 0) {
    answer(res, 503, { error: 'the listener has no secret yet' });
    console.log(`${dim(clock(at))} ${yellow('!')} a delivery came before the listener had a secret; answered 503 (the store will retry)`);
    return;
  }
  const result = await verifyWebhook({ body, headers: req.headers, secrets });
  const id = result.deliveryId ?? '(no delivery id)';
  if (!result.valid) {
    answer(res, 400, { error: result.reason });
    console.log(red(`${clock(at)} ✖ ${result.reason}: answered 400 to ${result.event ?? 'a request'} ${id}`));
    return;
  }

  const history = result.deliveryId ? (seen.get(result.deliveryId) ?? []) : [];
  const duplicate = history.some((h) => h.status >= 200 && h.status < 300);
  let status = 200;
  if (failuresLeft > 0 && !duplicate) {
    failuresLeft--;
    status = 500;
  }
  answer(res, status, status === 200 ? { received: true } : { error: 'failing on purpose (--fail)' });
  received++;
  if (result.deliveryId) seen.set(result.deliveryId, [...history, { at, status }]);

  // Everything below only prints; the store already has its answer.
  const payload = parseJson(body);
  const event = result.event ?? payload?.event ?? '?';
  const notes = [];
  const attemptHeader = req.headers['x-store-attempt'] ?? req.headers['webhook-attempt'];
  if (attemptHeader) notes.push(`attempt ${attemptHeader}`);
  if (req.headers['x-store-replay']) notes.push(`replay ${req.headers['x-store-replay']}`);
  if (duplicate) notes.push('(duplicate)');
  else if (history.length) {
    const last = history[history.length - 1];
    notes.push(`retry ${history.length}, ${duration(at - last.at)} after our ${last.status}`);
  }
  const eventTime = Date.parse(payload?.timestamp ?? '');
  if (Number.isFinite(eventTime) && at - eventTime > 30_000) notes.push(`event from ${duration(at - eventTime)} ago`);
  if (status !== 200) notes.push(yellow(`answered 500 (--fail, ${failuresLeft} left)`));
  if (req.headers['x-store-signature-previous']) {
    const current = await Promise.all(secrets.map((secret) => verifyStoreSignature({ body, signature: req.headers['x-store-signature'], secret })));
    if (!current.includes(true)) notes.push(yellow('verified by X-Store-Signature-Previous only: the secret was rotated; pass the new one with --secret before the overlap ends'));
  }
  if (req.headers['webhook-signature']) {
    // X-Store-Signature verified; if the Standard Webhooks signature does not (with any of our secrets), say so.
    const checks = await Promise.all(secrets.map((secret) => verifyStandardWebhook({ body, headers: req.headers, secret, now: at }).catch(() => false)));
    if (!checks.includes(true)) notes.push(yellow('webhook-signature did not verify (timestamp over 5 min off, or signature mismatch)'));
  }

  const mark = duplicate ? yellow('↺') : status === 200 ? green('✔') : yellow('✖');
  const summary = payload ? summarize(event, payload.data) : dim('(body is not JSON)');
  console.log(`${dim(clock(at))} ${mark} ${bold(event.padEnd(19))} ${cyan(id)}  ${summary}${notes.length ? `  ${dim('·')} ${notes.join(dim(' · '))}` : ''}`);
  if (options.verbose) {
    const shown = Object.entries(req.headers).filter(([name]) => /^(x-store-|webhook-|content-type|user-agent)/.test(name));
    for (const [name, value] of shown) console.log(dim(`    ${name}: ${value}`));
    const pretty = payload ? JSON.stringify(payload, null, 2) : body.toString('utf8');
    console.log(pretty.replace(/^/gm, '    '));
  }
}

const server = http.createServer((req, res) => {
  const { pathname } = new URL(req.url ?? '/', 'http://listener');
  if (req.method === 'POST') {
    if (pathname !== PATHNAME) console.log(dim(`${clock()} (a POST to ${pathname}; deliveries are expected on ${PATHNAME}, verifying it anyway)`));
    handleDelivery(req, res).catch((error) => {
      const status = error.status ?? 500;
      if (!res.headersSent) answer(res, status, { error: error.message });
      console.log(red(`${clock()} ✖ could not handle a request: ${error.message} (answered ${status})`));
    });
    return;
  }
  if (req.method === 'GET' || req.method === 'HEAD') {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(`Webhook listener (npm run webhooks:listen): POST deliveries to ${listenUrl}. ${received} received so far.\n`);
    return;
  }
  res.writeHead(405, { Allow: 'GET, HEAD, POST' });
  res.end();
});
// A delivery's body arrives at once; never let a stuck client hold a socket for long.
server.requestTimeout = 30_000;

function listen() {
  return new Promise((resolve) => {
    server.once('error', (error) => {
      if (error.code === 'EADDRINUSE') {
        fail(
          `Port ${options.port} on ${HOST} is already in use (is another \`npm run webhooks:listen\` running?).`,
          'Stop it, or pick another port: npm run webhooks:listen -- --port 8790',
        );
      }
      fail(`Could not listen on ${HOST}:${options.port}: ${error.message}`);
    });
    server.listen(options.port, HOST, resolve);
  });
}

let stopping = false;
function stop(signal) {
  if (stopping) process.exit(1); // a second Ctrl+C: stop now
  stopping = true;
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  console.log(dim(`\nStopping (${signal}): ${plural(seen.size, 'delivery', 'deliveries')} in ${plural(received, 'request', 'requests')}.`));
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 2000).unref();
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(signal));

await listen();

const file = path.relative(ROOT, LISTENER_FILE);
let endpoint;
if (options.register) {
  try {
    endpoint = await ensureEndpoint({ apiBase, url: listenUrl, events: await subscriptionFor(apiBase, options.types) });
  } catch (error) {
    server.close();
    if (error instanceof ListenerError) fail(error.message, error.hint);
    throw error;
  }
  secrets.push(endpoint.secret);
} else if (secrets.length === 0) {
  const saved = await readSavedEndpoint();
  if (!saved) {
    server.close();
    fail(`--no-register needs --secret <whsec_...> (there is no saved secret in ${file} either).`, USAGE);
  }
  secrets.push(saved.secret);
  endpoint = { ...saved, how: 'saved', notes: [] };
}

const lines = ['', bold(`Listening for webhooks on ${listenUrl}`), ''];
if (options.register) {
  const how = {
    registered: `registered now, saved in ${file}`,
    reregistered: `registered again, saved in ${file}`,
    reused: `reused from ${file}`,
  }[endpoint.how];
  lines.push(`  Endpoint:  ${endpoint.endpointId} (${how}; events: ${options.types ? options.types.join(', ') : '*'})`);
  for (const note of endpoint.notes) lines.push(`             ${note}`);
  lines.push(`  Secret:    ${endpoint.secret}`);
} else {
  lines.push(`  Not registered (--no-register): point an endpoint at ${listenUrl} yourself.`);
  lines.push(`  Verifying with ${secrets.length} secret${secrets.length === 1 ? '' : 's'}${endpoint ? ` (the one saved in ${file})` : ' (--secret)'}.`);
}
if (process.env.API_PORT) lines.push(yellow(`  API_PORT is no longer read: the API is ${apiBase} (set STORE_API_URL or --api).`));
if (options.fail) lines.push(yellow(`  Answering 500 to the first ${options.fail} deliver${options.fail === 1 ? 'y' : 'ies'} (--fail): watch the store retry.`));
lines.push('');
lines.push('  Next:');
lines.push(`    npm run dev                     ${dim('# in another terminal, if the API is not running yet')}`);
if (endpoint?.endpointId) {
  lines.push(`    KEY=$(cat .wrangler/dev-admin-key)`);
  lines.push(`    curl -X POST ${apiBase}/api/webhooks/${endpoint.endpointId}/test -H "Authorization: Bearer $KEY"   ${dim('# send a ping')}`);
}
lines.push('    then create a product, place or cancel an order: each event shows up here within seconds.');
lines.push('');
lines.push(dim(options.register ? '  Ctrl+C to stop. Run it again later: the same endpoint is reused and what you missed is retried to it.' : '  Ctrl+C to stop.'));
lines.push('');
console.log(lines.join('\n'));

if (options.since) await replaySince(endpoint.endpointId, options.since);

/** --since: asks the API to replay [since, now] to this endpoint, then prints how it ended (deliveries print as they come). */
async function replaySince(endpointId, since) {
  try {
    const started = await startReplay({ apiBase, endpointId, from: since, to: new Date().toISOString(), types: options.types });
    console.log(`${dim(clock())} ${cyan('↻')} replaying events since ${since}${options.types ? ` (${options.types.join(', ')})` : ''}: replay ${started.id}`);
    const done = await followReplay({ apiBase, endpointId, replayId: started.id });
    const counts = `${done.matched} matched, ${done.queued} queued, ${done.skipped} skipped (already delivered or on their way)`;
    if (done.status === 'completed') console.log(`${dim(clock())} ${green('↻')} replay ${done.id} completed: ${counts}`);
    else console.log(yellow(`${clock()} ↻ replay ${done.id} ${done.status}: ${counts}${done.error ? `; ${done.error}` : ''}`));
  } catch (error) {
    // The listener keeps listening: live deliveries still come.
    if (!(error instanceof ListenerError)) throw error;
    console.log(red(`${clock()} ✖ ${error.message}`));
    if (error.hint) console.log(error.hint);
  }
}
