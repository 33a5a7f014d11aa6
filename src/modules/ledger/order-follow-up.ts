import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type OrderRow, type OrderStatus, orders } from '../../db/schema';
import { violatedGuard } from '../../lib/db-guards';
import { statusChangeStatements } from './order-status';

/**
 * Moves an order on after a write whose own batch could not know it should: two concurrent partial
 * payments (or refunds, or deliveries) each read the order before the other's write, so neither
 * saw it complete. Re-reads the order and, when `due` holds and it is still in `from`, applies the
 * status change; a racing request that got there first trips the transition guard, which is fine.
 */
export async function followUpOrderStatus(
  db: Database,
  orderId: string,
  from: readonly OrderStatus[],
  to: OrderStatus,
  due: (order: OrderRow) => boolean | Promise<boolean>,
  change: { actor: string; note: string },
  /** What else the move writes, in its batch (the gift cards a paid order bought). */
  alongside: (order: OrderRow) => Promise<unknown[]> = async () => [],
): Promise<void> {
  const order = await db.query.orders.findFirst({ where: eq(orders.id, orderId) });
  if (!order || !from.includes(order.status) || !(await due(order))) return;
  try {
    await db.batch([...statusChangeStatements(db, order, to, change), ...(await alongside(order))] as never);
  } catch (error) {
    if (violatedGuard(error) !== 'order_transition') throw error;
  }
}
