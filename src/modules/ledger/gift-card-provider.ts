import type { Database } from '../../db/client';
import { giftCardTransactions } from '../../db/schema';
import { ID_PREFIX } from '../../lib/ids';
import type { ChargeRequest, ChargeResult, PaymentProvider, RefundRequest, RefundResult } from './payment-provider';

/**
 * A gift card's payment. The card's `spent` transaction is written in the same batch as the payment
 * row (src/modules/ledger/gift-card-payment.ts), where the database refuses to take the card
 * below zero, so a gift_card payment that exists has been charged: asked again, the charge is
 * completed. providerReference is the card's id.
 */
function charged({ payment }: ChargeRequest): ChargeResult {
  return { status: 'completed', reference: payment.providerReference, failureReason: null };
}

/**
 * Gives a refund's amount back to the card as a `refunded` transaction keyed by the refund's id, so
 * asked again it credits once. It needs the database, which only callers that hold one pass (the
 * gift-card payment, to give back a charge whose order was cancelled meanwhile); the registry's
 * provider has none and answers failed.
 */
async function credit(db: Database | null, { refund, payment }: RefundRequest): Promise<RefundResult> {
  if (!db || !payment.providerReference) {
    return { status: 'failed', reference: null, failureReason: 'Refunds of gift card payments to the card are not supported here yet; refund to store credit instead' };
  }
  const id = `${ID_PREFIX.giftCardTransaction}_${refund.id}`;
  await db
    .insert(giftCardTransactions)
    .values({
      id,
      giftCardId: payment.providerReference,
      amount: refund.amount,
      kind: 'refunded',
      orderId: refund.orderId,
      paymentId: payment.id,
      actor: 'system',
      createdAt: refund.createdAt,
    })
    .onConflictDoNothing();
  return { status: 'completed', reference: id, failureReason: null };
}

export function giftCardProviderWith(db: Database | null): PaymentProvider {
  return {
    name: 'gift_card',
    charge: async (request) => charged(request),
    status: async (request) => charged(request),
    cancel: async (request) => charged(request),
    refund: (request) => credit(db, request),
  };
}

export const giftCardProvider = giftCardProviderWith(null);
