// The shapes of the payments module that other areas use (its *.schemas.ts), apart from its behaviour (index.ts), so a
// shape loads no service (test/module-boundaries.node.test.ts). Loaded on use. Written by scripts/module-faces.ts: rerun it.

export { CreatePaymentBody, CreateRefundBody, RefundSchema } from './payments.schemas';
export type { Payment, Refund } from './payments.schemas';
