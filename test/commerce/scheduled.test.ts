import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { idempotencyKeys } from '../../src/db/schema';
import { HOURLY_CRON, runScheduled } from '../../src/scheduled';
import { db } from '../helpers';

it('drops idempotency keys older than 24 hours and keeps newer ones', async () => {
  const now = new Date();
  const hoursAgo = (h: number) => new Date(now.getTime() - h * 3600_000).toISOString();
  const row = (key: string, createdAt: string) => ({ scope: 'test', key, method: 'POST', path: '/api/orders', requestHash: 'h', createdAt });
  await db()
    .insert(idempotencyKeys)
    .values([row('old', hoursAgo(25)), row('fresh', hoursAgo(23))]);
  expect(await runScheduled(env, HOURLY_CRON, now)).toEqual({ idempotencyKeysDeleted: 1, mediaFilesDeleted: 0, eventsPruned: expect.any(Number) });
  const left = await db().select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(eq(idempotencyKeys.scope, 'test'));
  expect(left.map((r) => r.key)).toEqual(['fresh']);
});
