// The startup floor of any Worker on this stack: a bare Hono app (bench/lib/cold-start.mjs builds it
// with wrangler and profiles its startup beside the store's).
import { Hono } from 'hono';

export default new Hono().get('/', (c) => c.text('ok'));
