import { reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterAll } from 'vitest';
import { forgetIsolateState } from '../src/lib/isolate-state';
import { migratedDatabase } from './migrated-database';
import { settleBackgroundWork } from './worker-fetch';

// A worker of the test pool keeps one runtime for many test files (vitest.config.ts), so each file
// starts from nothing: every Durable Object's storage (D1's included) deleted, everything the
// isolate keeps between requests dropped, the migrated database made again (test/migrated-database.ts).
await reset();
forgetIsolateState();
await migratedDatabase(env.DB, env.TEST_MIGRATIONS);

// And ends with its requests' background work done, so none of it lands in the next file's database.
afterAll(settleBackgroundWork);
