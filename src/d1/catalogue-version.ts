import type { Database } from '../db/client';
import { interceptD1 } from './intercept';

/**
 * The catalogue version (catalogue_version, changed by triggers on every catalogue or content
 * write) as src/middleware/catalogue-cache.ts reads it: alone, or riding in the handler's first batch.
 */
const VERSION_SQL = 'SELECT version FROM catalogue_version WHERE id = 1';
const versionOf = (result: D1Result | undefined) => (result?.results[0] as { version?: number } | undefined)?.version ?? 0;

/**
 * The version alone, in a batch of its own: a batch (not a lone statement) so that a cached API
 * key's check rides along (src/d1/verified.ts) and X-D1-Rows-Read counts it.
 */
export async function readVersion(db: Database): Promise<number> {
  const [result] = await db.$client.batch([db.$client.prepare(VERSION_SQL)]);
  return versionOf(result);
}

/** The request's version rider (a layer of src/d1/request-db.ts): `over(d1)` is its binding. */
export interface VersionRider {
  over(d1: D1Database): D1Database;
}

/**
 * Reads the catalogue version before any of the handler's rows, handing it to `take`: riding as
 * the first statement of the handler's first batch (no extra round trip, and the tag names exactly
 * the rows read), or alone just before a first lone statement (one round trip more; the hot reads
 * batch). Every later statement waits for it, so no row is older than the version.
 */
export function versionRider(take: (version: number) => void): VersionRider {
  /** The version's read, once started; what comes after waits for it. It never rejects: a failed one leaves the answer untagged. */
  let versionRead: Promise<void> | undefined;
  const untagged = () => undefined;
  return {
    over: (d1) =>
      interceptD1(d1, {
        async lone({ proceed }) {
          versionRead ??= d1
            .prepare(VERSION_SQL)
            .all()
            .then((result) => take(versionOf(result)), untagged);
          await versionRead;
          return proceed();
        },
        async batch(statements, proceed) {
          const real = statements.map((s) => s.statement);
          if (versionRead) {
            await versionRead;
            return proceed(real);
          }
          const sent = proceed([d1.prepare(VERSION_SQL), ...real]);
          versionRead = sent.then(([version]) => take(versionOf(version)), untagged);
          const [, ...results] = await sent;
          await versionRead;
          return results;
        },
      }),
  };
}
