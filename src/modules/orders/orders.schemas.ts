import { z } from '@hono/zod-openapi';
import { ORDER_STATUSES, orderLines, orderStatusHistory, orders } from '../../db/schema';
import { createSelectSchema, Timestamp } from '../../lib/schemas';
import { CouponCode } from '../coupons/schemas';
import { AppliedPromotionSchema, LinePromotionSchema } from '../promotions/schemas';
import { CreateAddressBody } from '../customers/schemas';
import { Email } from '../users/schemas';
import { MAX_LINES } from '../checkout';

/** Shapes of orders on the wire, derived from the orders, order_lines and order_status_history tables. */

/** An order in a path: its id, or its number (`1001`; `#1001` works URL-encoded). */
export const OrderParams = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'id', in: 'path' }, description: "The order's id (`ord_…`) or its number (`1001`).", example: 'ord_01JD0000000000000000000000' }),
});

export const OrderShippingMethodSchema = z
  .object({
    id: z.string().openapi({ example: 'smeth_01JD0000000000000000000000' }),
    name: z.string().openapi({ example: 'DHL Paket' }),
    carrier: z.string().nullable().openapi({ example: 'DHL' }),
    amount: z.number().openapi({ description: "The shipping charge, in the major unit of the order's (or cart's) currency.", example: 4.99 }),
  })
  .openapi('ShippingMethodChoice', { description: 'A shipping method as a cart or order ships by it, priced for it.' });

/** Amounts of an order are in the major unit of the order's own currency (0 decimals for JPY, 3 for KWD). */
const OrderMoney = z.number().openapi({ description: "Amount in the major unit of the order's currency.", example: 19.99 });
/** The description of one of the order's amounts, which says what a vendor caller sees of it (order-money.ts). */
const amount = (what: string) => ({ description: `${what} In the major unit of the order's currency.` });

/** A percent of tax as a JSON number (kept as exact decimal text). */
const TaxPercent = z.number().openapi({ example: 19 });

/** Tax by rate, as an invoice shows it (src/modules/checkout/tax-breakdown.ts). Shared by carts (totals) and orders. */
export const TaxBreakdownSchema = z
  .array(
    z.object({
      rate: TaxPercent.openapi({ description: 'The percent charged.' }),
      netAmount: z.number().openapi({ description: 'What was taxed at this rate, after discounts and without the tax.', example: 25.13 }),
      taxAmount: z.number().openapi({ description: "The tax at this rate: the lines' and, where taxed, shipping's.", example: 4.77 }),
    }),
  )
  .openapi('TaxBreakdown', {
    description:
      'Tax by rate, highest rate first: one entry per percent charged on lines or shipping (untaxed amounts are left out). ' +
      'The taxAmounts add up to taxTotal. Lines of orders placed before tax rates were kept per line (taxRate null) are not in it.',
  });

/**
 * An address as an order keeps it: the address book's fields and rules, without its default flags.
 * Inline rather than a named component: a named one used with `.nullable()` is documented as nullable everywhere.
 */
export const PostalAddress = CreateAddressBody.omit({ isDefaultShipping: true, isDefaultBilling: true });

export const PAYMENT_STATUSES = ['unpaid', 'partially_paid', 'paid', 'partially_refunded', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const OrderLineSchema = createSelectSchema(orderLines, {
  options: z.record(z.string(), z.string()).openapi({ example: { size: 'M' } }),
  unitPrice: OrderMoney,
  subtotal: OrderMoney,
  discount: OrderMoney,
  promotions: z.array(LinePromotionSchema).openapi({
    description:
      'The promotions (and the coupon, named by its code) that make up `discount`, with their names and amounts as they were when the order was placed. Empty for orders placed before promotions.',
  }),
  tax: OrderMoney.openapi({ description: 'Deprecated: the same as taxAmount.', deprecated: true }),
  taxRate: TaxPercent.nullable().openapi({
    description:
      "The percent the line was taxed at (its tax class's rate for the shipping address); null when no rate applied, and for orders placed before rates were kept per line.",
  }),
  taxClass: z.string().nullable().openapi({ description: "The product's tax class when the order was placed; null for orders placed before tax classes.", example: 'standard' }),
  total: OrderMoney.openapi({ description: 'subtotal - discount, plus taxAmount when tax is added on top (pricesIncludeTax false).' }),
})
  .omit({ orderId: true, vendorId: true })
  .extend({
    taxAmount: OrderMoney.openapi({
      description: "The tax of the line, on subtotal - discount: inside it when the order's prices include tax, else added to it. Rounded half-up per line.",
    }),
  })
  .openapi('OrderLine');

export const OrderHistorySchema = createSelectSchema(orderStatusHistory, { createdAt: Timestamp }).omit({ orderId: true }).openapi('OrderStatusChange', {
  description: 'One status change: `fromStatus` is null for placement; `actor` is `user:<id>`, `key:<id>`, `guest:<cartId>` (a guest checkout) or `system`.',
});

export const OrderSchema = createSelectSchema(orders, {
  number: z.number().int().openapi({
    description:
      "The short number customers see and quote, shown as `#1001`: sequential from the store's ORDER_NUMBER_START (1001 by default), never shared or skipped. `GET /api/orders/1001` finds the order by it, as by its id.",
    example: 1001,
  }),
  subtotal: OrderMoney.openapi(amount("Sum of the lines' subtotals. To a vendor caller, of its own lines only.")),
  discountTotal: OrderMoney.openapi(
    amount("Sum of the lines' discounts (the coupon's share of each line, fixed when the order was priced). To a vendor caller, of its own lines only."),
  ),
  shippingTotal: OrderMoney.openapi(amount("The order's shipping charge. 0 to a vendor caller: shipping is charged to the order, not to any vendor's lines.")),
  taxTotal: OrderMoney.openapi(
    amount(
      "Tax of the lines, plus tax on shipping where the rate taxes it: inside the prices when pricesIncludeTax, else added to them. To a vendor caller, the tax of its own lines only (each line's, as the order was priced).",
    ),
  ),
  shippingTax: OrderMoney.openapi(amount('The part of taxTotal charged on shipping. 0 to a vendor caller.')),
  pricesIncludeTax: z.boolean().openapi({
    description: "Whether the order's prices included tax (the currency's or the store's setting when it was placed): then total does not add taxTotal.",
  }),
  total: OrderMoney.openapi(
    amount('subtotal - discountTotal + shippingTotal, plus taxTotal when prices exclude tax. To a vendor caller, the total of its own lines (and `sort=total` sorts by it).'),
  ),
  amountPaid: OrderMoney.nullable().openapi(
    amount("Paid so far. null to a vendor caller: payments are for the whole order, and a vendor's share of them would tell what other vendors' lines cost."),
  ),
  amountRefunded: OrderMoney.nullable().openapi(amount('Refunded so far. null to a vendor caller, as amountPaid.')),
  shippingAddress: PostalAddress.nullable(),
  billingAddress: PostalAddress.nullable(),
  cancelledAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
  .omit({
    minorUnits: true,
    couponId: true,
    cartId: true,
    firstOrder: true,
    shippingMethodId: true,
    shippingMethodName: true,
    shippingMethodCarrier: true,
    shippingTaxRate: true,
  })
  .extend({
    shippingMethod: OrderShippingMethodSchema.nullable().openapi({
      description:
        'The shipping method as it was when the order was placed: later changes to the method (or its deletion) do not change it. ' +
        '`amount` is `shippingTotal`. null when the store had no shipping zones, and to a vendor caller.',
    }),
    promotions: z.array(AppliedPromotionSchema).openapi({
      description:
        'Every promotion (and the coupon) the order applied, as it was when placed, in the order applied: the lines show their share per line, `shippingAmount` what was taken off shipping (`shippingTotal` is what was left to pay). Empty to a vendor caller, and for orders placed before promotions.',
    }),
    taxBreakdown: TaxBreakdownSchema,
    amountDue: OrderMoney.nullable().openapi(amount('What is still owed: total - amountPaid, never below 0. null to a vendor caller, as amountPaid.')),
    paymentStatus: z.enum(PAYMENT_STATUSES).openapi({
      description:
        'Derived from the amounts: `refunded` when everything paid was refunded, `partially_refunded` when some was, ' +
        '`paid` when amountPaid covers the total (so an order totalling 0 is paid), `partially_paid` when some was paid, else `unpaid`. ' +
        "To a vendor caller, the whole order's status (no amount).",
    }),
    lines: z.array(OrderLineSchema).openapi({
      description: "The order's lines. To a vendor caller (a vendor user, or a key of the vendor role), only the lines of its own vendor, and the amounts above are those lines'.",
    }),
  })
  .openapi('Order');

/** A single read also shows the order's status history, oldest first. */
export const OrderDetailSchema = OrderSchema.extend({ history: z.array(OrderHistorySchema) }).openapi('OrderDetail');

export type Order = z.infer<typeof OrderSchema>;
export type OrderDetail = z.infer<typeof OrderDetailSchema>;

const Notes = z.string().trim().max(2000);

export const CreateOrderBody = z
  .strictObject({
    lines: z
      .array(
        z.strictObject({
          variantId: z.string().min(1).max(100).openapi({ example: 'var_01JD0000000000000000000000' }),
          quantity: z.int().min(1).max(1000),
        }),
      )
      .min(1)
      .max(MAX_LINES),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code, like USD')
      .transform((code) => code.toUpperCase())
      .optional()
      .openapi({ description: "An enabled currency; the store's default when left out.", example: 'USD' }),
    couponCode: CouponCode.optional(),
    shippingAddress: PostalAddress.optional().openapi({
      description: 'Its country (and region) choose the tax rate and the shipping zone. An address no zone serves is 422 SHIPPING_UNAVAILABLE (details name `shippingAddress`).',
    }),
    shippingMethodId: z.string().min(1).max(200).optional().openapi({
      description:
        'One of the methods that serve the address (as `GET /api/carts/{id}/shipping-options` lists them for a cart); the cheapest that serves it when left out. One that does not serve it is 422 SHIPPING_UNAVAILABLE naming `shippingMethodId`.',
      example: 'smeth_01JD0000000000000000000000',
    }),
    billingAddress: PostalAddress.optional().openapi({ description: 'The shipping address when left out.' }),
    notes: Notes.optional(),
    customerId: z.string().min(1).max(100).optional().openapi({
      description: 'Staff only: the customer the order is for. A customer ordering for itself may leave it out (any other id is 422).',
    }),
    email: Email.optional().openapi({
      description: "Staff: the contact address (the customer's by default), or a guest order's only reference. A customer's orders use its account email.",
    }),
  })
  .openapi('CreateOrder');

export const UpdateOrderBody = z
  .strictObject({
    status: z.enum(ORDER_STATUSES).optional().openapi({
      description: 'Moves the order through its state machine (409 with the allowed moves otherwise); `cancelled` returns stock as the cancel action does.',
    }),
    notes: Notes.nullable().optional().openapi({ description: 'Saved as given; a change of notes alone emits no event.' }),
  })
  .openapi('UpdateOrder');

export const CancelOrderBody = z
  .strictObject({ reason: z.string().trim().min(1).max(500).optional().openapi({ description: "Kept as the history entry's note, and sent as `reason` in the events." }) })
  .openapi('CancelOrder');

export type CreateOrderInput = z.infer<typeof CreateOrderBody>;
export type UpdateOrderInput = z.infer<typeof UpdateOrderBody>;
export type CancelOrderInput = z.infer<typeof CancelOrderBody>;
