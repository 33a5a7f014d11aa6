import type { Context } from 'hono';
import { createDb, type Database } from '../db/client';
import type { AppEnv, Variables } from '../env';
import { auditedD1 } from './audit';
import { measuredD1 } from './metrics';

/**
 * The database a request's handlers reach as `c.var.db`, built here and nowhere else: the request's
 * D1 session (src/d1/session.ts) under these layers, from the bottom up, each present only once a
 * middleware has set its rider in `c.var` with ride():
 *
 * 1. `auditActor` (src/d1/audit.ts): every write of an audited principal carries the audit context
 *    in its own batch. Lowest, so the context brackets whatever the layers above add to a batch.
 * 2. `d1Metrics` (src/d1/metrics.ts, development only): counts round trips and rows read, including
 *    what the layers above add (the check, the version).
 * 3. `credentialCheck` (src/d1/verified.ts): a key taken from this isolate's cache is checked in
 *    the request's first batch; below the version, so the version's own read carries the check.
 * 4. `catalogueVersion` (src/d1/catalogue-version.ts): a catalogue read's version rides first in
 *    the handler's first batch, so it names exactly the rows read.
 *
 * The order is this list's, whatever order the middlewares run in. Each layer is built once, when
 * its rider is set (one wrapper and one Drizzle database, as each middleware built before); a rider
 * set below layers already built rebuilds those above it, which keep their state (it lives in
 * the rider). A middleware never wraps `c.var.db` itself.
 */
const LAYERS = ['auditActor', 'd1Metrics', 'credentialCheck', 'catalogueVersion'] as const;
export type Rider = (typeof LAYERS)[number];

const WRAP: { [K in Rider]: (d1: D1Database, rider: NonNullable<Variables[K]>) => D1Database } = {
  auditActor: auditedD1,
  d1Metrics: measuredD1,
  credentialCheck: (d1, check) => check.over(d1),
  catalogueVersion: (d1, version) => version.over(d1),
};

interface Stack {
  session: D1Database;
  /** Per entry of LAYERS: its rider and the binding it built, or undefined while no rider is set. */
  built: ({ rider: unknown; d1: D1Database } | undefined)[];
  db?: Database;
}

const stacks = new WeakMap<Context<AppEnv>, Stack>();

/** Builds the request's database over its D1 session, with the riders set so far, as `c.var.db` (src/middleware/services.ts). */
export function requestDb(c: Context<AppEnv>, session: D1Database): Database {
  const stack: Stack = { session, built: [] };
  stacks.set(c, stack);
  return restack(c, stack);
}

/** Sets a rider of the request's database; once the database exists, `c.var.db` has the rider in its place. */
export function ride<K extends Rider>(c: Context<AppEnv>, name: K, rider: NonNullable<Variables[K]>): void {
  c.set(name, rider as Variables[K]);
  const stack = stacks.get(c);
  if (stack) restack(c, stack);
}

function restack(c: Context<AppEnv>, stack: Stack): Database {
  let d1 = stack.session;
  let changed = stack.db === undefined;
  LAYERS.forEach((name, i) => {
    const rider = c.get(name);
    const wrap = WRAP[name] as (d1: D1Database, rider: unknown) => D1Database;
    if (changed || stack.built[i]?.rider !== rider) {
      changed = true;
      stack.built[i] = rider === undefined ? undefined : { rider, d1: wrap(d1, rider) };
    }
    d1 = stack.built[i]?.d1 ?? d1;
  });
  if (changed) stack.db = createDb(d1);
  c.set('db', stack.db!);
  return stack.db!;
}
