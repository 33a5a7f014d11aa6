// The public face of the payments module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { expireUnpaidOrders } from './order-expiry';
export { payerReach } from './payments.access';
export { orderPaymentListQuery } from './payments.query';
export * as paymentsRoutes from './payments.routes';
export * as paymentsService from './payments.service';
export { exchangeProvider } from './providers/exchange';
export { stripeDashboardUrl } from './providers/stripe';
export type { StripeSettings } from './providers/stripe';
export { reconcilePending } from './reconcile';
export { createRefund, leftToRefund, listOrderRefunds, paymentToRefund, pendingRefunds } from './refunds.service';
