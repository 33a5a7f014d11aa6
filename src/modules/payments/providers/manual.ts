import type { PaymentProvider } from './provider';

/**
 * Money taken outside the store (cash, bank transfer) or in tests: every charge succeeds at once,
 * unless `details.simulateFailure` is true, which lets the failure path be exercised end to end.
 */
export const manualProvider: PaymentProvider = {
  name: 'manual',
  async charge({ idempotencyKey, reference, details }) {
    if (details.simulateFailure === true) return { status: 'failed', reference: null, failureReason: 'Simulated failure (details.simulateFailure)' };
    return { status: 'completed', reference: reference ?? `manual_${idempotencyKey}`, failureReason: null };
  },
  async refund({ idempotencyKey }) {
    return { status: 'completed', reference: `manual_${idempotencyKey}` };
  },
};
