import type { PaymentRow } from '../../../db/schema';

/**
 * What the store asks of a payment provider. Amounts are integer minor units of `currency`; the
 * idempotency key is the payment's id, so a provider that supports keys never charges one payment twice.
 */
export interface ChargeRequest {
  amount: number;
  currency: string;
  orderId: string;
  idempotencyKey: string;
  /** The client's own reference for the money (a bank transfer's), for providers that take one. */
  reference: string | null;
  /** Provider-specific input from the request body (a token, a test flag), passed through as given. */
  details: Record<string, unknown>;
}

export interface ChargeResult {
  status: 'completed' | 'failed' | 'pending';
  reference: string | null;
  failureReason: string | null;
}

export interface RefundRequest {
  payment: PaymentRow;
  amount: number;
  /** The refund's id, as the provider's idempotency key. */
  idempotencyKey: string;
}

export interface RefundResult {
  status: 'completed' | 'failed';
  reference: string | null;
  failureReason?: string | null;
}

export interface PaymentProvider {
  readonly name: string;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  refund(request: RefundRequest): Promise<RefundResult>;
}
