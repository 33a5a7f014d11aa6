// A webhook receiver on the loopback interface for the webhook tests, run by vitest in Node before
// the workers project starts (globalSetup). Plain JavaScript: the type check has no Node types.
// Tests talk to it over HTTP (test/webhooks/receiver-setup.ts): each test opens its own channel, so
// test files running at once never see each other's requests.
import { createServer } from 'node:http';

/** @typedef {{ failFirst: number, failStatus: number, redirectTo?: string, answerBody?: string, received: object[] }} Channel */

/** @type {Map<string, Channel>} */
const channels = new Map();

function channel(name) {
  let found = channels.get(name);
  if (!found) {
    found = { failFirst: 0, failStatus: 500, received: [] };
    channels.set(name, found);
  }
  return found;
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res, status, value) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(value));
}

// POST /hook/<channel>: a delivery, answered by the channel's script (fail the first N, then 200).
// POST /hang/<channel>: a delivery that is recorded and never answered (timeouts).
// PUT  /control/<channel> { failFirst, failStatus, redirectTo, answerBody }: sets the script.
// GET  /control/<channel>: every request received on the channel, in order.
async function handle(req, res) {
  const [, kind, name] = (req.url ?? '').split('/');
  if (!kind || !name) return json(res, 404, { error: 'no such route' });
  const ch = channel(name);
  if (kind === 'control') {
    if (req.method === 'GET') return json(res, 200, ch.received);
    Object.assign(ch, JSON.parse(await readBody(req)));
    return json(res, 200, { ok: true });
  }
  const body = await readBody(req);
  const record = { method: req.method, path: req.url, headers: req.headers, body, receivedAt: new Date().toISOString() };
  ch.received.push(record);
  if (kind === 'hang') return;
  if (ch.redirectTo) {
    record.answered = 302;
    res.writeHead(302, { Location: ch.redirectTo });
    return res.end();
  }
  if (ch.failFirst > 0) {
    ch.failFirst -= 1;
    record.answered = ch.failStatus;
    res.writeHead(ch.failStatus, { 'Content-Type': 'text/plain' });
    return res.end(`receiver told to fail (${ch.failFirst} more)`);
  }
  record.answered = 200;
  if (ch.answerBody !== undefined) {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    return res.end(ch.answerBody);
  }
  return json(res, 200, { received: true });
}

const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
const close = (server) => new Promise((resolve) => server.close(() => resolve(undefined)));

export default async function setup({ provide }) {
  const server = createServer((req, res) => {
    handle(req, res).catch((error) => json(res, 500, { error: String(error) }));
  });
  const port = await listen(server);
  // A port that was just free and is closed again: connecting to it is refused (a network error).
  const probe = createServer();
  const closedPort = await listen(probe);
  await close(probe);
  provide('webhookReceiver', { url: `http://127.0.0.1:${port}`, closedUrl: `http://127.0.0.1:${closedPort}/hook/closed` });
  return async () => {
    server.closeAllConnections();
    await close(server);
  };
}
