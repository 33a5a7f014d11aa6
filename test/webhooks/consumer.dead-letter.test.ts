import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { webhookDeliveries } from '../../src/db/schema';
import { ID_PREFIX, newId } from '../../src/lib/ids';
import worker from '../../src/index';
import { db } from '../helpers';
import { insertEndpoint, insertEvent, openChannel, runQueue } from './receiver-setup';

// The dead-letter consumer, and the handler's dispatch on batch.queue.

async function insertDelivery(values: Partial<typeof webhookDeliveries.$inferInsert> = {}) {
  const endpoint = await insertEndpoint({ url: (await openChannel()).url });
  const event = await insertEvent('order.placed', { orderId: 'ord_dlq' });
  const [row] = await db()
    .insert(webhookDeliveries)
    .values({ id: newId(ID_PREFIX.webhookDelivery), endpointId: endpoint.id, eventId: event.id, eventType: event.type, ...values })
    .returning();
  return row!;
}
const deliveryRow = async (id: string) => (await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]!;

describe('dead letters (webhook-deliveries-dlq)', () => {
  it('marks a delivery whose retries ran out as failed, keeping its last error, and acks', async () => {
    const delivery = await insertDelivery({ status: 'retrying', attempts: 21, lastStatusCode: 503, lastError: 'HTTP 503', nextRetryAt: new Date().toISOString() });
    const run = await runQueue('webhook-deliveries-dlq', [{ body: { deliveryId: delivery.id }, attempts: 1 }]);
    expect(run.acked()).toBe(true);
    expect(await deliveryRow(delivery.id)).toMatchObject({ status: 'failed', nextRetryAt: null, lastError: 'HTTP 503', lastStatusCode: 503, attempts: 21 });
  });

  it('leaves a delivery that succeeded meanwhile alone, and acks unknown or malformed messages', async () => {
    const delivered = await insertDelivery({ status: 'succeeded', attempts: 3, deliveredAt: new Date().toISOString() });
    const run = await runQueue<unknown>('webhook-deliveries-dlq', [{ body: { deliveryId: delivered.id } }, { body: { deliveryId: 'whd_missing' } }, { body: 'garbage' }]);
    expect(run.result.explicitAcks).toHaveLength(3);
    expect((await deliveryRow(delivered.id)).status).toBe('succeeded');
  });
});

describe('handleQueue dispatch', () => {
  it('routes each queue to its consumer through the Worker entry', async () => {
    const delivery = await insertDelivery({ status: 'retrying', lastError: 'HTTP 500' });
    const batch = createMessageBatch('webhook-deliveries-dlq', [{ id: 'm1', timestamp: new Date(), attempts: 1, body: { deliveryId: delivery.id } }]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(['m1']);
    expect((await deliveryRow(delivery.id)).status).toBe('failed');
  });

  it('retries a whole batch from a queue it does not know', async () => {
    const run = await runQueue('some-other-queue', [{ body: { x: 1 } }, { body: { x: 2 } }]);
    expect(run.result.retryBatch.retry).toBe(true);
    expect(run.result.explicitAcks).toEqual([]);
  });
});
