import { z } from '@hono/zod-openapi';
import { GiftCardCode } from '../gift-cards/schemas';
import { CART_STATUSES } from '../../db/schema';
import { Timestamp } from '../../lib/schemas';
import { AppliedPromotionSchema, LinePromotionSchema } from '../promotions/schemas';
import { OrderShippingMethodSchema, PostalAddress, TaxBreakdownSchema } from '../orders/schemas';
import { Email } from '../users/schemas';

/** Shapes of carts on the wire. Amounts are JSON numbers in the major unit of the cart's currency. */

export const MAX_LINE_QUANTITY = 1000;

const Amount = z.number().openapi({ description: 'Major units of the cart currency.', example: 19.99 });

export const CartLineSchema = z
  .object({
    id: z.string(),
    productId: z.string(),
    variantId: z.string(),
    name: z.string(),
    sku: z.string().nullable(),
    options: z.record(z.string(), z.string()),
    quantity: z.int(),
    unitPrice: Amount,
    subtotal: Amount,
    discount: Amount,
    promotions: z.array(LinePromotionSchema).openapi({
      description: 'Each promotion (and the coupon, named by its code) that takes money off the line, with its name and amount; they add up to `discount`.',
    }),
    taxRate: z.number().nullable().openapi({
      description: "The percent the line is taxed at: its product's tax class's rate for the shipping address (docs/api.md, Taxes); null when no rate applies there.",
      example: 19,
    }),
    taxClass: z.string().openapi({ description: "The product's tax class.", example: 'standard' }),
    taxAmount: Amount.openapi({ description: "Tax on subtotal - discount: inside it when the cart's prices include tax, else added to it. Rounded half-up per line." }),
    tax: Amount.openapi({ description: 'Deprecated: the same as taxAmount.', deprecated: true }),
    total: Amount.openapi({ description: 'subtotal - discount, plus taxAmount when tax is added on top (pricesIncludeTax false).' }),
    inStock: z.boolean().openapi({ description: 'The quantity is in stock now (stock is only reserved at checkout).' }),
  })
  .openapi('CartLine');

export const CartTotalsSchema = z
  .object({
    subtotal: Amount,
    discountTotal: Amount,
    shippingTotal: Amount,
    shippingTax: Amount.openapi({ description: 'The part of taxTotal charged on shipping.' }),
    taxTotal: Amount.openapi({ description: 'Tax of the lines and shipping: inside the prices when pricesIncludeTax, else added to them.' }),
    total: Amount.openapi({ description: 'subtotal - discountTotal + shippingTotal, plus taxTotal when prices exclude tax: what checkout charges.' }),
    taxBreakdown: TaxBreakdownSchema,
  })
  .openapi('CartTotals');

export const ShippingOptionSchema = z
  .object({
    id: z.string().openapi({ example: 'smeth_01JD0000000000000000000000' }),
    name: z.string().openapi({ example: 'DHL Paket' }),
    carrier: z.string().nullable().openapi({ example: 'DHL' }),
    minDeliveryDays: z.int().nullable(),
    maxDeliveryDays: z.int().nullable(),
    amount: Amount.openapi({ description: 'What this method charges the cart, in major units of the cart currency.' }),
  })
  .openapi('CartShippingOption');

export const CART_NOTICE_CODES = ['coupon_removed', 'line_removed', 'currency_changed', 'shipping_method_removed'] as const;

export const CartNoticeSchema = z
  .object({ code: z.enum(CART_NOTICE_CODES), message: z.string() })
  .openapi('CartNotice', { description: 'Something the server changed in the cart because it could no longer stand, and why.' });

export const AppliedGiftCardSchema = z
  .object({
    id: z.string().openapi({ example: 'gc_01JD0000000000000000000000' }),
    last4: z.string().openapi({ description: 'The last four characters of its code.', example: 'Q7XM' }),
    balance: z.number().openapi({ description: 'What is on it now, in major units of the cart currency.' }),
    amount: z.number().openapi({ description: 'What it would pay of this cart at checkout: its balance, up to what the cards before it left.' }),
    problem: z.string().nullable().openapi({ description: 'Why it would pay nothing now (disabled, expired, another currency, empty); null when it can pay.' }),
  })
  .openapi('AppliedGiftCard');

export const CartSchema = z
  .object({
    id: z.string(),
    status: z.enum(CART_STATUSES).openapi({
      description:
        '`active`; `abandoned` once it has had lines and a contact email and no change for CART_ABANDONED_AFTER_MINUTES (any change makes it `active` again); `converted` once checked out.',
    }),
    customerId: z.string().nullable(),
    email: z.string().nullable(),
    currency: z.string(),
    pricesIncludeTax: z.boolean().openapi({
      description:
        "Whether the cart's prices include tax (the currency's `pricesIncludeTax`, else the store's): then the shopper pays the listed prices with tax inside; else tax is added at the shipping address's rates.",
    }),
    couponCode: z.string().nullable().openapi({ description: "The code entered (POST /api/carts/{id}/coupon): a coupon's or a promotion's; null: none." }),
    shippingAddress: PostalAddress.nullable().openapi({ description: "The cart's, or else (a customer's active cart) the customer's default shipping address. Tax follows it." }),
    billingAddress: PostalAddress.nullable().openapi({ description: "The cart's, or else (a customer's active cart) the customer's default billing address." }),
    lines: z.array(CartLineSchema),
    promotions: z.array(AppliedPromotionSchema).openapi({
      description:
        "Every promotion (and the code's coupon) that applies to the cart now, in the order applied, with what it takes off in all (`shippingAmount`: off shipping); the lines show their share. Checkout applies them again from that moment's prices (docs/promotions.md).",
    }),
    shippingMethod: OrderShippingMethodSchema.nullable().openapi({
      description:
        'What `totals.shippingTotal` charges: the method chosen (`shippingMethodId`), else the cheapest of the shipping options. ' +
        'null when the store has no shipping zones, or no method serves the cart (checkout then answers 422 SHIPPING_UNAVAILABLE). ' +
        'Without a shipping address the rest-of-world zone prices the cart, an estimate until the address is known.',
    }),
    shippingMethodChosen: z.boolean().openapi({ description: 'true when the shopper chose `shippingMethod`; false when it is the cheapest, picked by default.' }),
    totals: CartTotalsSchema,
    giftCards: z.array(AppliedGiftCardSchema).openapi({ description: 'Gift cards applied (`POST /api/carts/{id}/gift-cards`), in the order they pay at checkout.' }),
    amountDue: z
      .number()
      .openapi({ description: '`totals.total` less what the applied gift cards would pay: what is left to pay by another provider after checkout.', example: 12.5 }),
    notices: z.array(CartNoticeSchema),
    orderId: z.string().nullable().openapi({ description: 'The order a converted cart became.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Cart');
export type Cart = z.infer<typeof CartSchema>;

export const NewCartSchema = CartSchema.extend({
  token: z
    .string()
    .optional()
    .openapi({ description: 'Guest carts only, shown this once: send it as `X-Cart-Token` on every call for the cart.', example: `ct_${'a'.repeat(40)}` }),
}).openapi('NewCart');

const Currency = z
  .string()
  .regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code, like USD')
  .transform((code) => code.toUpperCase())
  .openapi({ example: 'USD', description: 'An enabled currency of the store; its default when absent.' });

export const CreateCartBody = z
  .strictObject({
    currency: Currency.optional(),
    email: Email.optional(),
    customerId: z.string().min(1).max(100).optional().openapi({ description: 'Staff only (`carts:write` or `orders:write`): create (or get) the active cart of this customer.' }),
  })
  .openapi('CreateCart');

export const UpdateCartBody = z
  .strictObject({
    email: Email.nullable().optional(),
    currency: Currency.optional(),
    shippingAddress: PostalAddress.nullable()
      .optional()
      .openapi({ description: "Tax follows this address. Without one, a customer's cart uses the customer's default shipping address." }),
    billingAddress: PostalAddress.nullable().optional(),
    shippingMethodId: z
      .string()
      .min(1)
      .max(200)
      .nullable()
      .optional()
      .openapi({
        description:
          "One of the cart's shipping options (`GET /api/carts/{id}/shipping-options`; 422 SHIPPING_UNAVAILABLE otherwise); null goes back to the cheapest. " +
          'Checked against the address in the same request when both are given.',
        example: 'smeth_01JD0000000000000000000000',
      }),
  })
  .openapi('UpdateCart');

const Quantity = z.int().min(1).max(MAX_LINE_QUANTITY);

export const AddLineBody = z
  .strictObject({
    variantId: z.string().min(1).max(100).openapi({ example: 'var_01JD0000000000000000000000' }),
    quantity: Quantity.openapi({ description: 'Added to the line of the same variant when the cart has one.' }),
  })
  .openapi('AddCartLine');

export const UpdateLineBody = z
  .strictObject({ quantity: z.int().min(0).max(MAX_LINE_QUANTITY).openapi({ description: 'The new quantity; 0 removes the line.' }) })
  .openapi('UpdateCartLine');

export const ApplyCouponBody = z.strictObject({ code: z.string().trim().min(1).max(100).openapi({ example: 'SUMMER10' }) }).openapi('ApplyCoupon');

export const CheckoutBody = z
  .strictObject({
    email: Email.optional().openapi({ description: "Overrides the cart's email for this order; a guest cart needs one here or on the cart." }),
    shippingAddress: PostalAddress.optional(),
    billingAddress: PostalAddress.optional(),
    notes: z.string().trim().max(2000).optional(),
  })
  .openapi('Checkout');

export type CreateCartInput = z.infer<typeof CreateCartBody>;
export type UpdateCartInput = z.infer<typeof UpdateCartBody>;
export type CheckoutInput = z.infer<typeof CheckoutBody>;

export const ApplyGiftCardBody = z.strictObject({ code: GiftCardCode }).openapi('ApplyGiftCard');
