// The startup floor of the same packages as startup-stack.ts, bundled as the store's are: the
// store's routers are reached by import() (src/mounts.ts), so esbuild wraps each module they reach
// (zod among them) in an init function, and evaluating zod's then builds its whole namespace, all
// 48 locales included, where a static-only bundle tree-shakes them (bench/lib/cold-start.mjs).
import { OpenAPIHono } from '@hono/zod-openapi';
import { drizzle } from 'drizzle-orm/d1';
import * as schema from '../../src/db/schema';

const app = new OpenAPIHono().get('/', async (c) => {
  const { routes } = await import('./startup-wrapped-routes');
  return c.text(`${Object.keys(schema).length} tables, ${typeof drizzle}, ${typeof routes}`);
});
export default app;
