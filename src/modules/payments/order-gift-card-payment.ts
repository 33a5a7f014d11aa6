import type { Database } from '../../db/client';
import type { GiftCardRow, OrderRow } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { toMajor } from '../../lib/money';
import { amountInMinor, type GiftCardSettings, owed, refuseClosed, refuseMoreThanOwed, spendGiftCard } from '../ledger';
import type { CreatePaymentInput } from './payments.schemas';
import { type PaymentAttempt, toPayment } from './payments.service';
import { assertUsable, cardByCode } from '../gift-cards';

/** `POST /api/orders/{id}/payments` with `provider: gift_card`: the code opens the card (locked out like sign-in), which pays. */
export async function payWithCode(db: Database, env: GiftCardSettings, order: OrderRow, input: CreatePaymentInput, network: string, actor: string): Promise<PaymentAttempt> {
  if (!input.code) throw ApiError.validation([{ field: 'code', problem: 'is required to pay with a gift card', code: 'required' }]);
  for (const field of ['reference', 'details'] as const) {
    if (input[field] !== undefined) throw ApiError.validation([{ field, problem: 'is not for gift card payments' }]);
  }
  const amount = input.amount === undefined ? undefined : amountInMinor(input.amount, order.minorUnits);
  const card = await cardByCode(db, input.code, network);
  const payment = await payOrderWithCard(db, env, order, card, amount, actor);
  return { payment: toPayment(payment, order.minorUnits), clientSecret: null };
}

/** `POST /api/orders/{id}/payments` with `provider: gift_card`: the card (opened by its code) pays `amount`, else what it can of what is owed. */
export async function payOrderWithCard(db: Database, env: GiftCardSettings, order: OrderRow, card: GiftCardRow, amount: number | undefined, actor: string, now = new Date()) {
  refuseClosed(order);
  assertUsable(card, order.currency, now);
  const due = await owed(db, order);
  const charged = amount ?? Math.min(card.balance, due);
  refuseMoreThanOwed(order, charged, due);
  if (charged > card.balance) throw ApiError.conflict(`Gift card ending ${card.last4} holds ${toMajor(card.balance, order.minorUnits)} ${order.currency}`, 'amount');
  const payment = await spendGiftCard(db, env, order, card.id, actor, charged, now);
  return payment!;
}
