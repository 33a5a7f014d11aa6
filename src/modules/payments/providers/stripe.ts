import Stripe from 'stripe';
import type { PaymentRow } from '../../../db/schema';
import type { Bindings } from '../../../env';
import { type ChargeRequest, type ChargeResult, type PaymentProvider, ProviderUnavailable, type RefundResult } from '../../ledger';
import { config } from '../../../config';
import { roundHalfUp } from '../../checkout';

/**
 * Card payments through Stripe PaymentIntents, with the official `stripe` package (its Workers
 * build: fetch and Web Crypto). A charge creates a PaymentIntent keyed by our payment id (its
 * Idempotency-Key, and `payment_id` in its metadata) and answers `pending` with the client secret
 * the storefront confirms with Stripe.js; the webhook (stripe-webhook.ts) or reconciliation
 * settles it. A refund is a Stripe Refund keyed by our refund id (and `refund_id` in its metadata).
 */

export type StripeSettings = Pick<Bindings, 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_API_BASE'>;

/** The settings the provider needs that are not set, by name. */
export function missingStripeSettings(env: StripeSettings): string[] {
  const settings = config(env);
  return (['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const).filter((name) => !settings[name]);
}

/** Currencies Stripe counts in whole units, and those it counts in thousandths (docs.stripe.com/currencies). */
const ZERO_DECIMAL = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'JPY', 'KMF', 'KRW', 'MGA', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);
const THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);
export const stripeDigits = (currency: string) => (ZERO_DECIMAL.has(currency) ? 0 : THREE_DECIMAL.has(currency) ? 3 : 2);

/** Our minor units (`digits` decimals) in Stripe's smallest unit of the currency; refused when they do not convert exactly. */
export function toStripeAmount(amount: number, digits: number, currency: string): number {
  const shift = stripeDigits(currency) - digits;
  const converted = shift >= 0 ? amount * 10 ** shift : amount / 10 ** -shift;
  if (!Number.isInteger(converted))
    throw new ProviderUnavailable('stripe', `${currency} amounts have ${stripeDigits(currency)} decimals at Stripe; ${amount} (${digits} decimals) does not convert`);
  return converted;
}

export function fromStripeAmount(amount: number, digits: number, currency: string): number {
  const shift = digits - stripeDigits(currency);
  return shift >= 0 ? amount * 10 ** shift : roundHalfUp(amount, 10 ** -shift);
}

const clients = new Map<string, Stripe>();

/** One client per key and base URL per isolate (the SDK keeps no per-request state). */
export function stripeClient(env: StripeSettings): Stripe {
  const { STRIPE_SECRET_KEY, STRIPE_API_BASE } = config(env);
  const key = STRIPE_SECRET_KEY!;
  const base = STRIPE_API_BASE ? new URL(STRIPE_API_BASE) : null;
  const cacheKey = `${key}\n${base?.origin ?? ''}`;
  let client = clients.get(cacheKey);
  if (!client) {
    client = new Stripe(key, {
      httpClient: Stripe.createFetchHttpClient(),
      // One quick retry of a dropped connection, with the same Idempotency-Key; beyond that the row stays pending for reconciliation.
      maxNetworkRetries: 1,
      timeout: 20_000,
      ...(base ? { host: base.hostname, port: base.port || (base.protocol === 'https:' ? 443 : 80), protocol: base.protocol.replace(':', '') as 'http' | 'https' } : {}),
    });
    clients.set(cacheKey, client);
  }
  return client;
}

/** Runs a Stripe call; a network failure or a 5xx means the outcome is unknown (ProviderUnavailable), a 4xx is Stripe's answer. */
async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError && error.statusCode !== undefined && error.statusCode < 500) throw error;
    throw new ProviderUnavailable('stripe', `Stripe did not answer: ${(error as Error).message}`);
  }
}

/** Our view of a PaymentIntent. */
function intentResult(intent: Stripe.PaymentIntent): ChargeResult {
  const base = { reference: intent.id, clientSecret: intent.client_secret };
  if (intent.status === 'succeeded') return { ...base, status: 'completed', failureReason: null };
  if (intent.status === 'canceled') return { ...base, status: 'failed', failureReason: `Canceled${intent.cancellation_reason ? ` (${intent.cancellation_reason})` : ''}` };
  return { ...base, status: 'pending', failureReason: intent.last_payment_error?.message ?? null };
}

/**
 * What the PaymentIntent says of our payment. One that succeeded for another amount or currency
 * than the payment asked for is not that payment's success: it fails, with both amounts in its
 * reason, and is logged, so the order never counts money it did not ask for (docs/payments.md).
 */
export function chargeOutcome(intent: Stripe.PaymentIntent, { payment, digits }: Pick<ChargeRequest, 'payment' | 'digits'>): ChargeResult {
  const result = intentResult(intent);
  if (result.status !== 'completed') return result;
  const amount = toStripeAmount(payment.amount, digits, payment.currency);
  const currency = payment.currency.toLowerCase();
  const received = intent.amount_received ?? intent.amount;
  if (intent.amount === amount && received === amount && intent.currency === currency) return result;
  const failureReason = `Stripe reports ${received} ${intent.currency} for PaymentIntent ${intent.id}, but the payment is ${amount} ${currency} (in Stripe's units): not accepted`;
  console.error(
    JSON.stringify({ level: 'error', message: 'PaymentIntent does not match its payment; the payment is failed', paymentId: payment.id, intent: intent.id, failureReason }),
  );
  return { ...result, status: 'failed', failureReason };
}

function refundResult(refund: Stripe.Refund): RefundResult {
  if (refund.status === 'succeeded') return { status: 'completed', reference: refund.id, failureReason: null };
  if (refund.status === 'failed' || refund.status === 'canceled') return { status: 'failed', reference: refund.id, failureReason: refund.failure_reason ?? refund.status };
  return { status: 'pending', reference: refund.id, failureReason: null };
}

/** Stripe's refusal of a call (a 4xx) as a failed outcome. */
const refused = (error: unknown) => (error instanceof Stripe.errors.StripeError ? error.message : String(error));

export function stripeProvider(env: StripeSettings): PaymentProvider {
  const stripe = stripeClient(env);

  async function createIntent({ payment, digits, email }: ChargeRequest) {
    return call(() =>
      stripe.paymentIntents.create(
        {
          amount: toStripeAmount(payment.amount, digits, payment.currency),
          currency: payment.currency.toLowerCase(),
          automatic_payment_methods: { enabled: true },
          metadata: { payment_id: payment.id, order_id: payment.orderId },
          ...(email ? { receipt_email: email } : {}),
        },
        { idempotencyKey: payment.id },
      ),
    );
  }

  /** The PaymentIntent as it is now: retrieved by its id, or (id not recorded) found again through its creation's key. */
  async function currentIntent(request: ChargeRequest) {
    if (request.payment.providerReference) return call(() => stripe.paymentIntents.retrieve(request.payment.providerReference!));
    const created = await createIntent(request);
    return call(() => stripe.paymentIntents.retrieve(created.id));
  }

  return {
    name: 'stripe',
    async charge(request) {
      try {
        return chargeOutcome(await createIntent(request), request);
      } catch (error) {
        if (error instanceof ProviderUnavailable) throw error;
        return { status: 'failed', reference: null, failureReason: refused(error) };
      }
    },
    async status(request) {
      return chargeOutcome(await currentIntent(request), request);
    },
    async cancel(request) {
      const intent = await currentIntent(request);
      if (intent.status === 'succeeded' || intent.status === 'canceled') return chargeOutcome(intent, request);
      try {
        return chargeOutcome(
          await call(() => stripe.paymentIntents.cancel(intent.id, { cancellation_reason: 'abandoned' }, { idempotencyKey: `${request.payment.id}_cancel` })),
          request,
        );
      } catch (error) {
        if (error instanceof ProviderUnavailable) throw error;
        // Refused: it moved on (succeeded, or is processing) in the meantime; say where it is now.
        return chargeOutcome(await call(() => stripe.paymentIntents.retrieve(intent.id)), request);
      }
    },
    async refund({ refund, payment, digits }) {
      const intent = payment.providerReference;
      if (!intent) return { status: 'failed', reference: null, failureReason: 'The payment has no PaymentIntent' };
      // A refund created earlier under this id (its answer lost, or its key expired after 24 hours) is found, not made again.
      const existing = await call(() => stripe.refunds.list({ payment_intent: intent, limit: 100 }));
      const found = existing.data.find((r) => r.metadata?.refund_id === refund.id);
      if (found) return refundResult(found);
      try {
        const created = await call(() =>
          stripe.refunds.create(
            { payment_intent: intent, amount: toStripeAmount(refund.amount, digits, refund.currency), metadata: { refund_id: refund.id, payment_id: payment.id } },
            { idempotencyKey: refund.id },
          ),
        );
        return refundResult(created);
      } catch (error) {
        if (error instanceof ProviderUnavailable) throw error;
        return { status: 'failed', reference: null, failureReason: refused(error) };
      }
    },
  };
}

/** The Stripe dashboard's page of a PaymentIntent or refund (test-mode keys open the test dashboard). */
export function stripeDashboardUrl(payment: Pick<PaymentRow, 'providerReference'>, secretKey: string | undefined): string | null {
  const id = payment.providerReference;
  if (!id?.startsWith('pi_')) return null;
  const test = secretKey?.startsWith('sk_test_') || secretKey?.startsWith('rk_test_');
  return `https://dashboard.stripe.com/${test ? 'test/' : ''}payments/${id}`;
}
