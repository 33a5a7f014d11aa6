// Typed webhook events: verify a delivery and get its body typed by kind (constructEvent), or hand
// a fetch-style handler the kinds you care about (webhookHandler). The kinds and their bodies are
// generated from the OpenAPI document's `webhooks` (generated/events.ts).

import type { StoreEvent, StoreEventMap, StoreEventType } from './generated/events.js';
import { type WebhookBody, type WebhookHeaders, verifyWebhook } from '../src/webhooks.js';

/** A delivery that does not verify (`reason` says why), or whose body is not an event. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export interface ConstructEventInput {
  /** The raw request body, exactly as received, before any JSON parsing. */
  body: WebhookBody;
  headers: WebhookHeaders;
  /** The endpoint's secret (`whsec_...`); during a rotation give both in `secrets`. */
  secret?: string;
  secrets?: readonly string[];
}

/**
 * Verifies a delivery (`X-Store-Signature`, or `X-Store-Signature-Previous` during a rotation) and
 * returns its body, typed by `event`. Throws WebhookVerificationError when it does not verify: answer 400.
 * A kind added to the store after this client was generated comes back too, with an `event` outside `StoreEventType`.
 */
export async function constructEvent(input: ConstructEventInput): Promise<StoreEvent> {
  const verified = await verifyWebhook(input);
  if (!verified.valid) throw new WebhookVerificationError(`Webhook not verified: ${verified.reason}`);
  const text = typeof input.body === 'string' ? input.body : new TextDecoder().decode(input.body);
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError('Webhook body is not JSON');
  }
  if (typeof event !== 'object' || event === null || typeof (event as { event?: unknown }).event !== 'string') {
    throw new WebhookVerificationError('Webhook body is not an event ({ id, event, data, timestamp })');
  }
  return event as StoreEvent;
}

/** One function per kind handled; its event is typed by the kind. */
export type StoreEventHandlers = { [K in StoreEventType]?: (event: StoreEventMap[K]) => unknown };

export interface WebhookHandlerOptions {
  secret?: string;
  secrets?: readonly string[];
  on: StoreEventHandlers;
}

/**
 * A fetch-style handler (`(request) => Promise<Response>`, as in Workers, Deno, Bun, Hono or Node's
 * `Request`): 400 for a delivery that does not verify, else runs the kind's handler and answers 200
 * (a kind without a handler is acknowledged). A handler that throws answers 500, so the store retries
 * the delivery. Deduplicate on `X-Store-Delivery` inside your handlers: a delivery can come twice.
 */
export function webhookHandler(options: WebhookHandlerOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const body = new Uint8Array(await request.arrayBuffer());
    let event: StoreEvent;
    try {
      event = await constructEvent({ body, headers: request.headers, secret: options.secret, secrets: options.secrets });
    } catch (error) {
      if (error instanceof WebhookVerificationError) return new Response(error.message, { status: 400 });
      throw error;
    }
    const handle = options.on[event.event] as ((event: StoreEvent) => unknown) | undefined;
    try {
      await handle?.(event);
    } catch {
      // The store keeps an excerpt of the answer in its delivery log: the error's text stays here.
      return new Response(`The handler for ${event.event} failed`, { status: 500 });
    }
    return new Response(null, { status: 200 });
  };
}

/**
 * Ordering (the store's docs/webhooks.md, Ordering): the events about one resource (an order, a
 * product, a customer) carry `sequence` 1, 2, 3, ... in the order the store wrote them, whatever
 * order they arrive in. Keep, per `resourceId`, the highest sequence you applied: an event at or
 * below it is older news (it arrived late, or twice) and is skipped. An event with no sequence (a
 * test ping) is always new.
 */
export function isNewerEvent(event: { sequence?: number | null }, lastApplied: number | null | undefined): boolean {
  if (event.sequence === null || event.sequence === undefined) return true;
  return lastApplied === null || lastApplied === undefined || event.sequence > lastApplied;
}
