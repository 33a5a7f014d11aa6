import { ApiError } from '../../../lib/errors';
import type { PaymentProvider } from '../../ledger';

/**
 * The value of returned goods moving to the order they were exchanged for (src/modules/returns/exchanges.ts):
 * a refund of the returned lines with destination `exchange` on the first order, and a payment of
 * provider `exchange` of the same amount on the new one, both written pending in the new order's
 * batch and completed at once. No money leaves the store, so asked again either answers completed.
 * Nobody pays with it through `POST /orders/{id}/payments` (422); refunding it later gives the value
 * to the customer's store credit (refunds.service.ts).
 */
const completed = (reference: string) => ({ status: 'completed' as const, reference, failureReason: null });

export const exchangeProvider: PaymentProvider = {
  name: 'exchange',
  charge: async ({ payment }) => completed(payment.providerReference ?? `exchange_${payment.id}`),
  status: async ({ payment }) => completed(payment.providerReference ?? `exchange_${payment.id}`),
  cancel: async ({ payment }) => completed(payment.providerReference ?? `exchange_${payment.id}`),
  refund: async ({ refund }) => completed(`exchange_${refund.id}`),
  check() {
    throw ApiError.validation([{ field: 'provider', problem: 'exchange payments are made by exchanging a return: POST /api/returns/{id}/exchange' }]);
  },
};
