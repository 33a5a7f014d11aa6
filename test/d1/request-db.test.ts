import { env } from 'cloudflare:workers';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { versionRider } from '../../src/d1/catalogue-version';
import type { D1Metrics } from '../../src/d1/metrics';
import { requestDb, ride } from '../../src/d1/request-db';
import type { AppEnv } from '../../src/env';

// The request's database (src/d1/request-db.ts) stacks its layers in one fixed order, whatever
// order the middlewares set their riders in: here the D1 metrics sit below the catalogue version,
// so they count the version's row, and the version rides in the handler's batch (one round trip).

/** The order of the steps: building the database (`db`, as services() does) and setting two riders. */
type Order = ('db' | 'metrics' | 'version')[];

async function run(order: Order) {
  const metrics: D1Metrics = { rowsRead: 0, roundTrips: 0, unknown: 0 };
  const versions: number[] = [];
  const dbs = new Set<unknown>();
  const app = new Hono<AppEnv>();
  app.get('/', async (c) => {
    const version = versionRider((v) => versions.push(v));
    const steps = {
      db: () => requestDb(c, env.DB),
      metrics: () => ride(c, 'd1Metrics', metrics),
      version: () => ride(c, 'catalogueVersion', version),
    };
    for (const step of order) {
      steps[step]();
      if (c.var.db) dbs.add(c.var.db);
    }
    const [row] = await c.var.db.$client.batch([c.var.db.$client.prepare('SELECT 7 AS seven')]);
    return c.json({ seven: (row!.results[0] as { seven: number }).seven });
  });
  app.onError((error, c) => c.json({ error: String(error) }, 500));
  const res = await app.request('/', {}, env);
  return { body: await res.json(), metrics, versions, dbs: dbs.size };
}

describe('requestDb', () => {
  it('stacks the metrics below the catalogue version in every order the riders come in', async () => {
    const results = await Promise.all(
      (
        [
          ['version', 'metrics', 'db'],
          ['db', 'version', 'metrics'],
          ['db', 'metrics', 'version'],
        ] as Order[]
      ).map(run),
    );
    for (const { body, metrics, versions } of results) {
      expect(body).toEqual({ seven: 7 }); // the version's row is not handed to the handler
      expect(versions).toHaveLength(1);
      expect(metrics.roundTrips).toBe(1); // the version rode in the handler's batch
      expect(metrics.rowsRead).toBeGreaterThanOrEqual(1); // and the metrics, below it, counted its row
    }
  });

  it('builds one database per rider set after it, and none more for riders set before it', async () => {
    expect((await run(['version', 'metrics', 'db'])).dbs).toBe(1);
    expect((await run(['db', 'metrics', 'version'])).dbs).toBe(3);
  });
});
