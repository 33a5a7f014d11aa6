// A scenario's own D1 floor: the D1 calls one request of the scenario made (recorded by
// bench/workers/metered.js, sent here by bench/lib/floor.mjs), replayed against the same database
// with no routing, no middleware, no validation, and all their results sent as JSON.stringify of
// them: the least any Worker must do to answer with the rows that scenario reads.
//   POST /define/<id>  the trace (JSON), kept in this isolate, its statements prepared once
//   GET  /run/<id>     the calls in order (a batch as one env.DB.batch(), a lone statement with its
//                      method), those the store started while another was in flight together
// A write (an order) is defined with what must differ on every run: { trace, fresh, line } where
// `fresh` are the ids the recorded request made (its order, lines, event...) and `line` the
// variant and product it ordered. Each POST /run/<id> { variantId, productId } replays the trace
// with new ids of the same kinds in their place (inside JSON text too) and the posted variant and
// product in the line's, then sends the new events to the store's events queue as the store does
// (`evt_` ids, when EVENTS_QUEUE is bound), so the store's consumers do for them what they do for
// an order's.
const scenarios = new Map();

/** The trace's calls in steps: a call marked `concurrent` joins the step of the one before it. */
function stepsOf(db, trace) {
  const steps = [];
  for (const call of trace) {
    const prepared = call.batch
      ? { batch: call.batch.map((s) => ({ statement: db.prepare(s.sql), params: s.params })) }
      : { statement: call.method === 'exec' ? undefined : db.prepare(call.sql), sql: call.sql, params: call.params, method: call.method, args: call.args ?? [] };
    if (call.concurrent && steps.length) steps[steps.length - 1].push(prepared);
    else steps.push([prepared]);
  }
  return steps;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A new id of `old`'s kind, made as src/lib/ids.ts makes them (time, then randomness). */
function renewed(old) {
  const prefix = old.slice(0, old.indexOf('_'));
  let time = '';
  for (let i = 0, t = Date.now(); i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
  let random = '';
  for (const b of crypto.getRandomValues(new Uint8Array(16))) random += CROCKFORD[b % 32];
  return `${prefix}_${time}${random}`;
}

/** For a write: what to put in place of the recorded values on one run. */
function substitution(write, line) {
  const values = new Map(write.fresh.map((id) => [id, renewed(id)]));
  values.set(write.line.variantId, line.variantId);
  values.set(write.line.productId, line.productId);
  const swap = (p) => (typeof p === 'string' ? p.replace(write.pattern, (found) => values.get(found)) : p);
  return { swap, events: write.fresh.filter((id) => id.startsWith('evt_')).map((id) => values.get(id)) };
}

function replay(db, call, swap) {
  const params = (ps) => (swap ? ps.map(swap) : ps);
  if (call.batch) return db.batch(call.batch.map((s) => s.statement.bind(...params(s.params))));
  if (call.method === 'exec') return db.exec(call.sql);
  return call.statement.bind(...params(call.params))[call.method](...call.args);
}

const escaped = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export default {
  async fetch(request, env) {
    const [, action, id] = new URL(request.url).pathname.split('/');
    if (action === 'define' && request.method === 'POST') {
      const definition = await request.json();
      const trace = Array.isArray(definition) ? definition : definition.trace;
      const write = Array.isArray(definition) ? undefined : { ...definition, pattern: undefined };
      if (write) write.pattern = new RegExp([...write.fresh, write.line.variantId, write.line.productId].map(escaped).join('|'), 'g');
      scenarios.set(id, { steps: stepsOf(env.DB, trace), write });
      return new Response(null, { status: 204 });
    }
    const scenario = action === 'run' ? scenarios.get(id) : undefined;
    if (!scenario) return new Response('not found', { status: 404 });
    const { swap, events } = scenario.write ? substitution(scenario.write, await request.json()) : {};
    const results = [];
    for (const step of scenario.steps) results.push(...(await Promise.all(step.map((call) => replay(env.DB, call, swap)))));
    if (events?.length && env.EVENTS_QUEUE) await env.EVENTS_QUEUE.sendBatch(events.map((eventId) => ({ body: { eventId } })));
    return new Response(JSON.stringify(results), { status: scenario.write ? 201 : 200, headers: { 'Content-Type': 'application/json' } });
  },
};
