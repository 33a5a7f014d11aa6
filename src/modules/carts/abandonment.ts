import { and, asc, eq, gte, isNotNull, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { createDb } from '../../db/client';
import { cartLines, cartRecoveries, carts, orders, users } from '../../db/schema';
import { insertWhere } from '../../lib/insert-where';
import { toMajor } from '../../lib/money';
import type { Bindings } from '../../env';
import { config } from '../../config';
import { outboxEventWhere, takeNotedEvents } from '../../lib/events';
import { sendEvents } from '../../lib/queue-send';
import { newRecovery } from './recovery';

/** Carts looked at per cron run; the oldest first, so a backlog clears over the next minutes. */
const PER_RUN = 100;

/**
 * The minute cron's look for abandoned carts: a cart still `active`, holding lines, with a contact
 * email (its own, else its customer's) and unchanged for CART_ABANDONED_AFTER_MINUTES becomes
 * `abandoned`. The first time, it records `abandonedAt` and emits `cart.abandoned` in the same
 * batch; a cart used again goes back to `active` (src/modules/carts/carts.access.ts), and if it is
 * left again it is `abandoned` again without a second event. Each cart flips only if it is still
 * as it was read (`updatedAt` unchanged), so a shopper coming back at that moment wins; its
 * `updatedAt` is left alone, so it keeps saying since when the cart has been idle. The first time
 * also adds the cart's recovery (src/modules/carts/recovery.ts), named by the event's `recoveryId`,
 * for the reminder email's link.
 * Returns how many carts were found abandoned.
 */
export async function abandonIdleCarts(env: Pick<Bindings, 'DB' | 'EVENTS_QUEUE' | 'CART_ABANDONED_AFTER_MINUTES'>, now = new Date()): Promise<number> {
  const db = createDb(env.DB);
  const minutes = config(env).CART_ABANDONED_AFTER_MINUTES;
  const cutoff = new Date(now.getTime() - minutes * 60_000).toISOString();
  const contact = sql<string>`coalesce(${carts.email}, ${users.email})`;
  const idle = await db
    .select({ id: carts.id, updatedAt: carts.updatedAt, abandonedAt: carts.abandonedAt, customerId: carts.customerId, email: contact, currency: carts.currency })
    .from(carts)
    .leftJoin(users, eq(users.id, carts.customerId))
    .where(
      and(eq(carts.status, 'active'), lt(carts.updatedAt, cutoff), sql`${contact} IS NOT NULL`, sql`EXISTS (SELECT 1 FROM ${cartLines} WHERE ${cartLines.cartId} = ${carts.id})`),
    )
    .orderBy(asc(carts.updatedAt))
    .limit(PER_RUN);
  if (idle.length === 0) return 0;
  const ts = now.toISOString();
  const statements = idle.flatMap((cart) => {
    const stillIdle = and(eq(carts.id, cart.id), eq(carts.status, 'active'), eq(carts.updatedAt, cart.updatedAt));
    const flip = db
      .update(carts)
      .set({ status: 'abandoned', abandonedAt: cart.abandonedAt ?? ts })
      .where(stillIdle);
    if (cart.abandonedAt) return [flip];
    const recovery = newRecovery(cart.id, now);
    const data = { cartId: cart.id, customerId: cart.customerId, email: cart.email, currency: cart.currency, idleSince: cart.updatedAt, abandonedAt: ts, recoveryId: recovery.id };
    const flipped = sql`EXISTS (SELECT 1 FROM ${carts} WHERE ${carts.id} = ${cart.id} AND ${carts.status} = 'abandoned' AND ${carts.abandonedAt} = ${ts})`;
    return [flip, insertWhere(db, cartRecoveries, recovery, flipped), outboxEventWhere(db, 'cart.abandoned', data, flipped, now)];
  });
  const results = await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
  // The events go to the queue at once, as a request's do (the consumer skips any whose insert did not apply).
  const noted = takeNotedEvents(db);
  if (noted.length) {
    await sendEvents(env, noted).catch((error: unknown) =>
      console.error(JSON.stringify({ level: 'error', message: 'sending cart.abandoned events failed; they are sent as leftovers later', error: String(error) })),
    );
  }
  let abandoned = 0;
  let i = 0;
  for (const cart of idle) {
    abandoned += ((results[i] as D1Result).meta?.changes ?? 0) > 0 ? 1 : 0;
    i += cart.abandonedAt ? 1 : 3;
  }
  return abandoned;
}

/**
 * Revenue recovered from abandoned carts: orders placed since `since` (not cancelled) from carts
 * that had been found abandoned before, per currency, with how many there were.
 */
export async function recoveredRevenue(db: Database, since: Date): Promise<{ orders: number; revenue: [string, number][] }> {
  const rows = await db
    .select({ currency: orders.currency, minorUnits: orders.minorUnits, total: sql<number>`sum(${orders.total})`, count: sql<number>`count(*)` })
    .from(carts)
    .innerJoin(orders, eq(orders.id, carts.orderId))
    .where(and(isNotNull(carts.abandonedAt), eq(carts.status, 'converted'), gte(orders.createdAt, since.toISOString()), ne(orders.status, 'cancelled')))
    .groupBy(orders.currency, orders.minorUnits);
  return {
    orders: rows.reduce((n, r) => n + r.count, 0),
    revenue: rows.map((r): [string, number] => [r.currency, toMajor(r.total, r.minorUnits)]),
  };
}
