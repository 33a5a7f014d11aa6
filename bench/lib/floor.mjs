// Each rendered read's own D1 floor. The metered copy (bench/workers/metered.js) records every D1
// call of a probe request sent with TRACE_HEADER; the floor Worker (bench/workers/floor.js) is given
// that trace and replays it on every GET /run/<id>, answering JSON.stringify of the results. Beside
// the scenario, in slices as B1 is, it shows how much of the scenario's gap to B1 is the D1 work the
// scenario asks for, and how much is the store Worker's own.

export const TRACE_HEADER = 'X-Bench-Trace';

/**
 * Whether the metered probe's X-Store-Cache says the scenario is rendered on every request: `bypass`
 * (Cache-Control: no-cache) or none (a route that keeps no answers). A kept route's `miss` is only
 * its first rendering: under load it is served kept (`hit`, `colo-hit`), without the reads.
 */
const renderedEveryTime = (cache) => cache === 'bypass' || cache === null || cache === undefined;

/**
 * The trace of the last request sent to the metered copy with TRACE_HEADER: <id>; it is kept there
 * until read.
 */
export async function readTrace(meteredOrigin, id) {
  const res = await fetch(`${meteredOrigin}/__bench/trace/${encodeURIComponent(id)}`);
  if (!res.ok) throw new Error(`the metered copy kept no trace for ${id}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * A scenario's own floor, when it is a read rendered on every request (a GET, renderedEveryTime,
 * whose probe made D1 calls), or an order judged with its aftermath (`write`: the probe's time and
 * the line it ordered): the trace defined in the floor Worker, checked to answer once (a write with
 * `write.probeLine`, another line than the recorded one). Returns the floor's path, what it
 * replays (described, and the trace itself for results.json) and its answer's bytes, or undefined.
 */
export async function defineOwnFloor(floorOrigin, scenario, trace, write) {
  if (trace.length === 0) return undefined;
  if (write ? !scenario.aftermathFloor : (scenario.method ?? 'GET') !== 'GET' || !renderedEveryTime(scenario.cost?.cache)) return undefined;
  const id = encodeURIComponent(scenario.id);
  const definition = write ? { trace, fresh: madeBy(trace, write.since), line: write.line } : trace;
  const define = await fetch(`${floorOrigin}/define/${id}`, { method: 'POST', body: JSON.stringify(definition), headers: { 'content-type': 'application/json' } });
  if (define.status !== 204) throw new Error(`the floor Worker refused ${scenario.id}'s trace: ${define.status} ${await define.text()}`);
  const path = `/run/${id}`;
  const run = await fetch(floorOrigin + path, write ? { method: 'POST', body: JSON.stringify(write.probeLine), headers: { 'content-type': 'application/json' } } : {});
  const body = await run.text();
  if (!run.ok) throw new Error(`${scenario.id}'s own floor answered ${run.status}: ${body.slice(0, 300)}`);
  return { path, calls: describeTrace(trace), bytes: body.length, trace, ...(write ? { fresh: definition.fresh.length } : {}) };
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** An id as src/lib/ids.ts makes them: a prefix, 10 characters of millisecond time, 16 of randomness. */
const ID = /\b[a-z]+_[0-9A-HJKMNP-TV-Z]{26}\b/g;
const idTime = (id) => [...id.slice(id.indexOf('_') + 1, id.indexOf('_') + 11)].reduce((t, ch) => t * 32 + CROCKFORD.indexOf(ch), 0);

/** The ids a recorded request made (their time is the request's, at or after `since`), wherever its parameters name them. */
function madeBy(trace, since) {
  const found = new Set();
  for (const call of trace) {
    for (const s of call.batch ?? [call]) {
      for (const p of s.params ?? []) if (typeof p === 'string') for (const [id] of p.matchAll(ID)) if (idTime(id) >= since) found.add(id);
    }
  }
  return [...found];
}

/** "batch of 3" or "all, all + batch of 2": the trace's calls in order, for the report ("+": sent while the one before was in flight). */
export function describeTrace(trace) {
  return trace.map((c, i) => `${i === 0 ? '' : c.concurrent ? ' + ' : ', '}${c.batch ? `batch of ${c.batch.length}` : c.method}`).join('');
}
