import { createMiddleware } from 'hono/factory';
import { createDb } from '../db/client';
import type { AppEnv } from '../env';
import { interceptD1 } from '../d1/intercept';
import { config } from '../config';

/**
 * D1 cost of a request, in development only (ENVIRONMENT=development, as `npm run dev`, the tests
 * and the benchmark run): the handler's `c.var.db` is rebuilt over a D1 binding that sums
 * `meta.rows_read` of every statement it runs, and the response carries
 *
 * - `X-D1-Rows-Read`: rows D1 read (what it bills) over the request's statements;
 * - `X-D1-Round-Trips`: calls to D1 (a `batch()` is one, however many statements it holds);
 * - `X-D1-Rows-Read-Unknown`: statements D1 reports no `meta` for (`raw()` and `first()`, which
 *   drizzle uses for single non-batch selects), so whose rows are missing from the sum.
 *
 * Only `c.var.db` is measured: code that uses `c.env.DB` directly is not.
 */
export function d1Metrics() {
  return createMiddleware<AppEnv>(async function d1Metrics(c, next) {
    if (config(c.env).ENVIRONMENT !== 'development') return next();
    const metrics = { rowsRead: 0, roundTrips: 0, unknown: 0 };
    // Over the binding services() built (audited), so what it adds to a batch is measured too.
    c.set('db', createDb(measuredD1(c.var.db.$client, metrics)));
    await next();
    c.header('X-D1-Rows-Read', String(metrics.rowsRead));
    c.header('X-D1-Round-Trips', String(metrics.roundTrips));
    c.header('X-D1-Session', c.var.sessionStart);
    if (metrics.unknown) c.header('X-D1-Rows-Read-Unknown', String(metrics.unknown));
  });
}

export interface D1Metrics {
  rowsRead: number;
  roundTrips: number;
  unknown: number;
}

type Meta = { meta?: { rows_read?: number } };

/** A D1 binding that counts what it runs into `metrics`. */
export function measuredD1(d1: D1Database, metrics: D1Metrics): D1Database {
  const add = (result: Meta) => {
    metrics.rowsRead += result?.meta?.rows_read ?? 0;
    return result;
  };
  return interceptD1(d1, {
    async lone({ method, proceed }) {
      metrics.roundTrips += 1;
      if (method === 'all' || method === 'run') return add((await proceed()) as Meta);
      // raw() and first() return no meta.
      metrics.unknown += 1;
      return proceed();
    },
    async batch(statements, proceed) {
      metrics.roundTrips += 1;
      const results = await proceed(statements.map((s) => s.statement));
      for (const result of results) add(result as Meta);
      return results;
    },
  });
}
