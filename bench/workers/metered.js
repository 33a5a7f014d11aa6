// The Worker under test with its bindings metered, served on its own port and used only to read the
// D1 cost of one request (never for throughput): every D1 call is counted as a round trip and its
// meta.rows_read summed; every call on a limiter stub (credential or address) is counted as a Durable Object call.
// `raw()` returns no meta, so its statement is run once more with `all()` for the count alone (that
// extra run is neither counted as a round trip nor returned). The totals come back as headers.
// Every D1 call is also recorded in order, on the binding and on its sessions alike (the trace: a
// batch as { batch: [{ sql, params }] }, a lone statement as { sql, params, method, args }, each
// marked `concurrent` when it started before the previous call had answered). A request with an
// X-Bench-Trace: <id> header keeps its trace under that id for GET /__bench/trace/<id> (bench/lib/floor.mjs
// replays it in bench/workers/floor.js).
// The bench copies this file next to the bundle that `wrangler deploy --dry-run` wrote (./index.js).
import worker, { AddressLimiter, RateLimiter } from './index.js';

export { AddressLimiter, RateLimiter };

const TRACE_PATH = '/__bench/trace/';
/** Traces kept for the bench by the id it gave (X-Bench-Trace), until it reads them. */
const traces = new Map();

/** Runs one D1 call as the trace's next entry: `concurrent` when another call was still in flight. */
async function traced(meter, entry, call) {
  meter.calls.push({ ...entry, concurrent: meter.inFlight > 0 });
  meter.inFlight++;
  try {
    return await call();
  } finally {
    meter.inFlight--;
  }
}

/** `statement` as prepared from `sql` and bound to `params`: its calls are counted and traced. */
function meterStatement(statement, meter, sql, params) {
  return new Proxy(statement, {
    get(target, prop) {
      if (prop === 'all' || prop === 'run') {
        return async (...args) => {
          meter.roundTrips++;
          const result = await traced(meter, { sql, params, method: prop, args }, () => target[prop](...args));
          meter.rowsRead += result?.meta?.rows_read ?? 0;
          meter.rowsWritten += result?.meta?.rows_written ?? 0;
          return result;
        };
      }
      if (prop === 'first' || prop === 'raw') {
        return async (...args) => {
          meter.roundTrips++;
          const value = await traced(meter, { sql, params, method: prop, args }, () => target[prop](...args));
          const shadow = await target.all();
          meter.rowsRead += shadow?.meta?.rows_read ?? 0;
          return value;
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === 'function' && prop !== 'constructor' ? value.bind(target) : value;
    },
  });
}

function unwrap(statement) {
  return statement?.[UNWRAP] ?? statement;
}
/** A wrapped statement's D1 statement, and its text and values for the trace. */
const UNWRAP = Symbol('unwrap');
const TRACE = Symbol('trace');

function meterDatabase(db, meter) {
  const wrapStatement = (statement, sql, params) => {
    const proxy = meterStatement(statement, meter, sql, params);
    return new Proxy(proxy, {
      get(target, prop) {
        if (prop === UNWRAP) return statement;
        if (prop === TRACE) return { sql, params };
        if (prop === 'bind') return (...args) => wrapStatement(statement.bind(...args), sql, args);
        return Reflect.get(target, prop);
      },
    });
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') return (sql) => wrapStatement(target.prepare(sql), sql, []);
      if (prop === 'batch') {
        return async (statements) => {
          meter.roundTrips++;
          meter.batches++;
          const batch = statements.map((s) => s?.[TRACE] ?? { sql: '(a statement not prepared through this binding)', params: [] });
          const results = await traced(meter, { batch }, () => target.batch(statements.map(unwrap)));
          for (const result of results) {
            meter.rowsRead += result?.meta?.rows_read ?? 0;
            meter.rowsWritten += result?.meta?.rows_written ?? 0;
          }
          return results;
        };
      }
      if (prop === 'withSession') return (...args) => meterDatabase(target.withSession(...args), meter);
      if (prop === 'exec') {
        return async (sql) => {
          meter.roundTrips++;
          return traced(meter, { sql, params: [], method: 'exec', args: [] }, () => target.exec(sql));
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === 'function' && prop !== 'constructor' ? value.bind(target) : value;
    },
  });
}

function meterStub(stub, meter) {
  return new Proxy(stub, {
    get(target, prop) {
      if (typeof prop === 'string' && prop !== 'then' && prop !== 'constructor' && typeof target[prop] === 'function') {
        return (...args) => {
          meter.doCalls++;
          return target[prop](...args);
        };
      }
      return target[prop];
    },
  });
}

function meterNamespace(namespace, meter) {
  return new Proxy(namespace, {
    get(target, prop) {
      if (prop === 'get' || prop === 'getByName') return (...args) => meterStub(target[prop](...args), meter);
      const value = Reflect.get(target, prop);
      return typeof value === 'function' && prop !== 'constructor' ? value.bind(target) : value;
    },
  });
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname.startsWith(TRACE_PATH)) {
      const id = decodeURIComponent(url.pathname.slice(TRACE_PATH.length));
      const trace = traces.get(id);
      traces.delete(id);
      return trace ? Response.json(trace) : new Response(`no trace kept for ${id}`, { status: 404 });
    }
    const meter = { roundTrips: 0, batches: 0, rowsRead: 0, rowsWritten: 0, doCalls: 0, calls: [], inFlight: 0 };
    const metered = {
      ...env,
      DB: meterDatabase(env.DB, meter),
      RATE_LIMITER: meterNamespace(env.RATE_LIMITER, meter),
      ADDRESS_LIMITER: meterNamespace(env.ADDRESS_LIMITER, meter),
    };
    const response = await worker.fetch(request, metered, ctx);
    // Read the body first so that the counts include everything done before the response completed.
    const body = await response.arrayBuffer();
    const out = new Response(request.method === 'HEAD' || response.status === 304 ? null : body, response);
    out.headers.set('X-Bench-D1-Round-Trips', String(meter.roundTrips));
    out.headers.set('X-Bench-D1-Batches', String(meter.batches));
    out.headers.set('X-Bench-D1-Rows-Read', String(meter.rowsRead));
    out.headers.set('X-Bench-D1-Rows-Written', String(meter.rowsWritten));
    out.headers.set('X-Bench-DO-Calls', String(meter.doCalls));
    const traceId = request.headers.get('X-Bench-Trace');
    if (traceId) traces.set(traceId, meter.calls);
    return out;
  },
};
