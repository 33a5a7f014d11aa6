// A loopback fake of the few Stripe API endpoints the store uses, run by vitest in Node before the
// workers project starts (globalSetup); STRIPE_API_BASE points the store at it (vitest.config.ts).
// It answers like Stripe (form-encoded requests, JSON objects, Stripe's error shape) and keeps
// Stripe's idempotency: a repeated Idempotency-Key gets the first answer again, without doing the
// work again. Tests drive it over HTTP (test/payments/stripe-fake.ts):
//   POST /__fake/payment_intents/<id>/confirm {"outcome":"succeeded"|"declined"}  the customer's card
//   POST /__fake/refunds {"payment_intent","amount"}                             a refund made in the dashboard
//   PUT  /__fake/faults {"match":"POST /v1/refunds","mode":"lose-answer"|"fail","times":n}
//   GET  /__fake/requests?intent=<pi>&key=<idempotency key prefix>                what the store asked
// Plain JavaScript: the type check has no Node types.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

const intents = new Map();
const refunds = new Map();
/** Idempotency-Key -> { method, path, body: the first answer }. */
const answered = new Map();
const requests = [];
let faults = [];

const id = (prefix) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** `metadata[payment_id]=x&amount=5` -> { metadata: { payment_id: 'x' }, amount: '5' }. */
function parseForm(text) {
  const out = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const path = name.replace(/\]/g, '').split('[');
    let at = out;
    for (const key of path.slice(0, -1)) at = at[key] ??= {};
    at[path.at(-1)] = value;
  }
  return out;
}

const stripeError = (status, code, message) => ({ status, body: { error: { type: 'invalid_request_error', code, message } } });

function refundedSoFar(intent) {
  return [...refunds.values()].filter((r) => r.payment_intent === intent.id && r.status === 'succeeded').reduce((sum, r) => sum + r.amount, 0);
}

function createRefund(params) {
  const intent = intents.get(params.payment_intent);
  if (!intent) return stripeError(404, 'resource_missing', `No such payment_intent: '${params.payment_intent}'`);
  if (intent.status !== 'succeeded') return stripeError(400, 'charge_not_succeeded', 'This PaymentIntent has not succeeded');
  const amount = params.amount === undefined ? intent.amount - refundedSoFar(intent) : Number(params.amount);
  if (amount > intent.amount - refundedSoFar(intent)) return stripeError(400, 'charge_already_refunded', `Refund amount (${amount}) is greater than unrefunded amount on charge`);
  const refund = {
    id: id('re'),
    object: 'refund',
    amount,
    currency: intent.currency,
    payment_intent: intent.id,
    status: 'succeeded',
    reason: params.reason ?? null,
    failure_reason: null,
    metadata: params.metadata ?? {},
    created: Math.floor(Date.now() / 1000),
  };
  refunds.set(refund.id, refund);
  return { status: 200, body: refund };
}

/** The Stripe API: returns { status, body }. */
function stripe(method, path, params) {
  let m;
  if (method === 'POST' && path === '/v1/payment_intents') {
    const intent = {
      id: id('pi'),
      object: 'payment_intent',
      amount: Number(params.amount),
      currency: params.currency,
      status: 'requires_payment_method',
      metadata: params.metadata ?? {},
      receipt_email: params.receipt_email ?? null,
      last_payment_error: null,
      cancellation_reason: null,
      latest_charge: null,
      created: Math.floor(Date.now() / 1000),
    };
    intent.client_secret = `${intent.id}_secret_${randomBytes(8).toString('hex')}`;
    intents.set(intent.id, intent);
    return { status: 200, body: intent };
  }
  if (method === 'GET' && (m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) {
    const intent = intents.get(m[1]);
    return intent ? { status: 200, body: intent } : stripeError(404, 'resource_missing', `No such payment_intent: '${m[1]}'`);
  }
  if (method === 'POST' && (m = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path))) {
    const intent = intents.get(m[1]);
    if (!intent) return stripeError(404, 'resource_missing', `No such payment_intent: '${m[1]}'`);
    if (intent.status === 'succeeded' || intent.status === 'canceled') {
      return stripeError(400, 'payment_intent_unexpected_state', `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`);
    }
    Object.assign(intent, { status: 'canceled', cancellation_reason: params.cancellation_reason ?? null });
    return { status: 200, body: intent };
  }
  if (method === 'POST' && path === '/v1/refunds') return createRefund(params);
  if (method === 'GET' && path === '/v1/refunds') {
    const data = [...refunds.values()].filter((r) => !params.payment_intent || r.payment_intent === params.payment_intent).reverse();
    return { status: 200, body: { object: 'list', url: '/v1/refunds', has_more: false, data } };
  }
  return stripeError(404, 'resource_missing', `Unrecognized request URL (${method}: ${path})`);
}

/** The test's hands on the fake. */
function control(method, path, query, body) {
  let m;
  if (method === 'POST' && (m = /^\/__fake\/payment_intents\/([^/]+)\/confirm$/.exec(path))) {
    const intent = intents.get(m[1]);
    if (!intent) return { status: 404, body: { error: 'no such intent' } };
    if (body.outcome === 'declined') {
      Object.assign(intent, {
        status: 'requires_payment_method',
        last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
      });
    } else {
      Object.assign(intent, { status: 'succeeded', last_payment_error: null, latest_charge: id('ch') });
    }
    return { status: 200, body: intent };
  }
  if (method === 'POST' && path === '/__fake/refunds') return createRefund({ payment_intent: body.payment_intent, amount: body.amount, reason: body.reason });
  if (method === 'PUT' && path === '/__fake/faults') {
    faults.push({ match: body.match, mode: body.mode, times: body.times ?? 1 });
    return { status: 200, body: { ok: true } };
  }
  if (method === 'DELETE' && path === '/__fake/faults') {
    faults = [];
    return { status: 200, body: { ok: true } };
  }
  if (method === 'GET' && path === '/__fake/requests') {
    const intent = query.get('intent');
    const key = query.get('key');
    const matching = requests.filter((r) => (!key || r.idempotencyKey?.startsWith(key)) && (!intent || r.path.includes(intent) || r.params.payment_intent === intent));
    return { status: 200, body: matching };
  }
  if (method === 'GET' && path === '/__fake/refunds') {
    return { status: 200, body: [...refunds.values()].filter((r) => r.payment_intent === query.get('intent')) };
  }
  return { status: 404, body: { error: 'no such control' } };
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The next fault for this request, used up as it applies. */
function faultFor(method, path) {
  const fault = faults.find((f) => f.times > 0 && `${method} ${path}`.startsWith(f.match));
  if (fault) fault.times -= 1;
  return fault;
}

async function handle(req, res) {
  const url = new URL(req.url ?? '/', 'http://fake');
  const text = await readBody(req);
  const send = ({ status, body }) => {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': id('req') });
    res.end(JSON.stringify(body));
  };
  if (url.pathname.startsWith('/__fake/')) return send(control(req.method, url.pathname, url.searchParams, text ? JSON.parse(text) : {}));

  const params = req.method === 'GET' ? Object.fromEntries(url.searchParams) : parseForm(text);
  const idempotencyKey = req.headers['idempotency-key'] ?? null;
  const fault = faultFor(req.method, url.pathname);
  requests.push({ method: req.method, path: url.pathname, idempotencyKey, params, at: new Date().toISOString(), fault: fault?.mode ?? null });
  if (fault?.mode === 'fail') return send({ status: 500, body: { error: { type: 'api_error', message: 'Injected failure before any work' } } });

  let answer;
  const first = idempotencyKey && answered.get(idempotencyKey);
  if (first) {
    if (first.method !== req.method || first.path !== url.pathname)
      answer = stripeError(400, 'idempotency_key_in_use', 'Keys for idempotent requests can only be used with the same parameters they were first used with.');
    else answer = first.answer;
  } else {
    answer = stripe(req.method, url.pathname, params);
    if (idempotencyKey && req.method === 'POST') answered.set(idempotencyKey, { method: req.method, path: url.pathname, answer });
  }
  // The work is done and kept; the answer never arrives.
  if (fault?.mode === 'lose-answer') return req.socket.destroy();
  return send(answer);
}

export default async function setup() {
  const port = Number(process.env.STRIPE_FAKE_PORT);
  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)));
  return async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(() => resolve(undefined)));
  };
}
