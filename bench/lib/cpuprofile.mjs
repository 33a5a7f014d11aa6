// Reading a V8 .cpuprofile (Chrome DevTools' format): busy time, inclusive time per function, and
// self time per package of the bundle.

import { readFileSync } from 'node:fs';
import { packageOf } from './bundle-by-package.mjs';

const IDLE = '(idle)';
const NOT_CODE = new Set([IDLE, '(program)', '(garbage collector)', '(root)']);

/** Each sample with its duration: timeDeltas[i] is the time before sample i, so sample i lasted timeDeltas[i + 1] (the last one, none known). */
function timedSamples(profile) {
  return profile.samples.map((id, i) => ({ id, us: profile.timeDeltas[i + 1] ?? 0 }));
}

export function readProfile(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  return { profile, byId, parent };
}

const label = (node) => {
  const f = node.callFrame;
  return `${f.functionName || '(anonymous)'}${f.url ? ` ${f.url.split('/').pop()}:${f.lineNumber + 1}` : ''}`;
};

/**
 * Busy time (ms): every sample that is not (idle), after the first (whose delta is the wait before
 * the profiler's first tick), and the functions with the most inclusive time (a function counted
 * once per sample however often it is on the stack), each with its ms and share of busy.
 */
export function inclusiveTimes({ profile, byId, parent }, top = 10) {
  let busyUs = 0;
  const incl = new Map();
  for (const { id, us } of timedSamples(profile)) {
    const leaf = byId.get(id);
    if (leaf.callFrame.functionName === IDLE) continue;
    busyUs += us;
    const seen = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) {
      const node = byId.get(n);
      if (NOT_CODE.has(node.callFrame.functionName)) continue;
      const key = label(node);
      if (seen.has(key)) continue;
      seen.add(key);
      const entry = incl.get(key) ?? { us: 0, line: node.callFrame.lineNumber };
      entry.us += us;
      incl.set(key, entry);
    }
  }
  const busyMs = busyUs / 1000;
  const functions = [...incl]
    .sort((a, b) => b[1].us - a[1].us)
    .slice(0, top)
    .map(([name, { us, line }]) => ({ name, line, ms: us / 1000, share: us / busyUs }));
  return { busyMs, samples: profile.samples.length, functions };
}

/**
 * The package each line of an esbuild bundle comes from: esbuild opens every input's code with a
 * `// <input path>` comment (source maps do not serve: packages that ship their own maps resolve to
 * paths without their name).
 */
export function linePackages(bundleFile) {
  const packages = [];
  let current = '(bundle preamble)';
  for (const line of readFileSync(bundleFile, 'utf8').split('\n')) {
    const input = /^\/\/ ((?:node_modules|src)\/\S+)$/.exec(line)?.[1];
    if (input) current = packageOf(input);
    packages.push(current);
  }
  return packages;
}

/** Self time (ms) per package of the bundle the profile ran (bundle-by-package.mjs); frames outside it are the runtime's. */
export function selfTimeByPackage({ profile, byId }, bundleFile, top = 10) {
  const packages = linePackages(bundleFile);
  const bundleName = bundleFile.split('/').pop();
  const totals = new Map();
  let busyUs = 0;
  for (const { id, us } of timedSamples(profile)) {
    const f = byId.get(id).callFrame;
    if (f.functionName === IDLE) continue;
    busyUs += us;
    // The module's own evaluation has no line (-1): top-level statements of every package.
    const inBundle = f.url.endsWith(`/${bundleName}`);
    const name = inBundle ? (packages[f.lineNumber] ?? '(top level of the bundle)') : `(runtime: ${f.functionName || 'anonymous'})`;
    totals.set(name, (totals.get(name) ?? 0) + us);
  }
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({ name, ms: us / 1000, share: us / busyUs }));
}

/** The input file each line of an esbuild bundle comes from (its `// <input path>` comments). */
function lineInputs(bundleFile) {
  const inputs = [];
  let current = '(bundle preamble)';
  for (const line of readFileSync(bundleFile, 'utf8').split('\n')) {
    current = /^\/\/ ((?:node_modules|src)\/\S+)$/.exec(line)?.[1] ?? current;
    inputs.push(current);
  }
  return inputs;
}

/**
 * Self time charged to the stage of the request that caused it: each sample goes to the nearest
 * frame on its stack that is our own code (a `src/` file and function), so a library's or the
 * runtime's work (Drizzle building a query, the D1 client, JSON.stringify, a Response) counts
 * against the line of ours that asked for it. A sample with no frame of ours on its stack (work
 * resumed after an await inside a library, the garbage collector) goes to the leaf's package.
 * Samples are counted, not timed: under load a sample's gap to the next includes time the thread
 * waited for a core (or sat idle between slices), which is not the request's CPU.
 */
export function selfTimeByStage({ profile, byId, parent }, bundleFile, top = 25) {
  const inputs = lineInputs(bundleFile);
  const bundleName = bundleFile.split('/').pop();
  const inputOf = (f) => (f.url === bundleName || f.url.endsWith(`/${bundleName}`) ? inputs[f.lineNumber] : undefined);
  const totals = new Map();
  let busy = 0;
  for (const id of profile.samples) {
    const leaf = byId.get(id).callFrame;
    if (leaf.functionName === IDLE) continue;
    busy++;
    let stage;
    for (let n = id; n !== undefined && !stage; n = parent.get(n)) {
      const f = byId.get(n).callFrame;
      const input = inputOf(f);
      if (input?.startsWith('src/')) stage = `${input} ${f.functionName || '(anonymous)'}`;
    }
    const input = inputOf(leaf);
    stage ??= input ? packageOf(input) : leaf.url ? `(runtime: ${leaf.url.replace(/:.*$/, '')})` : leaf.functionName;
    totals.set(stage, (totals.get(stage) ?? 0) + 1);
  }
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, n]) => ({ name, share: n / busy }));
}
