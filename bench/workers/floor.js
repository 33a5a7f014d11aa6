// A scenario's own D1 floor: the D1 calls one request of the scenario made (recorded by
// bench/workers/metered.js, sent here by bench/lib/floor.mjs), replayed against the same database
// with no routing, no middleware, no validation, and all their results sent as JSON.stringify of
// them: the least any Worker must do to answer with the rows that scenario reads.
//   POST /define/<id>  the trace (JSON), kept in this isolate, its statements prepared once
//   GET  /run/<id>     the calls in order (a batch as one env.DB.batch(), a lone statement with its
//                      method), those the store started while another was in flight together
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

function replay(db, call) {
  if (call.batch) return db.batch(call.batch.map((s) => s.statement.bind(...s.params)));
  if (call.method === 'exec') return db.exec(call.sql);
  return call.statement.bind(...call.params)[call.method](...call.args);
}

export default {
  async fetch(request, env) {
    const [, action, id] = new URL(request.url).pathname.split('/');
    if (action === 'define' && request.method === 'POST') {
      scenarios.set(id, stepsOf(env.DB, await request.json()));
      return new Response(null, { status: 204 });
    }
    const steps = action === 'run' ? scenarios.get(id) : undefined;
    if (!steps) return new Response('not found', { status: 404 });
    const results = [];
    for (const step of steps) results.push(...(await Promise.all(step.map((call) => replay(env.DB, call)))));
    return new Response(JSON.stringify(results), { headers: { 'Content-Type': 'application/json' } });
  },
};
