// The startup floor of the packages every request of the store loads before any module's routes:
// @hono/zod-openapi (with zod), Drizzle's D1 driver and the tables (bench/lib/cold-start.mjs).
import { OpenAPIHono } from '@hono/zod-openapi';
import { drizzle } from 'drizzle-orm/d1';
import * as schema from '../../src/db/schema';

const app = new OpenAPIHono().get('/', (c) => c.text(`${Object.keys(schema).length} tables, ${typeof drizzle}`));
export default app;
