import { z } from '@hono/zod-openapi';
import { ORDER_STATUSES, REFUND_DESTINATIONS } from '../db/schema';
import type { EventType } from '../lib/event-types';
import { Money, Timestamp } from '../lib/schemas';
import { OrderSchema, OrderShippingMethodSchema } from '../modules/orders/orders.schemas';
import { PageSchema } from '../modules/pages/pages.schemas';
import { ProductSchema } from '../modules/products/products.schemas';
import { ReturnLineSchema } from '../modules/returns/returns.schemas';
import { ShipmentLineSchema, ShipmentSchema } from '../modules/shipments/shipments.schemas';
import { AppliedPromotionSchema } from '../modules/promotions/promotions.schemas';

/**
 * The `data` of every event the outbox writes, one schema per kind: the one source of the webhook
 * payloads' shapes. `outboxEvent` type-checks each call's data against its kind's schema (src/lib/events.ts
 * imports only the types, so nothing here runs on a write), the OpenAPI document's `webhooks` lists them
 * (src/webhooks/openapi-webhooks.ts), and test/webhooks/event-payloads.test.ts drives every kind through its
 * real flow and parses what was stored, which keeps the events written by SQL (`order.placed`'s number,
 * the `inventory.low` trigger) to the same shapes. Kept beside payload.ts, which wraps them in the envelope.
 */

const id = (example: string, description?: string) => z.string().openapi({ example, ...(description ? { description } : {}) });
const orderNumber = OrderSchema.shape.number;
const customerId = id('user_01JD0000000000000000000000', "The customer's account; null for a guest.").nullable();
const currency = z.string().openapi({ example: 'EUR' });

const ReturnEventData = z.object({
  returnId: id('ret_01JD0000000000000000000000'),
  orderId: id('ord_01JD0000000000000000000000'),
  orderNumber,
  customerId,
  lines: z.array(ReturnLineSchema.omit({ id: true })),
});
const OrderEventData = z.object({
  orderId: id('ord_01JD0000000000000000000000'),
  orderNumber,
  customerId,
  email: z.string(),
  total: Money,
  currency,
  status: z.enum(ORDER_STATUSES),
});
const OrderPlacedEventData = OrderEventData.extend({
  taxTotal: Money.openapi({ description: 'The tax of the order, inside `total` when pricesIncludeTax, else part of it added on top.' }),
  pricesIncludeTax: z.boolean().openapi({ description: "Whether the order's prices included tax." }),
  shippingMethod: OrderShippingMethodSchema.nullable().openapi({ description: 'How the order ships, as the order keeps it.' }),
  promotions: z.array(AppliedPromotionSchema).openapi({
    description: "The order's `promotions`: what each promotion (and the coupon) took off in all, shipping's part as `shippingAmount`; the order's lines show them per line.",
  }),
});
const OrderChangeEventData = OrderEventData.extend({
  previousStatus: z.enum(ORDER_STATUSES),
  reason: z.string().optional().openapi({ description: 'Why the order moved, when the system says: `payment_expired` for an unpaid order cancelled after ORDER_PAYMENT_TTL.' }),
});
const ProductEventData = z.object({ productId: id('prod_01JD0000000000000000000000'), product: ProductSchema });
const PaymentEventData = z.object({
  paymentId: id('pay_01JD0000000000000000000000'),
  orderId: id('ord_01JD0000000000000000000000'),
  orderNumber,
  provider: z.string().openapi({ example: 'fake' }),
  amount: Money,
  currency,
});
/** A refund: what both `refund.created` and `payment.refunded` carry. */
const RefundEventData = PaymentEventData.omit({ provider: true }).extend({
  refundId: id('re_01JD0000000000000000000000'),
  destination: z
    .enum(REFUND_DESTINATIONS)
    .openapi({ description: "Where the money went: back to the payment, to the customer's store credit, or (`exchange`) to the order a return was exchanged for." }),
  returnId: z.string().nullable().openapi({ description: 'The return the refund is for, if any.' }),
  shippingAmount: Money.openapi({ description: 'The part of `amount` refunding shipping.' }),
  lines: z
    .array(z.object({ orderLineId: id('oline_01JD0000000000000000000000'), quantity: z.int(), amount: Money }))
    .openapi({ description: 'The order lines refunded, by units and what was paid for them; empty for a refund by amount.' }),
});
const PageEventData = PageSchema.pick({ slug: true, title: true, status: true, publishedAt: true }).extend({ pageId: id('page_01JD0000000000000000000000') });

/** A kind's schema, and when it fires (its summary and description in the OpenAPI document). */
interface EventKind {
  data: z.ZodObject;
  summary: string;
  description: string;
}

export const EVENT_KINDS = {
  'order.placed': { data: OrderPlacedEventData, summary: 'An order was placed', description: 'An order was placed (status `pending`), by checkout or `POST /api/orders`.' },
  'order.updated': {
    data: OrderChangeEventData,
    summary: "An order's status changed",
    description: "An order's status changed: paid (`processing`), shipped, completed, cancelled or refunded. A cancellation also sends `order.cancelled`.",
  },
  'order.cancelled': {
    data: OrderChangeEventData,
    summary: 'An order was cancelled',
    description: 'An order was cancelled, by staff, by its customer, or by the store for want of payment (`reason: "payment_expired"`); its stock and coupon use were returned.',
  },
  'product.created': { data: ProductEventData, summary: 'A product was created', description: 'A product was created; `product` is as `GET /api/products/{id}` answers it.' },
  'product.updated': {
    data: ProductEventData,
    summary: 'A product changed',
    description: 'A product, one of its variants or its media changed (also by an import); `product` is the product as it now stands.',
  },
  'product.deleted': { data: ProductEventData, summary: 'A product was deleted', description: 'A product was deleted; `product` is the product as it was.' },
  'customer.registered': {
    data: z.object({ customerId: id('user_01JD0000000000000000000000'), email: z.string(), name: z.string().nullable() }),
    summary: 'A customer account was created',
    description: 'A customer account was created, by sign-up or by staff.',
  },
  'payment.completed': { data: PaymentEventData, summary: 'A payment completed', description: "A payment completed; it is added to the order's `amountPaid`." },
  'payment.failed': {
    data: PaymentEventData.extend({ failureReason: z.string().nullable() }),
    summary: 'A payment failed',
    description: 'A payment was declined or failed at its provider.',
  },
  'payment.refunded': {
    data: RefundEventData,
    summary: 'A refund completed',
    description:
      'A refund completed (one made through the API or at the provider); `amount` is what this refund gave back, to the payment, to store credit or to an exchange. `refund.created` announced it when it was made.',
  },
  'refund.created': {
    data: RefundEventData.extend({
      status: z.enum(['pending', 'completed']).openapi({ description: "`pending` until its provider answers (then `payment.refunded`); an exchange's is `completed` at once." }),
      reason: z.string().nullable().openapi({ description: 'Why, as staff wrote it.' }),
    }),
    summary: 'A refund was made',
    description:
      'A refund was made: through the API (by amount, by line, to store credit, or by an exchange), in the write that made it, or at Stripe (found by its webhook). It names the lines and shipping refunded and what they are worth. ' +
      '`payment.refunded` follows when it completes; a refund its provider refuses emits nothing more (the refund reads `failed`).',
  },
  'payment.disputed': {
    data: PaymentEventData.omit({ provider: true }).extend({
      reason: z.string().openapi({ description: "The provider's reason for the dispute (Stripe's `fraudulent`, `product_not_received`, ...)." }),
      status: z.string().openapi({ description: "The dispute's status at the provider (Stripe's `needs_response`, ...)." }),
    }),
    summary: 'A payment was disputed',
    description: 'A chargeback was opened on a payment at the provider (Stripe `charge.dispute.created`).',
  },
  'store_credit.changed': {
    data: z.object({
      entryId: id('sce_01JD0000000000000000000000'),
      customerId: id('user_01JD0000000000000000000000'),
      amount: z.number().openapi({ description: 'The change, in major units: positive adds credit, negative spends it.', example: -10 }),
      currency,
      reason: z.string().openapi({ description: "`refund`, `spent`, `adjustment`, or the store's words.", example: 'refund' }),
      orderId: id('ord_01JD0000000000000000000000').nullable(),
      refundId: id('re_01JD0000000000000000000000').nullable(),
      returnId: z.string().nullable(),
      paymentId: id('pay_01JD0000000000000000000000').nullable(),
    }),
    summary: "A customer's store credit changed",
    description:
      "An entry was added to a customer's store credit ledger: a refund to store credit, a `store_credit` payment spending it, or staff's adjustment. The balance is `GET /api/customers/{id}/credit`.",
  },
  'shipment.shipped': {
    data: ShipmentSchema.pick({ orderId: true, carrier: true, trackingNumber: true, trackingUrl: true }).extend({
      shipmentId: id('ship_01JD0000000000000000000000'),
      orderNumber,
      customerId,
      status: z.literal('shipped'),
      shippedAt: Timestamp,
      lines: z.array(ShipmentLineSchema),
    }),
    summary: 'A shipment was shipped',
    description: 'A shipment was created as `shipped` or moved to `shipped`, with its carrier, tracking and lines.',
  },
  'return.requested': {
    data: ReturnEventData.extend({
      status: z.literal('requested'),
      note: z.string().nullable().openapi({ description: "The customer's words, if any." }),
    }),
    summary: 'A return was requested',
    description: "A customer (within the store's return window) or staff asked to return some of an order's lines.",
  },
  'return.approved': {
    data: ReturnEventData.extend({
      status: z.literal('approved'),
      approvedAt: Timestamp,
      resolution: z.string().nullable().openapi({ description: "Staff's words, if any (where to send the parcel)." }),
    }),
    summary: 'A return was approved',
    description: 'Staff approved a requested return: the customer may send the parcel.',
  },
  'return.rejected': {
    data: ReturnEventData.extend({
      status: z.literal('rejected'),
      closedAt: Timestamp,
      resolution: z.string().nullable().openapi({ description: "Staff's words: why it was rejected." }),
    }),
    summary: 'A return was rejected',
    description: 'Staff rejected a requested or approved return; its units can be returned again.',
  },
  'return.received': {
    data: ReturnEventData.extend({ status: z.literal('received'), receivedAt: Timestamp }),
    summary: 'A return was received',
    description: "The store received a return's parcel; each line's `restockedQuantity` says how many units went back in stock.",
  },
  'inventory.low': {
    data: z.object({
      productId: id('prod_01JD0000000000000000000000'),
      variantId: id('var_01JD0000000000000000000000'),
      sku: z.string().nullable(),
      quantity: z.int().openapi({ description: 'Units left.' }),
      threshold: z.int().openapi({ description: "The low-stock threshold in force: the variant's, else its product's, else the store's." }),
    }),
    summary: 'A variant ran low on stock',
    description: 'A stock change took a variant from above its low-stock threshold to at or below it: once per crossing, and at most once an hour per variant.',
  },
  'page.published': { data: PageEventData, summary: 'A page was published', description: 'A content page became published.' },
  'page.updated': { data: PageEventData, summary: 'A published page changed', description: 'A published content page changed.' },
  'page.unpublished': { data: PageEventData, summary: 'A page was unpublished', description: 'A published content page went back to draft or was deleted.' },
  'cart.abandoned': {
    data: z.object({
      cartId: id('cart_01JD0000000000000000000000'),
      customerId,
      email: z.string(),
      currency,
      idleSince: Timestamp.openapi({ description: 'When the cart was last changed.' }),
      abandonedAt: Timestamp,
      recoveryId: z.string().openapi({ description: "Names the cart's recovery (the reminder's link token is derived from it with a key only the store holds)." }),
    }),
    summary: 'A cart was abandoned',
    description: 'A cart with lines and an email was left unchanged for CART_ABANDONED_AFTER_MINUTES (once per cart).',
  },
  'gift_card.issued': {
    data: z.object({
      giftCardId: id('gc_01JD0000000000000000000000'),
      last4: z.string().openapi({ description: "The last four characters of the card's code (never the code).", example: 'Q7XM' }),
      currency,
      amount: Money,
      expiresAt: Timestamp.nullable(),
      recipientEmail: z.string().nullable(),
      recipientName: z.string().nullable(),
      orderId: id('ord_01JD0000000000000000000000', 'The order that bought it; null for a card staff issued.').nullable(),
    }),
    summary: 'A gift card was issued',
    description: 'Staff issued a gift card (`POST /api/gift-cards`). The code is never in the event.',
  },
} as const satisfies Record<EventType, EventKind>;

/** `ping`: what `POST /api/webhooks/{id}/test` sends to one endpoint. */
export const PING_KIND = {
  data: z.object({ webhookId: id('we_01JD0000000000000000000000'), message: z.string() }),
  summary: 'A test delivery',
  description: 'Sent to one endpoint by `POST /api/webhooks/{id}/test`; never broadcast, and not subscribable.',
} as const satisfies EventKind;

/** The `data` of an event of kind `T`, as the outbox is given it. */
export type EventData<T extends EventType> = z.infer<(typeof EVENT_KINDS)[T]['data']>;
export type PingData = z.infer<typeof PING_KIND.data>;
