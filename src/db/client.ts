import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema';

/** Built per request from the binding: bindings exist only on `env`, never at module level. */
export function createDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

export type Database = ReturnType<typeof createDb>;
