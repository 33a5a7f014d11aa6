import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { ride } from '../d1/request-db';
import type { D1Metrics } from '../d1/metrics';
import { config } from '../config';
import { answerHeader } from '../lib/answer-header';

/**
 * D1 cost of a request, in development only (ENVIRONMENT=development, as `npm run dev`, the tests
 * and the benchmark run): the request's database counts every statement it runs (src/d1/metrics.ts,
 * a layer of src/d1/request-db.ts), and the response carries
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
    const metrics: D1Metrics = { rowsRead: 0, roundTrips: 0, unknown: 0 };
    ride(c, 'd1Metrics', metrics);
    await next();
    answerHeader(c, 'X-D1-Rows-Read', String(metrics.rowsRead));
    answerHeader(c, 'X-D1-Round-Trips', String(metrics.roundTrips));
    answerHeader(c, 'X-D1-Session', c.var.sessionStart);
    if (metrics.unknown) answerHeader(c, 'X-D1-Rows-Read-Unknown', String(metrics.unknown));
  });
}
