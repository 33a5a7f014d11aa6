import { env } from 'cloudflare:workers';
import Stripe from 'stripe';
import { api, type ApiResponse } from '../helpers';

// The worker side of the loopback Stripe fake (stripe-fake.global-setup.mjs), and Stripe's webhook
// events signed the way Stripe signs them (the SDK's own test-header helper).

export interface FakeRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  params: Record<string, any>;
  fault: string | null;
}

async function fake<T = any>(path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const res = await fetch(`${env.STRIPE_API_BASE}${path}`, {
    method: init.method ?? 'GET',
    headers: init.json === undefined ? {} : { 'Content-Type': 'application/json' },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  if (!res.ok) throw new Error(`the Stripe fake answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** The customer confirms the PaymentIntent in the browser: the card succeeds or is declined. Returns the intent as Stripe has it. */
export const confirmIntent = (intent: string, outcome: 'succeeded' | 'declined' = 'succeeded') =>
  fake<Stripe.PaymentIntent>(`/__fake/payment_intents/${intent}/confirm`, { method: 'POST', json: { outcome } });

/** A refund made in the Stripe dashboard. */
export const dashboardRefund = (intent: string, amount: number) => fake<Stripe.Refund>('/__fake/refunds', { method: 'POST', json: { payment_intent: intent, amount } });

/** The next `times` requests matching `match` ("POST /v1/refunds") fail before any work, or lose their answer after it. */
export const injectFault = (match: string, mode: 'fail' | 'lose-answer', times = 1) => fake('/__fake/faults', { method: 'PUT', json: { match, mode, times } });
export const clearFaults = () => fake('/__fake/faults', { method: 'DELETE' });

/** What the store asked Stripe about a PaymentIntent (by its id) or under an idempotency key prefix (our payment or refund id). */
export const stripeRequests = (filter: { intent?: string; key?: string }) => fake<FakeRequest[]>(`/__fake/requests?${new URLSearchParams(filter as Record<string, string>)}`);

/** The refunds Stripe holds for a PaymentIntent. */
export const stripeRefunds = (intent: string) => fake<Stripe.Refund[]>(`/__fake/refunds?intent=${intent}`);

let eventCount = 0;

/** A Stripe event around `object`, and its Stripe-Signature header signed with the store's webhook secret (or `secret`). */
export async function signedEvent(type: string, object: unknown, options: { secret?: string; timestamp?: number; id?: string } = {}) {
  const event = {
    id: options.id ?? `evt_test_${Date.now()}_${++eventCount}`,
    object: 'event',
    type,
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    data: { object },
  };
  const payload = JSON.stringify(event);
  const header = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: options.secret ?? env.STRIPE_WEBHOOK_SECRET!,
    timestamp: options.timestamp,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  return { event, payload, header };
}

/** POSTs a signed event to the store's Stripe webhook, as Stripe does. */
export function deliver(signed: { payload: string; header: string }): Promise<ApiResponse> {
  return api('/api/payments/stripe/webhook', { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signed.header }, body: signed.payload });
}

/**
 * Pays an order by Stripe as a shopper does: the store opens a PaymentIntent (for `amount`, major
 * units, or what is owed), the card succeeds and Stripe's webhook says so. Answers the opening
 * request when it was refused, else the payment as the store has it after the webhook.
 */
export async function payByStripe(orderId: string, key: string, amount?: number): Promise<ApiResponse> {
  const opened = await api(`/api/orders/${orderId}/payments`, { method: 'POST', key, json: { provider: 'stripe', ...(amount === undefined ? {} : { amount }) } });
  if (opened.status !== 201) return opened;
  const handled = await deliver(await signedEvent('payment_intent.succeeded', await confirmIntent(opened.body.data.providerReference)));
  if (handled.status !== 200) throw new Error(`Stripe's webhook answered ${handled.status}: ${JSON.stringify(handled.body)}`);
  return api(`/api/payments/${opened.body.data.id}`, { key });
}
