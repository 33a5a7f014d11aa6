import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { createServer, type AddressInfo } from 'node:net';
import { defineConfig } from 'vitest/config';

const migrations = await readD1Migrations(new URL('./migrations', import.meta.url).pathname);

/** A port for the loopback fake of the Stripe API (test/payments/stripe-fake.global-setup.mjs), known before the Worker's bindings are. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
process.env.STRIPE_FAKE_PORT ??= String(await freePort());

/**
 * Dependencies pre-bundled by Vite, one module each instead of hundreds (Stripe alone is 218 files):
 * a runtime's first import of the Worker fell from about 12 s to 7.5 s with them. Every package
 * specifier src/ imports is listed; one left out still works, unbundled.
 */
const BUNDLED_DEPENDENCIES = [
  ...['stripe', 'zod', 'marked', 'xss', 'drizzle-zod', '@hono/zod-openapi', '@hono/swagger-ui'],
  ...[
    'drizzle-orm',
    'drizzle-orm/sqlite-core',
    'drizzle-orm/sqlite-core/query-builders/query',
    'drizzle-orm/batch',
    'drizzle-orm/runnable-query',
    'drizzle-orm/d1',
    'drizzle-orm/d1/session',
  ],
  ...[
    'hono',
    'hono/factory',
    'hono/jsx',
    'hono/jsx/jsx-runtime',
    'hono/jsx/jsx-dev-runtime',
    'hono/cookie',
    'hono/timing',
    'hono/route',
    'hono/request-id',
    'hono/jwt',
    'hono/http-exception',
    'hono/body-limit',
  ],
  ...['hono/utils/url', 'hono/utils/http-status', 'hono/utils/cookie'],
];

/**
 * A project running inside workerd with the Worker's real bindings, plus test-only settings.
 * `isolate`: whether each test file gets a runtime of its own. Without (the workers project), a pool
 * worker keeps its runtime and the Worker's module graph for all the files it runs, and
 * test/fresh-runtime.ts wipes the storage and the isolate's kept state before each file: importing
 * the Worker into a new runtime cost 5-7 s a file on two cores, more than most files' tests.
 */
function workersProject(name: string, include: string[], exclude: string[], settings: Record<string, string>, globalSetup: string[] = [], isolate = true) {
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            MAX_BODY_BYTES: '65536',
            // Images up to 256 KiB, so the oversize upload test sends little.
            MEDIA_MAX_BYTES: '262144',
            JWT_SECRET: 'test-jwt-secret-not-for-production',
            ENVIRONMENT: 'development',
            // Tests run their webhook receivers on loopback, and retry quickly.
            WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
            WEBHOOK_RETRY_BASE_SECONDS: '1',
            NOTIFICATIONS_RETRY_BASE_SECONDS: '1',
            // The stripe provider, against the loopback fake of Stripe's API.
            STRIPE_SECRET_KEY: 'sk_test_store_api_tests',
            STRIPE_WEBHOOK_SECRET: 'whsec_store_api_tests',
            STRIPE_API_BASE: `http://127.0.0.1:${process.env.STRIPE_FAKE_PORT}`,
            ...settings,
          },
        },
      }),
    ],
    // Generous per-test time: on a loaded two-core machine a test that writes a few hundred rows can pass 5 s.
    test: {
      name,
      include,
      exclude,
      isolate,
      deps: { optimizer: { ssr: { enabled: true, include: BUNDLED_DEPENDENCIES } } },
      setupFiles: ['./test/fresh-runtime.ts'],
      globalSetup,
      testTimeout: 20_000,
      // A file's beforeAll (an admin key, a signed-in panel user) runs while the other files start: as generous.
      hookTimeout: 20_000,
    },
  };
}

export default defineConfig({
  test: {
    // Test files wait on workerd and D1 more than they compute: three at once beat the one-per-spare-core
    // default by about a third on a two-core machine (65 s -> 45 s for the suite).
    maxWorkers: 3,
    projects: [
      // Limits high enough that no functional test is ever rate limited (anonymous test requests share one IP bucket).
      workersProject(
        'workers',
        ['test/**/*.test.ts'],
        ['test/**/*.node.test.ts', 'test/rate-limit/**'],
        {
          RATE_LIMIT_AUTHENTICATED: '1000000',
          RATE_LIMIT_ANONYMOUS: '1000000',
          // Leases (src/rate-limit/leases.ts) give back unused hits after a second instead of ten, so
          // tests that wait for a request's background work (waitOnExecutionContext) do not wait long.
          RATE_LIMIT_LEASE_SECONDS: '1',
          // Kept catalogue answers are tried after 1 ms, so every test that reads the catalogue twice goes through them.
          CATALOGUE_CACHE_QUIET_MS: '1',
          // One origin from the environment, beside those the CORS tests put in the settings.
          CORS_ORIGINS: 'https://env-shop.test',
        },
        [
          './test/webhooks/receiver.global-setup.mjs', // a loopback webhook receiver (test/webhooks/receiver-setup.ts)
          './test/payments/stripe-fake.global-setup.mjs', // a loopback fake of Stripe's API (test/payments/stripe-fake.ts)
        ],
        false,
      ),
      // Small limits so the limiter's edges can be reached in a few requests.
      workersProject('rate-limit', ['test/rate-limit/**/*.test.ts'], [], { RATE_LIMIT_AUTHENTICATED: '10', RATE_LIMIT_ANONYMOUS: '5' }),
      {
        // Building and validating the whole OpenAPI document takes seconds; more on a busy machine.
        test: { name: 'node', include: ['test/**/*.node.test.ts'], environment: 'node', testTimeout: 30_000 },
      },
    ],
  },
});
