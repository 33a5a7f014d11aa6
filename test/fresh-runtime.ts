import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';

// Each test file gets isolated storage; the setup file applies the migrations to it first.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
