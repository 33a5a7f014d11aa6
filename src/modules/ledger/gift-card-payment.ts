import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type GiftCardRow, giftCards, giftCardTransactions, type OrderRow, orders, type PaymentRow, payments } from '../../db/schema';
import { violatedGuard } from '../../lib/db-guards';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { insertWhere } from '../../lib/insert-where';
import { toMajor } from '../../lib/money';
import { owed, paymentFits, refuseUnfitPayment } from './amount-due';
import { giftCardProvider, giftCardProviderWith } from './gift-card-provider';
import { recordCharge } from './settle';
import type { GiftCardSettings } from './bought-gift-cards';

/**
 * Pays (part of) an order with a card the caller opened (by its code). The payment row and the
 * card's `spent` transaction are written in one batch: the payment only if the order is open and
 * the amount fits in what is owed (paymentFits, as every payment), the spend only with it, and the
 * trigger on gift_card_transactions aborts the whole batch (guard:insufficient_gift_card_balance)
 * when the card holds less than the amount. So however many checkouts spend one card at once, they
 * never take more than it holds. The payment is then recorded completed like any provider's charge
 * (settle.ts: amountPaid, `payment.completed`, `processing` once paid in full).
 */
export async function payWithGiftCard(
  db: Database,
  env: GiftCardSettings,
  order: OrderRow,
  card: GiftCardRow,
  amount: number,
  actor: string,
  now = new Date(),
): Promise<PaymentRow> {
  const ts = now.toISOString();
  const row: PaymentRow = {
    id: newId(ID_PREFIX.payment, now.getTime()),
    orderId: order.id,
    provider: giftCardProvider.name,
    providerReference: card.id,
    status: 'pending',
    amount,
    amountRefunded: 0,
    currency: order.currency,
    failureReason: null,
    providerInput: {},
    requestKey: null,
    disputeStatus: null,
    createdAt: ts,
    updatedAt: ts,
  };
  const spend = {
    id: newId(ID_PREFIX.giftCardTransaction, now.getTime()),
    giftCardId: card.id,
    amount: -amount,
    balanceAfter: 0,
    kind: 'spent',
    orderId: order.id,
    paymentId: row.id,
    actor,
    createdAt: ts,
  };
  const [inserted] = await db.batch([
    insertWhere(db, payments, row, paymentFits(order.id, amount)),
    insertWhere(db, giftCardTransactions, spend, sql`EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.id} = ${row.id})`),
  ]);
  if (inserted.meta.changes === 0) await refuseUnfitPayment(db, order, amount);
  // With the database, so a charge the order can no longer take (cancelled meanwhile) is given back to the card.
  return recordCharge(db, giftCardProviderWith(db), row, { status: 'completed', reference: card.id, failureReason: null }, { actor, env, now });
}

/**
 * Pays with `card` what it can of what is still owed (or `requested`, which it must hold). When
 * another payment spent the card between the read and the write, its balance is read again and the
 * rest tried once more; null when nothing is left to pay or on the card.
 */
export async function spendGiftCard(
  db: Database,
  env: GiftCardSettings,
  order: OrderRow,
  cardId: string,
  actor: string,
  requested?: number,
  now = new Date(),
): Promise<PaymentRow | null> {
  for (let attempt = 0; ; attempt++) {
    const [[card], [fresh]] = await db.batch([db.select().from(giftCards).where(eq(giftCards.id, cardId)), db.select().from(orders).where(eq(orders.id, order.id))]);
    if (!card || !fresh) return null;
    const amount = requested ?? Math.min(card.balance, await owed(db, fresh));
    if (amount <= 0) return null;
    try {
      return await payWithGiftCard(db, env, fresh, card, amount, actor, now);
    } catch (error) {
      if (violatedGuard(error) !== 'insufficient_gift_card_balance') throw error;
      if (requested !== undefined || attempt >= 1) {
        throw ApiError.conflict(`Gift card ending ${card.last4} holds less than ${toMajor(amount, order.minorUnits)} ${order.currency}`, 'code');
      }
    }
  }
}
