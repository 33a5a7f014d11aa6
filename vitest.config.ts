import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

const migrations = await readD1Migrations(new URL('./migrations', import.meta.url).pathname);

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: { bindings: { TEST_MIGRATIONS: migrations, MAX_BODY_BYTES: '65536' } },
          }),
        ],
        test: {
          name: 'workers',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.node.test.ts'],
          setupFiles: ['./test/apply-migrations.ts'],
        },
      },
      {
        test: { name: 'node', include: ['test/**/*.node.test.ts'], environment: 'node' },
      },
    ],
  },
});
