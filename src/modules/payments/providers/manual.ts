import type { ChargeRequest, ChargeResult, PaymentProvider } from '../../ledger';

/**
 * Money taken outside the store (cash, bank transfer) or in tests: every charge succeeds at once,
 * unless the request's `details.simulateFailure` is true, which lets the failure path be exercised
 * end to end. Its answers depend only on the payment row, so asking again gives the same answer,
 * as a provider's idempotency keys do.
 */
function outcome({ payment }: ChargeRequest): ChargeResult {
  if (payment.providerInput.simulateFailure === true) return { status: 'failed', reference: null, failureReason: 'Simulated failure (details.simulateFailure)' };
  return { status: 'completed', reference: payment.providerReference ?? `manual_${payment.id}`, failureReason: null };
}

export const manualProvider: PaymentProvider = {
  name: 'manual',
  charge: async (request) => outcome(request),
  status: async (request) => outcome(request),
  cancel: async (request) => outcome(request),
  async refund({ refund }) {
    return { status: 'completed', reference: `manual_${refund.id}`, failureReason: null };
  },
};
