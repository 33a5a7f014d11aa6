import type { Database } from '../../db/client';
import { type GiftCardRow, giftCards, giftCardTransactions } from '../../db/schema';
import { outboxEvent } from '../../lib/events';
import { ID_PREFIX, newId } from '../../lib/ids';
import { toMajor } from '../../lib/money';
import { giftCardCode, hashGiftCardCode, last4Of, normalisedCode } from './gift-card-code';

// Issuing a gift card, by staff (gift-cards.service.ts) or by an order paid in full (bought-gift-cards.ts).

export interface NewGiftCard {
  /** A chosen id (a bought card's is derived from its order line); a new one when omitted. */
  id?: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  expiresAt?: string | null;
  recipientEmail?: string | null;
  recipientName?: string | null;
  message?: string | null;
  customerId?: string | null;
  orderId?: string | null;
  orderLineId?: string | null;
  issuedBy: string;
}

/**
 * The statements issuing a card, for a batch of the caller's: the card at balance 0, its `issued`
 * transaction (whose trigger sets the balance) and `gift_card.issued`. The code goes back to the
 * caller only; the card keeps its hash.
 */
export async function issueStatements(db: Database, secret: string, card: NewGiftCard, digits: number, now = new Date()) {
  const ts = now.toISOString();
  const id = card.id ?? newId(ID_PREFIX.giftCard, now.getTime());
  const code = await giftCardCode(secret, id);
  const normalised = normalisedCode(code)!;
  const row: GiftCardRow = {
    id,
    codeHash: await hashGiftCardCode(normalised),
    last4: last4Of(normalised),
    currency: card.currency,
    initialAmount: card.amount,
    balance: 0,
    status: 'active',
    expiresAt: card.expiresAt ?? null,
    recipientEmail: card.recipientEmail ?? null,
    recipientName: card.recipientName ?? null,
    message: card.message ?? null,
    customerId: card.customerId ?? null,
    orderId: card.orderId ?? null,
    orderLineId: card.orderLineId ?? null,
    issuedBy: card.issuedBy,
    createdAt: ts,
    updatedAt: ts,
  };
  const statements = [
    db.insert(giftCards).values(row),
    db.insert(giftCardTransactions).values({
      id: newId(ID_PREFIX.giftCardTransaction, now.getTime()),
      giftCardId: id,
      amount: card.amount,
      balanceAfter: card.amount,
      kind: 'issued',
      orderId: card.orderId ?? null,
      paymentId: null,
      actor: card.issuedBy,
      createdAt: ts,
    }),
    outboxEvent(
      db,
      'gift_card.issued',
      {
        giftCardId: id,
        last4: row.last4,
        currency: row.currency,
        amount: toMajor(card.amount, digits),
        expiresAt: row.expiresAt,
        recipientEmail: row.recipientEmail,
        recipientName: row.recipientName,
        orderId: row.orderId,
      },
      now,
    ),
  ] as const;
  return { code, row: { ...row, balance: card.amount }, statements };
}
