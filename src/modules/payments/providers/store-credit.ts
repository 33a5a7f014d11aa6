import { ApiError } from '../../../lib/errors';
import { creditEntry } from '../../ledger';
import type { PaymentProvider } from '../../ledger';

/**
 * The customer's store credit (src/modules/ledger/store-credit.ts) as a way to pay: the
 * charge is a negative ledger entry written in the batch that completes the payment (`settlement`),
 * which the balance trigger refuses past what the customer holds (409, the payment failed). Its
 * refunds always go back to store credit (refunds.service.ts), never "to the provider".
 */
const completed = (reference: string) => ({ status: 'completed' as const, reference, failureReason: null });

export const storeCreditProvider: PaymentProvider = {
  name: 'store_credit',
  charge: async ({ payment }) => completed(`store_credit_${payment.id}`),
  status: async ({ payment }) => completed(`store_credit_${payment.id}`),
  cancel: async ({ payment }) => completed(`store_credit_${payment.id}`),
  refund: async ({ refund }) => completed(`store_credit_${refund.id}`),
  check(order) {
    if (!order.customerId) throw ApiError.validation([{ field: 'provider', problem: 'store credit pays only orders of a customer account, and this is a guest order' }]);
  },
  settlement: (db, payment, order, { actor, now }) =>
    creditEntry(
      db,
      { customerId: order.customerId!, currency: payment.currency, amount: -payment.amount, reason: 'spent', orderId: order.id, paymentId: payment.id, actor },
      order.minorUnits,
      now,
    ).statements,
  settlementGuard: 'insufficient_store_credit',
};
