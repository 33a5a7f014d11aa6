import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { api } from '../helpers';

// A broken database (its table dropped in this file's isolated storage) is the realistic way an
// unexpected error reaches the edge: the client must get a 500 envelope with nothing internal in it.
it('answers an unexpected failure with 500 INTERNAL_ERROR and no internals', async () => {
  await env.DB.exec('DROP TABLE brands');
  const res = await api('/api/brands', { headers: { 'X-Request-Id': 'trace-me-500' } });
  expect(res.status).toBe(500);
  expect(res.body.success).toBe(false);
  expect(res.body.error.code).toBe('INTERNAL_ERROR');
  expect(res.body.error.details).toEqual([]);
  expect(res.body.error.message).toContain('trace-me-500');
  const text = JSON.stringify(res.body);
  for (const leak of ['brands', 'SQLITE', 'select', 'D1_', 'stack', 'at ']) expect(text).not.toContain(leak);
  expect(res.headers.get('X-Request-Id')).toBe('trace-me-500');
});
