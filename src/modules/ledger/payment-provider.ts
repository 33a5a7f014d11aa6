import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../../db/client';
import type { OrderRow, PaymentRow, RefundRow } from '../../db/schema';
import type { GuardName } from '../../lib/db-guards';

/**
 * What the store asks of a payment provider. Amounts are integer minor units of the order's
 * currency (`digits` decimals). Every call that moves money is keyed by our own row's id (the
 * payment's, the refund's), written before the call: asked twice with the same key, a provider
 * answers with the same charge or refund, so a retry or a reconciliation never moves money twice
 * (src/modules/ledger/settle.ts).
 */
export interface ChargeRequest {
  /** Our pending payment: its id is the idempotency key, its providerReference the provider's id once known. */
  payment: PaymentRow;
  /** Decimals of the currency in our amounts. */
  digits: number;
  /** The order's contact email, for the provider's receipt. */
  email: string | null;
}

export interface ChargeResult {
  /** `pending`: the provider has not settled it yet (a card payment the customer still has to confirm). */
  status: 'completed' | 'failed' | 'pending';
  reference: string | null;
  failureReason: string | null;
  /** For a charge the customer completes in the browser (Stripe.js): the secret it confirms with. */
  clientSecret?: string | null;
}

export interface RefundRequest {
  refund: RefundRow;
  payment: PaymentRow;
  digits: number;
}

export interface RefundResult {
  status: 'completed' | 'failed' | 'pending';
  reference: string | null;
  failureReason: string | null;
}

export interface PaymentProvider {
  readonly name: string;
  /** Starts (or, asked again with the same payment, returns) the charge. */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** The charge's state now, for a payment whose outcome was not recorded (reconciliation). */
  status(request: ChargeRequest): Promise<ChargeResult>;
  /** Cancels a charge not completed yet; a charge that completed meanwhile comes back `completed`. */
  cancel(request: ChargeRequest): Promise<ChargeResult>;
  /** Refunds (or, asked again with the same refund, returns) the refund. */
  refund(request: RefundRequest): Promise<RefundResult>;
  /** Refuses (throws a 422) an order this provider cannot pay, before anything is written. */
  check?(order: OrderRow): void;
  /**
   * For money kept in the store's own database (store credit): the statements that take it, run in
   * the batch that records the completed charge, so both happen or neither. A guard they trip
   * (`settlementGuard`) fails the payment and answers 409.
   */
  settlement?(db: Database, payment: PaymentRow, order: OrderRow, by: { actor: string; now: Date }): BatchItem<'sqlite'>[];
  readonly settlementGuard?: GuardName;
}

/** The provider could not be reached or failed: nothing is known about the outcome, so the row stays pending. */
export class ProviderUnavailable extends Error {
  constructor(
    readonly provider: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderUnavailable';
  }
}
