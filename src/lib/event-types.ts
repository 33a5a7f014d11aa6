// The outbox's event kinds, in a file of their own: the payload schemas (src/webhooks/event-payloads.ts)
// and the outbox (src/lib/events.ts) both need them, and the outbox needs the schemas' types.

/**
 * Domain event kinds written to the outbox. The spec's eight kinds, plus `product.deleted` so a
 * subscriber mirroring the catalogue learns of removals, and `shipment.shipped` (with its carrier
 * and tracking) for shipping notifications, `return.requested`, `return.approved`, `return.rejected` and `return.received` for returns, `refund.created` when a refund is made (`payment.refunded` when it completes). Content pages emit `page.published`, `page.updated` (a
 * published page changed) and `page.unpublished` (back to draft, or deleted), so storefront caches can follow.
 */
export const EVENT_TYPES = [
  'order.placed',
  'order.updated',
  'order.cancelled',
  'product.created',
  'product.updated',
  'product.deleted',
  'customer.registered',
  'payment.completed',
  'payment.failed',
  'payment.refunded',
  'refund.created',
  'payment.disputed',
  'store_credit.changed',
  'shipment.shipped',
  'return.requested',
  'return.approved',
  'return.rejected',
  'return.received',
  'inventory.low',
  'page.published',
  'page.updated',
  'page.unpublished',
  'cart.abandoned',
  'gift_card.issued',
] as const;

/** `ping`: the test event `POST /api/webhooks/{id}/test` sends to one endpoint; never broadcast. */
export const PING_EVENT = 'ping';
export type EventType = (typeof EVENT_TYPES)[number];
