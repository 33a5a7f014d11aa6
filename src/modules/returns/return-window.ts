import { eq, max } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type OrderRow, shipments, storeSettings } from '../../db/schema';
import { STORE_ID } from '../settings';

const DAY_MS = 86_400_000;

/** What a customer's return window counts from: the last delivery, else the last shipping, else the order's placement. */
export type WindowBasis = 'delivered' | 'shipped' | 'placed';

export interface ReturnWindow {
  days: number;
  basis: WindowBasis;
  opensAt: string;
  closesAt: string;
}

/**
 * The window in which the order's customer may ask for a return (docs/returns.md): the store's
 * `returnWindowDays`, counted from when the order was last delivered (the latest `deliveredAt` of its
 * shipments), or, when nothing was delivered yet, last shipped, or else placed. Staff are not bound by it.
 */
export async function returnWindow(db: Database, order: Pick<OrderRow, 'id' | 'createdAt'>): Promise<ReturnWindow> {
  const [[settings], [sent]] = await db.batch([
    db.select({ days: storeSettings.returnWindowDays }).from(storeSettings).where(eq(storeSettings.id, STORE_ID)).limit(1),
    db
      .select({ deliveredAt: max(shipments.deliveredAt), shippedAt: max(shipments.shippedAt) })
      .from(shipments)
      .where(eq(shipments.orderId, order.id)),
  ]);
  const days = settings?.days ?? 30;
  const [basis, opensAt]: [WindowBasis, string] = sent?.deliveredAt ? ['delivered', sent.deliveredAt] : sent?.shippedAt ? ['shipped', sent.shippedAt] : ['placed', order.createdAt];
  return { days, basis, opensAt, closesAt: new Date(Date.parse(opensAt) + days * DAY_MS).toISOString() };
}
