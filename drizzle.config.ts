import { defineConfig } from 'drizzle-kit';

// Migrations are generated from src/db/schema/ (index.ts re-exports every domain file) and applied by `wrangler d1 migrations apply`.
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema/index.ts',
  out: './migrations',
});
