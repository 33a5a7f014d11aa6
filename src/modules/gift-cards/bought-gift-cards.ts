import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type OrderRow, orderLines, products } from '../../db/schema';
import { giftCardSecret } from './gift-card-code';
import { issueStatements } from './gift-cards.service';
import type { Vars } from '../../config';

export type GiftCardSettings = Pick<Vars, 'JWT_SECRET'>;

/**
 * The statements issuing the cards an order bought, for the batch that moves it to `processing`
 * (paid in full): one card per unit of each line of a gift-card product, worth the line's unit
 * price in the order's currency, for the order's email. The order can reach `processing` only once
 * (the status trigger aborts a second batch), so the cards are issued once; their ids are derived
 * from the line (`gc_<orderLineId>_<unit>`), so a card is also traceable to the unit that bought it.
 */
export async function boughtGiftCardStatements(db: Database, env: GiftCardSettings, order: OrderRow, now = new Date()) {
  const lines = await db
    .select({ id: orderLines.id, quantity: orderLines.quantity, unitPrice: orderLines.unitPrice })
    .from(orderLines)
    .innerJoin(products, eq(products.id, orderLines.productId))
    .where(and(eq(orderLines.orderId, order.id), eq(products.giftCard, true)));
  if (!lines.length) return [];
  const secret = giftCardSecret(env);
  const issued = await Promise.all(
    lines.flatMap((line) =>
      Array.from({ length: line.quantity }, (_, unit) =>
        issueStatements(
          db,
          secret,
          {
            id: `gc_${line.id}_${unit + 1}`,
            amount: line.unitPrice,
            currency: order.currency,
            recipientEmail: order.email,
            customerId: order.customerId,
            orderId: order.id,
            orderLineId: line.id,
            issuedBy: 'system',
          },
          order.minorUnits,
          now,
        ),
      ),
    ),
  );
  return issued.flatMap((card) => card.statements);
}
