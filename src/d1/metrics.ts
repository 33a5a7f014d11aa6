import { interceptD1 } from './intercept';

/** What a request (or a test) ran on D1: the sums behind the X-D1-* headers (src/middleware/d1-metrics.ts). */
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
