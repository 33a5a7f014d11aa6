/**
 * The ledger: every movement of money after an order is placed. It records what payment providers
 * answer (settle.ts: a charge or refund is written pending, then settled once, never lost or
 * doubled), works out a refund by line (refund-lines.ts), says what an order still owes (amount-due.ts:
 * the one amount due), issues, spends and revokes gift cards (gift-card-issue.ts,
 * gift-card-payment.ts, gift-card-provider.ts, bought-gift-cards.ts, revoke-bought-cards.ts,
 * card-value-held.ts) and credits store credit on a refund to it, and moves the order (order-status.ts,
 * order-follow-up.ts) and the return (return-moves.ts) its money settles. It imports db/, lib/,
 * customers' store-credit ledger and checkout only; orders, payments, returns, gift cards, carts and
 * shipments call it through what this file exports. No routes of its own.
 */
export { amountDue, owed, paidInFull, paymentFits, refuseClosed, refuseMoreThanOwed, refuseUnfitPayment } from './amount-due';
export { amountInMinor } from './amounts';
export type { GiftCardSettings } from './bought-gift-cards';
export { cardValueRefusal, leavesCardValue } from './card-value-held';
export { giftCardCode, giftCardSecret, hashGiftCardCode, normalisedCode } from './gift-card-code';
export { issueStatements, type NewGiftCard } from './gift-card-issue';
export { spendGiftCard } from './gift-card-payment';
export { giftCardProvider, giftCardProviderWith } from './gift-card-provider';
export { followUpOrderStatus } from './order-follow-up';
export { assertTransition, canTransition, ORDER_TRANSITIONS, orderEventData, orderNumberOf, type StatusChange, statusChangeStatements } from './order-status';
export { type ChargeRequest, type ChargeResult, type PaymentProvider, ProviderUnavailable, type RefundRequest, type RefundResult } from './payment-provider';
export { refundCreatedData, refundEventData } from './refund-event';
export { type RefundByLines, refundByLines, unchangedSince } from './refund-lines';
export { moveStatement, movedTo, returnRefundedStatement } from './return-moves';
export {
  cancellationRevocations,
  cardsToRevoke,
  refuseReturnOfSpentCards,
  refuseSpentCards,
  revocationStatements,
  spentCardOfOrder,
  spentMeanwhile,
} from './revoke-bought-cards';
export { recordCharge, recordRefund, type SettlingCharge, settleNothingOwed } from './settle';
