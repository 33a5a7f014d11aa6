// Cold start figures for `npm run bench` (its --cold option and the full run):
//   fresh isolate  the time from a new Miniflare (a new workerd, a new isolate) with the built bundle
//                  to its first 200 answer, in turn for B0's tiny Worker (the runtime's own start),
//                  B0 with the store's bindings (D1, Durable Objects, queues: their own start) and
//                  the store: the store's less the bound B0's is what our bundle costs;
//   startup CPU    `wrangler check startup` (alpha) on the same bundle: the CPU its top-level
//                  evaluation sampled, median of a few runs, with the functions and packages that took it;
//   bundle         bytes of the bundle by package (esbuild's metafile).

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Miniflare } from 'miniflare';
import { bytesByPackage } from './bundle-by-package.mjs';
import { inclusiveTimes, linePackages, readProfile, selfTimeByPackage } from './cpuprofile.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs), runs: xs });

/** One fresh start: ms to `ready` (workerd up, the Worker evaluated), then to the first 200 of `urlPath`. */
async function freshStart(worker, urlPath, options = {}) {
  const t0 = performance.now();
  const mf = new Miniflare({ ...options, workers: [{ ...worker, unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }] }] });
  try {
    await mf.ready;
    const ready = performance.now();
    const origin = (await mf.unsafeGetDirectURL(worker.name)).origin;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await fetch(origin + urlPath).catch(() => undefined);
      await res?.arrayBuffer();
      if (res?.status === 200) break;
      if (Date.now() > deadline) throw new Error(`cold start: ${worker.name} ${urlPath} answered ${res?.status ?? 'nothing'} for 30 s`);
    }
    const answered = performance.now();
    return { readyMs: ready - t0, firstAnswerMs: answered - ready, totalMs: answered - t0 };
  } finally {
    await mf.dispose();
  }
}

/**
 * `runs` fresh starts of each Worker ({ b0, bound, store }), in turn so the machine's drift falls on
 * all alike. The store answers `urlPath` (the health check) and, as `catalogue`, a storefront's first
 * page (`/api/products`, over the migrated, empty database in `catalogueD1`): the store builds only
 * the routers a request needs (src/mounts.ts), so the two first answers differ.
 */
export async function freshIsolates(workers, { runs = 5, urlPath = '/api/health', catalogueD1 } = {}) {
  const starts = { ...workers, ...(catalogueD1 ? { catalogue: workers.store } : {}) };
  const samples = Object.fromEntries(Object.keys(starts).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) {
    for (const [k, worker] of Object.entries(starts)) {
      const start = k === 'catalogue' ? freshStart(worker, CATALOGUE_PATH, { d1Persist: catalogueD1 }) : freshStart(worker, k === 'store' ? urlPath : '/');
      samples[k].push(await start);
    }
  }
  const figures = (list) => Object.fromEntries(['readyMs', 'firstAnswerMs', 'totalMs'].map((k) => [k, summary(list.map((s) => s[k]))]));
  return { runs, path: urlPath, ...(catalogueD1 ? { cataloguePath: CATALOGUE_PATH } : {}), ...Object.fromEntries(Object.entries(samples).map(([k, list]) => [k, figures(list)])) };
}

const CATALOGUE_PATH = '/api/products';

/**
 * `wrangler check startup --worker <bundle>` `runs` times for the store and each of `floors` (name ->
 * bundle), in turn so the machine's drift falls on all alike (its samples are about 1 ms apart, and
 * one run may read half or twice another). Each profile is kept in `tmp`; the store's run with the
 * median busy time gives the top functions and packages.
 */
export function startupProfiles({ wranglerJs, root, env, bundle, bundleJs, tmp, floors = {}, runs = 7 }) {
  const profiles = [];
  const floorMs = Object.fromEntries(Object.keys(floors).map((name) => [name, []]));
  const profileOf = (target, file) => {
    execFileSync(process.execPath, [wranglerJs, 'check', 'startup', '--worker', target, '--outfile', file], { cwd: root, env, stdio: 'pipe' });
    const profile = readProfile(file);
    return { file, profile, ...inclusiveTimes(profile, 10) };
  };
  try {
    for (let i = 0; i < runs; i++) {
      profiles.push(profileOf(bundle, path.join(tmp, `startup-${i + 1}.cpuprofile`)));
      for (const [name, floor] of Object.entries(floors)) floorMs[name].push(profileOf(floor, path.join(tmp, `startup-${name}-${i + 1}.cpuprofile`)).busyMs);
    }
  } catch (error) {
    return {
      error: String(error.stderr ?? error.message)
        .trim()
        .split('\n')
        .slice(-3)
        .join(' '),
    };
  }
  const mid = [...profiles].sort((a, b) => a.busyMs - b.busyMs)[Math.floor(profiles.length / 2)];
  const packages = linePackages(bundleJs);
  return {
    busyMs: summary(profiles.map((p) => p.busyMs)),
    floors: Object.fromEntries(Object.entries(floorMs).map(([name, ms]) => [name, summary(ms)])),
    profile: path.relative(root, mid.file),
    functions: mid.functions.map((f) => ({ ...f, package: packages[f.line] })),
    packages: selfTimeByPackage(mid.profile, bundleJs, 10),
  };
}

/**
 * The bundles of the startup floors (bench/workers/startup-*.ts), built by wrangler as the store is:
 * a bare Hono app (the runtime's and the instrument's own cost), the packages every request of
 * the store loads before any module's routes, and the same packages wrapped as the store's lazy
 * routers make esbuild wrap them.
 */
export function startupFloorBundles({ wranglerJs, root, env, tmp, compatibility }) {
  const bundles = {};
  for (const name of ['hono', 'stack', 'wrapped']) {
    const toml = path.join(tmp, `startup-${name}.toml`);
    const main = path.join(root, 'bench', 'workers', `startup-${name}.ts`);
    writeFileSync(
      toml,
      `name = "startup-${name}"\nmain = ${JSON.stringify(main)}\ncompatibility_date = "${compatibility.date}"\ncompatibility_flags = ${JSON.stringify(compatibility.flags)}\n`,
    );
    bundles[name] = path.join(tmp, `startup-${name}.bundle`);
    execFileSync(process.execPath, [wranglerJs, 'deploy', '--dry-run', '--config', toml, '--outfile', bundles[name]], { cwd: root, env, stdio: 'pipe' });
  }
  return bundles;
}

/** All three figures; `log` is told each as it comes. */
export async function coldStart({ workers, catalogueD1, compatibility, buildDir, metafile, workerBundle, tmp, wranglerJs, root, env, log, runs = 5 }) {
  const fresh = await freshIsolates(workers, { runs, catalogueD1 });
  const ms = (f) => `${f.totalMs.median.toFixed(0)} ms (max ${f.totalMs.max.toFixed(0)}; ready ${f.readyMs.median.toFixed(0)}, first answer ${f.firstAnswerMs.median.toFixed(0)})`;
  log(`cold start: fresh isolate to first answer, median of ${runs}: store ${ms(fresh.store)}, B0 with the store's bindings ${ms(fresh.bound)}, B0 ${ms(fresh.b0)}`);
  if (fresh.catalogue) log(`cold start: the store's first answer to GET ${fresh.cataloguePath}: ${ms(fresh.catalogue)}`);
  const floorBundles = startupFloorBundles({ wranglerJs, root, env, tmp, compatibility });
  const startup = startupProfiles({ wranglerJs, root, env, bundle: workerBundle, bundleJs: path.join(buildDir, 'index.js'), tmp, floors: floorBundles });
  if (startup.error) log(`cold start: wrangler check startup failed: ${startup.error}`);
  else {
    log(
      `cold start: wrangler check startup, median of ${startup.busyMs.runs.length}: ${startup.busyMs.median.toFixed(0)} ms of sampled CPU, least ${startup.busyMs.min.toFixed(0)} (${startup.busyMs.runs.map((x) => x.toFixed(0)).join(', ')}); ${startup.profile}`,
    );
    for (const f of startup.functions)
      console.log(`  ${(100 * f.share).toFixed(1).padStart(5)}%  ${f.ms.toFixed(1).padStart(6)} ms  ${f.name}${f.package ? ` (${f.package})` : ''}`);
    console.log('  self time by package:');
    for (const p of startup.packages) console.log(`  ${(100 * p.share).toFixed(1).padStart(5)}%  ${p.ms.toFixed(1).padStart(6)} ms  ${p.name}`);
  }
  if (!startup.error) {
    const { hono, stack, wrapped } = startup.floors;
    log(
      `cold start: startup floors, same runs (median, least): a bare Hono app ${hono.median.toFixed(0)}, ${hono.min.toFixed(0)} ms; the packages every request loads ${stack.median.toFixed(0)}, ${stack.min.toFixed(0)} ms; the same, wrapped as lazy routers make them ${wrapped.median.toFixed(0)}, ${wrapped.min.toFixed(0)} ms`,
    );
  }
  const { bytes, packages } = bytesByPackage(metafile);
  log(
    `cold start: bundle ${(bytes / 1024).toFixed(0)} KiB; largest: ${packages
      .slice(0, 6)
      .map((p) => `${p.name} ${(p.bytes / 1024).toFixed(0)} KiB`)
      .join(', ')}`,
  );
  return { fresh, startup, bundle: { bytes, packages: packages.slice(0, 15) } };
}
