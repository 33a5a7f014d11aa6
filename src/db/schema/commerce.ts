import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { now, timestamps } from './columns';
import { productVariants, products } from './catalogue';
import { users } from './identity';

// ---------------------------------------------------------------------------------------------
// Commerce: settings, currencies, taxes, coupons, carts, orders, payments, shipments, inventory.
// Money columns are integer minor units of the row's currency; rates are exact decimal text.

export const WEIGHT_UNITS = ['g', 'kg', 'oz', 'lb'] as const;
export type WeightUnit = (typeof WEIGHT_UNITS)[number];

/** The store's settings: one row, id 'store', created by a migration and only ever updated. */
export const storeSettings = sqliteTable('store_settings', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  contactEmail: text('contact_email'),
  /** Catalogue prices are in this currency (ISO 4217 code of a row in `currencies`). */
  defaultCurrency: text('default_currency').notNull(),
  weightUnit: text('weight_unit', { enum: WEIGHT_UNITS }).notNull().default('kg'),
  /** Catalogue prices include tax (EU, UK) rather than have it added at checkout (US); a currency may say otherwise. */
  pricesIncludeTax: integer('prices_include_tax', { mode: 'boolean' }).notNull().default(false),
  /** Days after delivery (or shipping, or placement, whichever is known last) a customer may ask to return lines; staff may any time. */
  returnWindowDays: integer('return_window_days').notNull().default(30),
  /** Stock at or below this emits `inventory.low`, unless the variant or product sets its own. */
  lowStockThreshold: integer('low_stock_threshold').notNull().default(5),
  /**
   * Retired: read once, by migration 0050, into the "Standard" shipping method, which the deprecated
   * settings fields of these names now read and write (src/modules/settings/legacy-shipping-settings.ts).
   */
  shippingFlatRate: integer('shipping_flat_rate').notNull().default(0),
  /** Retired with shippingFlatRate. */
  freeShippingThreshold: integer('free_shipping_threshold'),
  /**
   * Web origins whose pages may call the API from the browser (CORS, src/middleware/cors.ts): exact
   * origins (`https://shop.example`) or one wildcard label (`https://*.shop.example`). `CORS_ORIGINS`
   * in the environment adds to them.
   */
  allowedOrigins: text('allowed_origins', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
  /** The API version (src/versions/) a request is answered in when neither its header nor its key names one. */
  apiVersion: text('api_version').notNull().default('2026-11-20'),
  updatedAt: text('updated_at').notNull().default(now),
});

export const currencies = sqliteTable('currencies', {
  /** ISO 4217 code, upper case: `USD`. */
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  symbol: text('symbol').notNull(),
  /** Digits of the minor unit: 2 for USD, 0 for JPY, 3 for KWD. */
  minorUnits: integer('minor_units').notNull().default(2),
  /** Units of this currency per unit of the default currency, as exact decimal text (`0.92`). */
  exchangeRate: text('exchange_rate').notNull().default('1'),
  /** Whether prices in this currency include tax; null follows the store's `pricesIncludeTax`. */
  pricesIncludeTax: integer('prices_include_tax', { mode: 'boolean' }),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
  ...timestamps,
});

/**
 * Kinds of goods taxed at their own rates (standard, reduced, zero, and the store's own). `standard`
 * always exists; `zero` is never taxed. Products name one by `code` (products.tax_class).
 */
export const taxClasses = sqliteTable('tax_classes', {
  /** Lower-case slug: `standard`, `reduced`, `books`. */
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  ...timestamps,
});

export const taxRates = sqliteTable(
  'tax_rates',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** ISO 3166-1 alpha-2. */
    country: text('country').notNull(),
    /** A region (state, province) code within the country; null applies to the whole country. */
    region: text('region'),
    /** Percent as exact decimal text (`19`, `8.875`). */
    rate: text('rate').notNull(),
    /** The tax class this rate is for (code of a row of tax_classes; its rates go with it). */
    taxClass: text('tax_class').notNull().default('standard'),
    shippingTaxable: integer('shipping_taxable', { mode: 'boolean' }).notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex('tax_rates_place_class_idx').on(t.country, sql`coalesce(${t.region}, '')`, t.taxClass)],
);

/**
 * The rate of a shipping method, in minor units of the default currency (weights in the store's
 * weightUnit). Exactly one kind; src/modules/checkout/shipping-rates.ts prices a cart by it.
 */
export type ShippingRate =
  | { type: 'flat'; amount: number }
  | { type: 'weight'; bands: { upTo: number | null; amount: number }[] }
  | { type: 'price'; bands: { from: number; amount: number }[] };

/**
 * Where a store ships: countries, regions (`US-CA`) and postcode patterns (src/modules/checkout/shipping-zones.ts
 * says which zone serves an address). At most one zone is the rest of the world (a partial unique index).
 */
export const shippingZones = sqliteTable(
  'shipping_zones',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** ISO 3166-1 alpha-2, upper case. */
    countries: text('countries', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    /** ISO 3166-2 codes, upper case (`US-CA`). */
    regions: text('regions', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    /** Postcode patterns, upper case without spaces: exact (`10115`) or prefix (`10*`). */
    postcodes: text('postcodes', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    restOfWorld: integer('rest_of_world', { mode: 'boolean' }).notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex('shipping_zones_rest_of_world_idx').on(t.restOfWorld).where(sql`${t.restOfWorld} = 1`)],
);

export const shippingMethods = sqliteTable(
  'shipping_methods',
  {
    id: text('id').primaryKey(),
    zoneId: text('zone_id')
      .notNull()
      .references(() => shippingZones.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    carrier: text('carrier'),
    minDeliveryDays: integer('min_delivery_days'),
    maxDeliveryDays: integer('max_delivery_days'),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    position: integer('position').notNull().default(0),
    rate: text('rate', { mode: 'json' }).$type<ShippingRate>().notNull(),
    /** Minor units of the default currency: a discounted subtotal at or above it ships free; null for never. */
    freeAbove: integer('free_above'),
    /** The rate and threshold in other currencies, set by the shop (minor units of that currency); others are converted. */
    currencyRates: text('currency_rates', { mode: 'json' }).$type<Record<string, { rate: ShippingRate; freeAbove: number | null }>>().notNull().default(sql`'{}'`),
    ...timestamps,
  },
  (t) => [index('shipping_methods_zone_idx').on(t.zoneId, t.position)],
);

export const COUPON_TYPES = ['percentage', 'fixed'] as const;

/**
 * Deprecated: emptied by migration 0070, which made every coupon a `promotions` row (`is_coupon`)
 * that /api/coupons now reads and writes. Kept only because dropping it needs `orders` rebuilt
 * (orders.coupon_id refers to it); dropped in a later release. Nothing reads or writes it.
 */
export const coupons = sqliteTable(
  'coupons',
  {
    id: text('id').primaryKey(),
    /** Stored upper case; matched case-insensitively. */
    code: text('code').notNull().unique(),
    description: text('description'),
    type: text('type', { enum: COUPON_TYPES }).notNull(),
    /** Percent as exact decimal text for `percentage`; minor units of the default currency for `fixed`. */
    value: text('value').notNull(),
    /** Minimum subtotal in minor units of the default currency. */
    minSubtotal: integer('min_subtotal'),
    /** A fixed coupon's amount and minimum subtotal in other currencies, set by the shop (minor units of that currency); others are converted. */
    currencyAmounts: text('currency_amounts', { mode: 'json' }).$type<Record<string, { value: number; minSubtotal: number | null }>>().notNull().default(sql`'{}'`),
    startsAt: text('starts_at'),
    endsAt: text('ends_at'),
    usageLimit: integer('usage_limit'),
    usageLimitPerCustomer: integer('usage_limit_per_customer'),
    /** Orders that used the coupon; a trigger refuses to raise it past `usage_limit`. */
    timesUsed: integer('times_used').notNull().default(0),
    /** When non-empty, only lines of these products (or of products in these categories) are discounted. */
    productIds: text('product_ids', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    categoryIds: text('category_ids', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    ...timestamps,
  },
  (t) => [index('coupons_created_idx').on(t.createdAt, t.id)],
);

/** Deprecated with `coupons` (emptied by migration 0070 into promotion_usages; dropped in a later release). */
export const couponUsages = sqliteTable(
  'coupon_usages',
  {
    id: text('id').primaryKey(),
    couponId: text('coupon_id')
      .notNull()
      .references(() => coupons.id, { onDelete: 'cascade' }),
    orderId: text('order_id').notNull(),
    /** The customer, or for a guest order `email:<address>`, so per-customer limits hold for guests too. */
    customerKey: text('customer_key').notNull(),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [index('coupon_usages_customer_idx').on(t.couponId, t.customerKey)],
);

/** A postal address as carts and orders keep it (a copy, so later edits of the customer's book do not change orders). */
export interface PostalAddress {
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  line1: string;
  line2?: string | null;
  city: string;
  region?: string | null;
  postalCode?: string | null;
  country: string;
  phone?: string | null;
}

/** `abandoned`: idle with lines and a contact email past CART_ABANDONED_AFTER_MINUTES (src/modules/carts/abandonment.ts); used again, it is `active` once more. */
export const CART_STATUSES = ['active', 'abandoned', 'converted'] as const;

export const carts = sqliteTable(
  'carts',
  {
    id: text('id').primaryKey(),
    /** SHA-256 of the guest cart token (shown once at creation); null for a customer's cart. */
    tokenHash: text('token_hash').unique(),
    customerId: text('customer_id').references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    currency: text('currency').notNull(),
    /** Deprecated: always null since migration 0070 (a coupon is a promotion: `promotion_id`). */
    couponId: text('coupon_id').references(() => coupons.id, { onDelete: 'set null' }),
    /** The promotion (a coupon too) whose code the shopper entered (promotions.id). Not a foreign key (commerce sits below promotions): a deleted one is no longer found, and the code goes. */
    promotionId: text('promotion_id'),
    shippingAddress: text('shipping_address', { mode: 'json' }).$type<PostalAddress>(),
    billingAddress: text('billing_address', { mode: 'json' }).$type<PostalAddress>(),
    /** The shipping method the shopper chose; null: the cheapest that serves the cart. Not a foreign key: a deleted choice is reported, not forgotten. */
    shippingMethodId: text('shipping_method_id'),
    status: text('status', { enum: CART_STATUSES }).notNull().default('active'),
    orderId: text('order_id'),
    /** When the cart was first found abandoned (kept once it is used again: a later order is recovered revenue). */
    abandonedAt: text('abandoned_at'),
    ...timestamps,
  },
  (t) => [index('carts_customer_idx').on(t.customerId, t.status), index('carts_status_updated_idx').on(t.status, t.updatedAt)],
);

export const cartLines = sqliteTable(
  'cart_lines',
  {
    id: text('id').primaryKey(),
    cartId: text('cart_id')
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    variantId: text('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('cart_lines_variant_idx').on(t.cartId, t.variantId)],
);

/**
 * A way back into an abandoned cart, sent in its reminder email (src/modules/carts/recovery.ts). The
 * link's token is never stored: it is derived from this row's id with JWT_SECRET, so the row, the
 * event and the message log are worth nothing without the secret. Redeemed once, within its time.
 */
export const cartRecoveries = sqliteTable(
  'cart_recoveries',
  {
    id: text('id').primaryKey(),
    cartId: text('cart_id')
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
    expiresAt: text('expires_at').notNull(),
    usedAt: text('used_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('cart_recoveries_cart_idx').on(t.cartId)],
);
export type CartRecoveryRow = typeof cartRecoveries.$inferSelect;

export const ORDER_STATUSES = ['pending', 'processing', 'shipped', 'completed', 'cancelled', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** A promotion as an order keeps it (orders.promotions); amounts in the order's minor units. */
export interface OrderPromotion {
  promotionId: string;
  name: string;
  code: string | null;
  amount: number;
  shippingAmount: number;
}

export const orders = sqliteTable(
  'orders',
  {
    id: text('id').primaryKey(),
    /**
     * The short number customers see (`#1001`): the next after the highest, from ORDER_NUMBER_START,
     * assigned by the INSERT itself inside the order's batch (place-order.ts), so concurrent orders
     * never share or skip one. Every order has one (migration 0039 numbered the older ones).
     */
    number: integer('number'),
    /** 1 when the customer (its account, or a guest's email) had no other order, not cancelled, when this one was placed: the reports' new customers. */
    firstOrder: integer('first_order', { mode: 'boolean' }).notNull().default(false),
    /** The customer's account; null for a guest order, which has `email` only. */
    customerId: text('customer_id').references(() => users.id, { onDelete: 'restrict' }),
    email: text('email').notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('pending'),
    currency: text('currency').notNull(),
    /** The currency's minor-unit digits when the order was placed, so its amounts read the same forever. */
    minorUnits: integer('minor_units').notNull(),
    subtotal: integer('subtotal').notNull(),
    discountTotal: integer('discount_total').notNull().default(0),
    shippingTotal: integer('shipping_total').notNull().default(0),
    taxTotal: integer('tax_total').notNull().default(0),
    /** Whether the order's prices included tax (then `total` does not add `tax_total`). */
    pricesIncludeTax: integer('prices_include_tax', { mode: 'boolean' }).notNull().default(false),
    /** The part of `tax_total` charged on shipping, and its rate (percent as decimal text; null: shipping untaxed). */
    shippingTax: integer('shipping_tax').notNull().default(0),
    shippingTaxRate: text('shipping_tax_rate'),
    total: integer('total').notNull(),
    amountPaid: integer('amount_paid').notNull().default(0),
    amountRefunded: integer('amount_refunded').notNull().default(0),
    /** Deprecated: null since migration 0070 emptied `coupons` (not in the API); the code applied is `coupon_code`. */
    couponId: text('coupon_id').references(() => coupons.id, { onDelete: 'set null' }),
    couponCode: text('coupon_code'),
    /** Every promotion (and the coupon) the order applied, as it was: `amount` off the lines and shipping together, `shippingAmount` the part off shipping. */
    promotions: text('promotions', { mode: 'json' }).$type<OrderPromotion[]>().notNull().default(sql`'[]'`),
    /** The shipping method as it was when the order was placed (never read again from shipping_methods); its amount is `shipping_total`. */
    shippingMethodId: text('shipping_method_id'),
    shippingMethodName: text('shipping_method_name'),
    shippingMethodCarrier: text('shipping_method_carrier'),
    shippingAddress: text('shipping_address', { mode: 'json' }).$type<PostalAddress>(),
    billingAddress: text('billing_address', { mode: 'json' }).$type<PostalAddress>(),
    notes: text('notes'),
    cartId: text('cart_id'),
    cancelledAt: text('cancelled_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('orders_number_unique').on(t.number),
    index('orders_email_idx').on(t.email),
    index('orders_created_idx').on(t.createdAt, t.id),
    index('orders_status_created_idx').on(t.status, t.createdAt, t.id),
    index('orders_customer_created_idx').on(t.customerId, t.createdAt),
  ],
);

export const orderLines = sqliteTable(
  'order_lines',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** Kept as plain ids: an order outlives the products it sold. */
    productId: text('product_id').notNull(),
    variantId: text('variant_id').notNull(),
    /** The product's vendor at the time of sale, so vendors see the lines that are theirs. */
    vendorId: text('vendor_id'),
    name: text('name').notNull(),
    sku: text('sku'),
    options: text('options', { mode: 'json' }).$type<Record<string, string>>().notNull().default(sql`'{}'`),
    quantity: integer('quantity').notNull(),
    unitPrice: integer('unit_price').notNull(),
    subtotal: integer('subtotal').notNull(),
    discount: integer('discount').notNull().default(0),
    /** The promotions (and coupon) that made up `discount`, as they were when the order was placed. */
    promotions: text('promotions', { mode: 'json' }).$type<{ promotionId: string; name: string; amount: number }[]>().notNull().default(sql`'[]'`),
    tax: integer('tax').notNull().default(0),
    /** The percent `tax` was charged at (decimal text), and the product's tax class then; null rate: untaxed. */
    taxRate: text('tax_rate'),
    taxClass: text('tax_class'),
    total: integer('total').notNull(),
    quantityShipped: integer('quantity_shipped').notNull().default(0),
    quantityDelivered: integer('quantity_delivered').notNull().default(0),
    /** Units in returns not rejected or cancelled; a trigger keeps it at or below `quantity`. */
    quantityReturned: integer('quantity_returned').notNull().default(0),
    /** Units refunded by line (refund_lines); a trigger keeps it at or below `quantity`. */
    quantityRefunded: integer('quantity_refunded').notNull().default(0),
  },
  (t) => [index('order_lines_order_idx').on(t.orderId), index('order_lines_vendor_idx').on(t.vendorId, t.orderId)],
);

/** Every status an order has been in, with who moved it and why. */
export const orderStatusHistory = sqliteTable(
  'order_status_history',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status', { enum: ORDER_STATUSES }),
    toStatus: text('to_status', { enum: ORDER_STATUSES }).notNull(),
    /** `user:<id>`, `key:<id>`, `guest:<cartId>` (a guest checkout) or `system`. */
    actor: text('actor').notNull(),
    note: text('note'),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [index('order_status_history_order_idx').on(t.orderId, t.createdAt)],
);

export const PAYMENT_STATUSES = ['pending', 'completed', 'failed', 'partially_refunded', 'refunded'] as const;

export const payments = sqliteTable(
  'payments',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    provider: text('provider').notNull(),
    providerReference: text('provider_reference'),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull(),
    amount: integer('amount').notNull(),
    amountRefunded: integer('amount_refunded').notNull().default(0),
    currency: text('currency').notNull(),
    failureReason: text('failure_reason'),
    /** The provider-specific input of the request (`details`), kept so the charge can be asked again with the same key. */
    providerInput: text('provider_input', { mode: 'json' }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    /** A hash of the caller and its Idempotency-Key: a retried request resumes this payment instead of starting another. */
    requestKey: text('request_key'),
    /** The status of a dispute (chargeback) opened on the payment at the provider, if any. */
    disputeStatus: text('dispute_status'),
    ...timestamps,
  },
  (t) => [
    index('payments_order_idx').on(t.orderId, t.createdAt),
    index('payments_created_idx').on(t.createdAt, t.id),
    uniqueIndex('payments_request_key_idx').on(t.requestKey),
    // The provider's events name its own ids (a PaymentIntent's), not ours.
    index('payments_provider_reference_idx').on(t.providerReference),
    index('payments_pending_idx').on(t.updatedAt).where(sql`${t.status} = 'pending'`),
  ],
);

export const REFUND_STATUSES = ['pending', 'completed', 'failed'] as const;

export const refunds = sqliteTable(
  'refunds',
  {
    id: text('id').primaryKey(),
    paymentId: text('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    orderId: text('order_id').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    reason: text('reason'),
    /** Where the money went: back to the payment, to the customer's store credit, or to the order a return was exchanged for. */
    destination: text('destination', { enum: ['payment', 'store_credit', 'exchange'] })
      .notNull()
      .default('payment'),
    /** The return this refund settles, if any. */
    returnId: text('return_id'),
    /** The part of `amount` that refunds shipping (minor units). */
    shippingAmount: integer('shipping_amount').notNull().default(0),
    providerReference: text('provider_reference'),
    /** `pending` from before the provider is asked until its answer is recorded; only `completed` refunds count in the amounts. */
    status: text('status', { enum: REFUND_STATUSES }).notNull().default('completed'),
    failureReason: text('failure_reason'),
    /** A hash of the caller and its Idempotency-Key: a retried request resumes this refund instead of refunding again. */
    requestKey: text('request_key'),
    ...timestamps,
  },
  (t) => [
    index('refunds_payment_idx').on(t.paymentId, t.createdAt),
    uniqueIndex('refunds_request_key_idx').on(t.requestKey),
    index('refunds_provider_reference_idx').on(t.providerReference),
    index('refunds_pending_idx').on(t.updatedAt).where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * Events a payment provider sent to its webhook (Stripe's `evt_…`), recorded once handled, so a
 * redelivered event is answered without being handled again.
 */
export const providerEvents = sqliteTable(
  'provider_events',
  {
    provider: text('provider').notNull(),
    id: text('id').notNull(),
    type: text('type').notNull(),
    handledAt: text('handled_at').notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.provider, t.id] }), index('provider_events_handled_idx').on(t.handledAt)],
);

export const SHIPMENT_STATUSES = ['pending', 'shipped', 'delivered'] as const;

export const shipments = sqliteTable(
  'shipments',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    carrier: text('carrier'),
    /** The shipping method it goes by (the order's by default); an id as the order keeps it, not a foreign key. */
    shippingMethodId: text('shipping_method_id'),
    trackingNumber: text('tracking_number'),
    trackingUrl: text('tracking_url'),
    status: text('status', { enum: SHIPMENT_STATUSES }).notNull().default('pending'),
    shippedAt: text('shipped_at'),
    deliveredAt: text('delivered_at'),
    ...timestamps,
  },
  (t) => [index('shipments_order_idx').on(t.orderId, t.createdAt)],
);

export const shipmentLines = sqliteTable(
  'shipment_lines',
  {
    shipmentId: text('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    orderLineId: text('order_line_id')
      .notNull()
      .references(() => orderLines.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
  },
  (t) => [primaryKey({ columns: [t.shipmentId, t.orderLineId] })],
);

export const INVENTORY_REASONS = ['order', 'cancellation', 'restock', 'correction', 'damage', 'return'] as const;

/** The history of every stock change: orders, cancellations and manual adjustments. */
export const inventoryAdjustments = sqliteTable(
  'inventory_adjustments',
  {
    id: text('id').primaryKey(),
    variantId: text('variant_id').notNull(),
    productId: text('product_id').notNull(),
    delta: integer('delta').notNull(),
    reason: text('reason', { enum: INVENTORY_REASONS }).notNull(),
    note: text('note'),
    orderId: text('order_id'),
    /** `user:<id>`, `key:<id>`, `guest:<cartId>` (a guest checkout) or `system`. */
    actor: text('actor').notNull(),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [index('inventory_adjustments_variant_idx').on(t.variantId, t.createdAt)],
);

/**
 * Responses remembered for `Idempotency-Key`: a repeat of the same request by the same principal
 * within 24 hours gets the stored response; the same key with another body is 409.
 */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    /** The principal (`key:<id>`, `user:<id>`, `anon:<ip>`) and the client's key. */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    /** SHA-256 of the request body. */
    requestHash: text('request_hash').notNull(),
    /** Null while the first request is still being processed. */
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

export type StoreSettingsRow = typeof storeSettings.$inferSelect;
export type CurrencyRow = typeof currencies.$inferSelect;
export type TaxRateRow = typeof taxRates.$inferSelect;
export type TaxClassRow = typeof taxClasses.$inferSelect;
export type ShippingZoneRow = typeof shippingZones.$inferSelect;
export type ShippingMethodRow = typeof shippingMethods.$inferSelect;
export type CouponRow = typeof coupons.$inferSelect;
export type CartRow = typeof carts.$inferSelect;
export type CartLineRow = typeof cartLines.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;
export type ShipmentRow = typeof shipments.$inferSelect;
export type InventoryAdjustmentRow = typeof inventoryAdjustments.$inferSelect;
