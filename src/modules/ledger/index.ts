// The public face of the ledger module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { amountDue, owed, paidInFull, paymentFits, refuseClosed, refuseMoreThanOwed, refuseUnfitPayment } from './amount-due';
export { amountInMinor } from './amounts';
export type { GiftCardSettings } from './bought-gift-cards';
export { cardValueRefusal, leavesCardValue } from './card-value-held';
export { giftCardCode, giftCardSecret, hashGiftCardCode, normalisedCode } from './gift-card-code';
export { issueStatements } from './gift-card-issue';
export { spendGiftCard } from './gift-card-payment';
export { giftCardProvider, giftCardProviderWith } from './gift-card-provider';
export { followUpOrderStatus } from './order-follow-up';
export { ORDER_TRANSITIONS, assertTransition, orderEventData, orderNumberOf, statusChangeStatements } from './order-status';
export type { StatusChange } from './order-status';
export { ProviderUnavailable } from './payment-provider';
export type { ChargeRequest, ChargeResult, PaymentProvider, RefundResult } from './payment-provider';
export { refundCreatedData } from './refund-event';
export { refundByLines, unchangedSince } from './refund-lines';
export type { RefundByLines } from './refund-lines';
export { moveStatement, movedTo } from './return-moves';
export { cancellationRevocations, cardsToRevoke, refuseReturnOfSpentCards, refuseSpentCards, revocationStatements, spentCardOfOrder, spentMeanwhile } from './revoke-bought-cards';
export { recordCharge, recordRefund, settleNothingOwed } from './settle';
export type { SettlingCharge } from './settle';
export { creditEntry } from './store-credit';
