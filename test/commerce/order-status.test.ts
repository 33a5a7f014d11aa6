import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, orders } from '../../src/db/schema';
import { violatedGuard } from '../../src/lib/db-guards';
import { newId } from '../../src/lib/ids';
import { assertTransition, canTransition, statusChangeStatements } from '../../src/modules/ledger/order-status';
import { db } from '../helpers';

async function orderIn(status: (typeof ORDER_STATUSES)[number]) {
  const [row] = await db()
    .insert(orders)
    .values({ id: newId('ord'), email: 'x@example.test', status, currency: 'USD', minorUnits: 2, subtotal: 100, total: 100 })
    .returning();
  return row!;
}

describe('the order state machine', () => {
  it('is the same in code and in the database trigger, for every pair of states', async () => {
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        const order = await orderIn(from);
        let dbAllows = true;
        try {
          await db().update(orders).set({ status: to }).where(eq(orders.id, order.id));
        } catch (error) {
          expect(violatedGuard(error)).toBe('order_transition');
          dbAllows = false;
        }
        expect(dbAllows, `${from} -> ${to}`).toBe(canTransition(from, to));
      }
    }
  });

  it('names the allowed moves when refusing one', () => {
    expect(() => assertTransition('cancelled', 'processing')).toThrow(/'cancelled' is final/);
    expect(() => assertTransition('pending', 'shipped')).toThrow(/can move to 'processing', 'cancelled'/);
  });

  it('writes history and events with the change, and a racing second change aborts whole', async () => {
    const order = await orderIn('pending');
    const first = statusChangeStatements(db(), order, 'cancelled', { actor: 'system' });
    const second = statusChangeStatements(db(), order, 'processing', { actor: 'system' });
    await db().batch(first as never);
    await expect(db().batch(second as never)).rejects.toSatisfy((e) => violatedGuard(e) === 'order_transition');
    const history = await db().query.orderStatusHistory.findMany({ where: (h, { eq }) => eq(h.orderId, order.id) });
    expect(history.map((h) => h.toStatus)).toEqual(['cancelled']);
    const kinds = (await db().query.events.findMany())
      .filter((e) => e.data.orderId === order.id)
      .map((e) => e.type)
      .sort();
    expect(kinds).toEqual(['order.cancelled', 'order.updated']);
  });
});
