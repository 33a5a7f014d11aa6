// Writes bench/results.md (machine, versions, one table per catalogue size) and bench/chart.svg
// (bars: throughput ratio to B1 per scenario at the largest size; lines: p50 latency against
// catalogue size per scenario), hand-drawn SVG with no chart library.

import { writeFile } from 'node:fs/promises';
import path from 'node:path';

const fmt = (n, digits = 0) => (n === undefined || n === null || Number.isNaN(n) ? '–' : Number(n).toFixed(digits));
const ratio = (a, b) => (b > 0 ? a / b : NaN);
/** The Worker's own figure when it reported one, else the metered copy's, marked *. */
function cost(s, key) {
  const own = s.workerCost?.[key];
  if (own !== undefined && !Number.isNaN(own)) return String(own);
  const metered = s.cost?.[key];
  return metered === undefined || Number.isNaN(metered) ? '–' : `${metered}*`;
}
const sizeLabel = (n) => (n >= 1000 ? `${n / 1000}k` : String(n));

export async function writeReport(report, benchDir) {
  await writeFile(path.join(benchDir, 'results.md'), markdown(report));
  await writeFile(path.join(benchDir, 'chart.svg'), chart(report));
}

function markdown(report) {
  const m = report.machine;
  const o = report.options;
  const lines = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench${o.quick ? ' -- --quick' : ''}\` on ${report.date.slice(0, 16).replace('T', ' ')} UTC (${fmt(report.seconds)} s in all). Local numbers: workerd on`,
    'this machine through Miniflare, D1 as local SQLite; compare ratios, not absolute figures, with production.',
    '',
    `- Machine: ${m.cores} cores, ${m.cpu}, ${m.memoryGiB} GiB memory, ${m.os}`,
    `- Node ${m.node}, wrangler ${m.wrangler}, miniflare ${m.miniflare}, workerd ${m.workerd}, autocannon ${m.autocannon}`,
    `- Load: ${o.connections} concurrent connections, ${o.warmup} s warm-up then ${o.duration} s per scenario, ${(o.slices ?? 1) > 1 ? `in ${o.slices} slices alternating with as many B1 slices (its ratio is to those; requests add up, p50 and p99 are the median of the slices')` : 'right after a B1 run of the same length (its ratio is to that run)'}, B0 before and after all of them. Each run measures a copy of the seeded catalogue.`,
    "- B0: a Worker answering a fixed JSON body. B1: a Worker answering the first page of products (20 rows) from the same D1 database with one query. B2 (the orders scenario's write floor, in slices beside it as B1 is): a Worker writing the rows of a one-line guest order (order, line, stock change, status history, order.placed event) in one D1 batch, with no validation; the triggers fire as for a real order.",
    '- Own floor (the reads rendered on every request: GETs sent with `Cache-Control: no-cache`, and routes that keep no answers; and the orders with no webhook endpoint): the D1 calls one request of the scenario made, recorded in order by the metered copy and replayed by a bare Worker on the same database (bench/workers/floor.js), which answers JSON.stringify of their results: the least any Worker must do to send those rows. An order\'s is replayed with new ids in place of those the order made and the next variant in place of the one it ordered, and sends its event to the store\'s events queue, as the order does. It runs in slices beside its scenario as B1 does; "÷ own floor" is the share of that floor the store keeps, "own floor ÷ B1" how far the D1 work the scenario asks for already is from B1, so a target ("≥ 0.7× B1") above the own floor\'s ratio to B1 is out of reach whatever the Worker does. CPU ms/req is the workerd processes\' CPU time (the Worker and its D1) per request over the same slices.',
    '- req/s counts 2xx answers only; errors are non-2xx (other than 429), socket errors and timeouts; 429s are listed apart (the bench raises both rate limits so none should occur, the limiter still counts every request).',
    "- D1 cost per request: the Worker's own `X-D1-Rows-Read` / `X-D1-Round-Trips` headers (development only) from one request of each scenario; where it sends none, the figure is marked * and comes from a metered copy of the same bundle (bench/workers/metered.js: its D1 and limiter bindings wrapped, one request at a time, never under load). DO calls always come from the metered copy.",
    '- Kept answer: catalogue reads are kept per catalogue version in the isolate that rendered them and, for anonymous callers, in the colo\'s cache (the Cache API) (src/middleware/catalogue-cache.ts); `hit` means the kept bytes were served, with no D1 round trip while the isolate trusts its version (read within CATALOGUE_CACHE_QUIET_MS, 2 s) and after a one-row version read otherwise (a request with a bookmark), `colo-hit` the same from the colo\'s cache, `bypass` that the scenario sends `Cache-Control: no-cache` and is rendered every time, `miss`/– that nothing is kept. "Rows read when rendered" is the first request of the scenario in the metered copy (no kept answer yet). The metered copy sees one path of the 1,200 pages scenario again, so shows `hit`; under load each of its requests misses the isolate (1,000 answers kept) and is a `colo-hit`.',
    '- Anonymous reads are counted by the limiter in the background while the client IP is far from its limit (src/rate-limit/estimates.ts): the DO calls column counts them, but the request does not wait for them.',
    '',
  ];
  for (const r of report.results) {
    const b1 = r.scenarios.length ? r.scenarios.reduce((s, x) => s + x.b1.rps, 0) / r.scenarios.length : NaN;
    lines.push(`## ${r.size.toLocaleString('en-US')} products`, '');
    lines.push(
      `Catalogue: ${r.size.toLocaleString('en-US')} products, ${r.seed.variants.toLocaleString('en-US')} variants; ${r.seed.reused ? 'reused from bench/.tmp' : `seeded in ${fmt(r.seed.ms / 1000, 1)} s (${r.seed.statements} INSERTs)`}. ` +
        `B0 ${fmt(r.baselines.b0.rps)} req/s (p50 ${fmt(r.baselines.b0.p50, 1)} ms); B1 ${fmt(b1)} req/s on average (${r.b1Cost.rowsRead} rows read per request).`,
      '',
    );
    const withB2 = r.scenarios.filter((s) => s.b2);
    if (r.b2Cost && withB2.length) {
      const orders = withB2.find((s) => s.id === 'orders');
      lines.push(
        `B2 ${fmt(withB2.reduce((sum, s) => sum + s.b2.rps, 0) / withB2.length)} req/s (p50 ${fmt(withB2[0].b2.p50, 1)} ms; one D1 batch of ${r.b2Cost.statements} statements, ${r.b2Cost.rowsWritten} rows written per request${orders?.cost?.rowsWritten ? `; the orders scenario writes ${orders.cost.rowsWritten}*` : ''}).`,
        '',
      );
      for (const s of r.scenarios.filter((x) => x.b2After)) {
        lines.push(
          `B2 with its aftermath (its event written unpublished and sent to the store's events queue, where the store's consumers handle it as an order's), beside "${s.name}": ${fmt(s.b2After.rps)} req/s, ${fmt(s.b2After.cpuMsPerRequest, 2)} ms of workerd CPU a request against B2's ${fmt(s.b2.cpuMsPerRequest, 2)}; the scenario ÷ it: **${fmt(ratio(s.rps, s.b2After.rps), 2)}**.`,
          '',
        );
      }
    }
    lines.push(
      '| Scenario | req/s | p50 ms | p99 ms | errors | 429 | B1 req/s | ÷ B1 | ÷ B2 | ÷ B0 | D1 round trips | D1 rows read | kept answer | rows read when rendered | DO calls |',
    );
    lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | :---: | ---: | ---: |');
    for (const s of r.scenarios) {
      lines.push(
        `| ${s.name} | ${fmt(s.rps)} | ${fmt(s.p50, 1)} | ${fmt(s.p99, 1)} | ${s.errors} | ${s.r429} | ${fmt(s.b1.rps)} | ${fmt(ratio(s.rps, s.b1.rps), 2)} | ${s.b2 ? fmt(ratio(s.rps, s.b2.rps), 2) : '–'} | ${fmt(ratio(s.rps, r.baselines.b0.rps), 3)} | ${cost(s, 'roundTrips')} | ${cost(s, 'rowsRead')} | ${s.cost?.cache ?? '–'} | ${s.renderedCost ? `${s.renderedCost.rowsRead}*` : '–'} | ${s.cost?.doCalls ?? '–'} |`,
      );
    }
    const w = r.webhooks;
    if (w) {
      lines.push(`| Webhook deliveries (order.placed to a loopback receiver) | ${fmt(w.perSecond)} /s | | | | | | | | | | | | | |`);
      lines.push(
        '',
        `Webhooks: ${w.received} deliveries received (${w.unique} distinct X-Store-Delivery) of ${w.expected ?? '?'} orders placed after the endpoint was registered, over ${fmt(w.spanSeconds, 1)} s of arriving (first to last, less pauses of over a second: the B1 slices)${w.expected !== undefined && w.received < w.expected ? ` (the rest were still queued when the bench stopped waiting, ${o.drainSeconds} s after the orders run)` : ''}; ${w.verifiedSample} of ${w.sample} sampled deliveries verified with clients/typescript/src/webhooks.js.`,
      );
    }
    lines.push(...ownFloorLines(r));
    const errored = r.scenarios.filter((s) => s.errors > 0);
    if (errored.length) lines.push('', `Status codes where errors occurred: ${errored.map((s) => `${s.name}: ${JSON.stringify(s.codes)}`).join('; ')}.`);
    lines.push('');
  }
  if (report.results.length > 1) {
    const first = report.results[0];
    const last = report.results[report.results.length - 1];
    lines.push(`## p50 latency at ${sizeLabel(last.size)} against ${sizeLabel(first.size)} products`, '');
    lines.push(`| Scenario | p50 at ${sizeLabel(first.size)} (ms) | p50 at ${sizeLabel(last.size)} (ms) | growth |`, '| --- | ---: | ---: | ---: |');
    for (const s of last.scenarios) {
      const f = first.scenarios.find((x) => x.id === s.id);
      if (f) lines.push(`| ${s.name} | ${fmt(f.p50, 1)} | ${fmt(s.p50, 1)} | ${fmt(ratio(s.p50, f.p50), 2)}x |`);
    }
    lines.push('');
  }
  if (report.cold) lines.push(...coldStartLines(report.cold));
  lines.push('![Throughput ratio to B1 and p50 latency against catalogue size](chart.svg)', '');
  return lines.join('\n');
}

/** The table of the rendered reads against their own D1 floor (bench/lib/floor.mjs), when any has one. */
function ownFloorLines(r) {
  const rendered = r.scenarios.filter((s) => s.ownFloor);
  if (!rendered.length) return [];
  const lines = [
    '',
    `Rendered reads, and orders with their aftermath, against their own D1 floor (${r.size.toLocaleString('en-US')} products):`,
    '',
    "| Scenario | own floor's D1 calls | req/s | own floor req/s | ÷ own floor | ÷ B1 | own floor ÷ B1 | CPU ms/req: scenario | own floor | B1 |",
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const s of rendered) {
    const f = s.ownFloor;
    lines.push(
      `| ${s.name} | ${f.calls} | ${fmt(s.rps)} | ${fmt(f.rps)} | ${fmt(ratio(s.rps, f.rps), 2)} | ${fmt(ratio(s.rps, s.b1.rps), 2)} | ${fmt(ratio(f.rps, s.b1.rps), 2)} | ${fmt(s.cpuMsPerRequest, 2)} | ${fmt(f.cpuMsPerRequest, 2)} | ${fmt(s.b1.cpuMsPerRequest, 2)} |`,
    );
  }
  return lines;
}

/** The "Cold start" section (bench/lib/cold-start.mjs). */
function coldStartLines({ fresh, startup, bundle }) {
  const kib = (n) => fmt(n / 1024);
  const row = (name, f) => `| ${name} | ${fmt(f.readyMs.median)} | ${fmt(f.firstAnswerMs.median)} | ${fmt(f.totalMs.median)} | ${fmt(f.totalMs.max)} |`;
  const lines = [
    '## Cold start',
    '',
    `Fresh isolate to first answer: a new Miniflare (a new workerd process) with the Worker, to its first 200 answer (the store's to GET ${fresh.path}), ${fresh.runs} times each, in turn; ready is \`mf.ready\` (the runtime up and the Worker's modules evaluated), first answer the request after it. B0 is the runtime's own start; B0 with the store's bindings adds what D1, the Durable Objects and the queues cost to start; the store less that is our bundle's cost: **${fmt(fresh.store.totalMs.median - fresh.bound.totalMs.median)} ms** (medians).${fresh.catalogue ? ` The store builds the routers a request needs on its first such request (src/mounts.ts), so its first answer depends on the path: the last row is a storefront's first page, GET ${fresh.cataloguePath} over a migrated, empty database.` : ''}`,
    '',
    '| Worker | ready ms | first answer ms | total ms (median) | total ms (max) |',
    '| --- | ---: | ---: | ---: | ---: |',
    row('B0', fresh.b0),
    row("B0 with the store's bindings", fresh.bound),
    row('store', fresh.store),
    ...(fresh.catalogue ? [row(`store, first answer to GET ${fresh.cataloguePath}`, fresh.catalogue)] : []),
    '',
  ];
  if (startup.error) lines.push(`\`wrangler check startup\` did not run here: ${startup.error}`, '');
  else {
    lines.push(
      `\`wrangler check startup\` (alpha; V8's samples about 1 ms apart, so the median of ${startup.busyMs.runs.length} runs): **${fmt(startup.busyMs.median)} ms** of sampled CPU evaluating the bundle, **${fmt(startup.busyMs.min)} ms** the least (runs: ${startup.busyMs.runs.map((x) => fmt(x)).join(', ')} ms; (idle) left out). A sample taken while the machine runs something else counts as busy, so on this loaded 2-core machine the least run is the nearest to the bundle's own cost. From the median run (bench/.tmp/), the functions with the most inclusive time and the packages with the most self time (by the bundle's \`// <path>\` comments of esbuild):`,
      '',
      '| Function (inclusive) | ms | share | | Package (self) | ms | share |',
      '| --- | ---: | ---: | --- | --- | ---: | ---: |',
    );
    for (let i = 0; i < Math.max(startup.functions.length, startup.packages.length); i++) {
      const f = startup.functions[i];
      const p = startup.packages[i];
      lines.push(
        `| ${f ? `\`${f.name}\`${f.package ? ` (${f.package})` : ''} | ${fmt(f.ms, 1)} | ${fmt(100 * f.share)}%` : ' | |'} | | ${p ? `${p.name} | ${fmt(p.ms, 1)} | ${fmt(100 * p.share)}%` : ' | |'} |`,
      );
    }
    lines.push('');
  }
  const floors = startup.floors;
  if (floors && !startup.error) {
    lines.push(
      `The floors of that figure, measured in the same runs, in turn with the store (bench/workers/startup-*.ts, built by wrangler like the store): a bare Hono app **${fmt(floors.hono.median)} ms** median, ${fmt(floors.hono.min)} least (the runtime's and the instrument's own cost; runs: ${floors.hono.runs.map((x) => fmt(x)).join(', ')}), and the packages every request of the store loads before any module's routes (@hono/zod-openapi with zod, Drizzle's D1 driver, the tables) **${fmt(floors.stack.median)} ms** median, ${fmt(floors.stack.min)} least (runs: ${floors.stack.runs.map((x) => fmt(x)).join(', ')})${floors.wrapped ? `, and the same packages bundled as the store's are, reached also from a router loaded by import() so that esbuild wraps them (bench/workers/startup-wrapped.ts: zod then builds its whole namespace, locales included) **${fmt(floors.wrapped.median)} ms** median, ${fmt(floors.wrapped.min)} least (runs: ${floors.wrapped.runs.map((x) => fmt(x)).join(', ')})` : ''}.`,
      '',
    );
  }
  lines.push(
    `Bundle: ${kib(bundle.bytes)} KiB (esbuild's metafile of \`wrangler deploy --dry-run\`; \`npm run deploy:check -- --by-package\` prints the same). The ${bundle.packages.length} largest parts:`,
    '',
  );
  lines.push('| Package or src/ folder | KiB | share |', '| --- | ---: | ---: |');
  for (const p of bundle.packages) lines.push(`| ${p.name} | ${kib(p.bytes)} | ${fmt(100 * p.share, 1)}% |`);
  lines.push('');
  return lines;
}

const COLORS = ['#2563eb', '#16a34a', '#dc2626', '#9333ea', '#ea580c', '#0891b2', '#4b5563', '#ca8a04'];
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function chart(report) {
  const W = 960;
  const H = 440;
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, sans-serif" font-size="12">`];
  out.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  const last = report.results[report.results.length - 1];

  // Left: bars of req/s ÷ B1 per scenario at the largest size.
  const L = { x: 60, y: 50, w: 400, h: 260 };
  const bars = last.scenarios.map((s) => ({ name: s.name, value: ratio(s.rps, s.b1.rps) }));
  const maxR = Math.max(1.2, ...bars.map((b) => b.value || 0));
  const yR = (v) => L.y + L.h - (v / maxR) * L.h;
  out.push(`<text x="${L.x}" y="24" font-size="14" font-weight="bold">Throughput ÷ B1 (same run), ${esc(sizeLabel(last.size))} products</text>`);
  for (let v = 0; v <= maxR + 1e-9; v += maxR > 2.5 ? 0.5 : 0.25) {
    out.push(`<line x1="${L.x}" x2="${L.x + L.w}" y1="${yR(v)}" y2="${yR(v)}" stroke="#e5e7eb"/><text x="${L.x - 6}" y="${yR(v) + 4}" text-anchor="end">${v.toFixed(2)}</text>`);
  }
  const bw = L.w / Math.max(1, bars.length);
  bars.forEach((b, i) => {
    const x = L.x + i * bw + bw * 0.15;
    const v = b.value || 0;
    out.push(
      `<rect x="${x}" y="${yR(v)}" width="${bw * 0.7}" height="${L.y + L.h - yR(v)}" fill="${COLORS[i % COLORS.length]}"><title>${esc(b.name)}: ${v.toFixed(2)}</title></rect>`,
    );
    out.push(`<text x="${x + bw * 0.35}" y="${yR(v) - 4}" text-anchor="middle">${v.toFixed(2)}</text>`);
    out.push(`<text transform="translate(${x + bw * 0.35},${L.y + L.h + 10}) rotate(35)" font-size="10">${esc(shortName(b.name))}</text>`);
  });
  out.push(`<line x1="${L.x}" x2="${L.x + L.w}" y1="${yR(1)}" y2="${yR(1)}" stroke="#111" stroke-dasharray="4 3"/><text x="${L.x + L.w + 4}" y="${yR(1) + 4}">B1</text>`);
  out.push(
    `<line x1="${L.x}" x2="${L.x + L.w}" y1="${yR(0.5)}" y2="${yR(0.5)}" stroke="#dc2626" stroke-dasharray="2 3"/><text x="${L.x + L.w + 4}" y="${yR(0.5) + 4}" fill="#dc2626">0.5</text>`,
  );

  // Right: p50 latency against catalogue size (log scale on x), one line per scenario.
  const R = { x: 560, y: 50, w: 260, h: 260 };
  const sizes = report.results.map((r) => r.size);
  const ids = last.scenarios.map((s) => s.id);
  const p50s = report.results.flatMap((r) => r.scenarios.map((s) => s.p50 || 0));
  const maxL = Math.max(1, ...p50s) * 1.1;
  const xS = (size) => (sizes.length === 1 ? R.x + R.w / 2 : R.x + (Math.log10(size / sizes[0]) / Math.log10(sizes[sizes.length - 1] / sizes[0])) * R.w);
  const yL = (v) => R.y + R.h - (v / maxL) * R.h;
  out.push(`<text x="${R.x - 40}" y="24" font-size="14" font-weight="bold">p50 latency (ms) against catalogue size</text>`);
  const step = niceStep(maxL);
  for (let v = 0; v <= maxL; v += step)
    out.push(
      `<line x1="${R.x}" x2="${R.x + R.w}" y1="${yL(v)}" y2="${yL(v)}" stroke="#e5e7eb"/><text x="${R.x - 6}" y="${yL(v) + 4}" text-anchor="end">${fmt(v, step < 1 ? 1 : 0)}</text>`,
    );
  for (const size of sizes) out.push(`<text x="${xS(size)}" y="${R.y + R.h + 16}" text-anchor="middle">${sizeLabel(size)}</text>`);
  ids.forEach((id, i) => {
    const points = report.results.map((r) => [r.size, r.scenarios.find((s) => s.id === id)?.p50]).filter(([, v]) => v !== undefined);
    const color = COLORS[i % COLORS.length];
    out.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${points.map(([s, v]) => `${xS(s).toFixed(1)},${yL(v).toFixed(1)}`).join(' ')}"/>`);
    for (const [s, v] of points)
      out.push(`<circle cx="${xS(s).toFixed(1)}" cy="${yL(v).toFixed(1)}" r="3" fill="${color}"><title>${esc(id)} at ${sizeLabel(s)}: ${v} ms</title></circle>`);
    out.push(
      `<rect x="${R.x + R.w + 16}" y="${R.y + i * 18}" width="10" height="10" fill="${color}"/><text x="${R.x + R.w + 30}" y="${R.y + i * 18 + 9}" font-size="11">${esc(shortName(last.scenarios[i].name))}</text>`,
    );
  });
  out.push(`<text x="${R.x + R.w / 2}" y="${R.y + R.h + 34}" text-anchor="middle">products (log scale)</text>`);
  out.push(
    `<text x="20" y="${H - 14}" fill="#6b7280" font-size="11">${esc(`npm run bench${report.options.quick ? ' -- --quick' : ''}, ${report.date.slice(0, 10)}: ${report.machine.cores} cores ${report.machine.cpu}, Node ${report.machine.node}, workerd ${report.machine.workerd}, ${report.options.connections} connections`)}</text>`,
  );
  out.push('</svg>', '');
  return out.join('\n');
}

function niceStep(max) {
  const raw = max / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (raw <= m * mag) return m * mag;
  return 10 * mag;
}

function shortName(name) {
  return name
    .replace('First page', 'Page 1')
    .replace(' (admin API key)', ' (key)')
    .replace(' (admin key, guest)', '')
    .replace('fields=id,name,variants(id,price)', 'fields=…')
    .replace('One product by id', 'By id');
}
