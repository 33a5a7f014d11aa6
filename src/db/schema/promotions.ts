import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { now, timestamps } from './columns';

// Promotions: money off a cart, automatic or by code (docs/promotions.md). The engine that applies
// them is src/modules/checkout/promotion-engine.ts; a row becomes its `Promotion` in promotion-row.ts.

export const PROMOTION_TYPES = ['percentage', 'fixed', 'buy_x_get_y', 'free_shipping'] as const;
export const PROMOTION_TARGETS = ['order', 'items'] as const;

/** Products by id, category (with its subcategories) or brand; empty lists: every product. */
export interface StoredProductSet {
  productIds: string[];
  categoryIds: string[];
  brandIds: string[];
}

export const promotions = sqliteTable(
  'promotions',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    /** Upper case; null: automatic. Unique among promotions, coupons included. */
    code: text('code').unique(),
    type: text('type', { enum: PROMOTION_TYPES }).notNull(),
    /** Percent as exact decimal text for `percentage`; minor units of the default currency for `fixed`; '0' otherwise. */
    value: text('value').notNull().default('0'),
    /** A fixed promotion's amount and minimum subtotal in other currencies (minor units of that currency). */
    currencyAmounts: text('currency_amounts', { mode: 'json' }).$type<Record<string, { value: number; minSubtotal: number | null }>>().notNull().default(sql`'{}'`),
    target: text('target', { enum: PROMOTION_TARGETS }).notNull().default('order'),
    buyXGetY: text('buy_x_get_y', { mode: 'json' }).$type<{
      buy: StoredProductSet & { quantity: number };
      get: StoredProductSet & { quantity: number; percent: string };
    }>(),
    freeShipping: text('free_shipping', { mode: 'json' }).$type<{ methodIds: string[]; zoneIds: string[] }>(),
    /** Minor units of the default currency. */
    minSubtotal: integer('min_subtotal'),
    minQuantity: integer('min_quantity'),
    include: text('include', { mode: 'json' }).$type<StoredProductSet>().notNull().default(sql`'{"productIds":[],"categoryIds":[],"brandIds":[]}'`),
    exclude: text('exclude', { mode: 'json' }).$type<StoredProductSet>().notNull().default(sql`'{"productIds":[],"categoryIds":[],"brandIds":[]}'`),
    customerGroupIds: text('customer_group_ids', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    currencies: text('currencies', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    startsAt: text('starts_at'),
    endsAt: text('ends_at'),
    usageLimit: integer('usage_limit'),
    perCustomerLimit: integer('per_customer_limit'),
    /** Orders that used the promotion; a trigger refuses to raise it past `usage_limit`. */
    timesUsed: integer('times_used').notNull().default(0),
    priority: integer('priority').notNull().default(0),
    combinesWithPromotions: integer('combines_with_promotions', { mode: 'boolean' }).notNull().default(false),
    combinesWithCodes: integer('combines_with_codes', { mode: 'boolean' }).notNull().default(false),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    /**
     * A coupon: managed through /api/coupons (created there, or a coupon migration 0070 moved here),
     * which keeps a coupon's answers; /api/promotions lists it and refuses to change it.
     */
    isCoupon: integer('is_coupon', { mode: 'boolean' }).notNull().default(false),
    ...timestamps,
  },
  (t) => [index('promotions_created_idx').on(t.createdAt, t.id)],
);

/** One row per order that used a promotion; a trigger enforces `per_customer_limit` on insert. */
export const promotionUsages = sqliteTable(
  'promotion_usages',
  {
    id: text('id').primaryKey(),
    promotionId: text('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    orderId: text('order_id').notNull(),
    /** The customer, or for a guest order `email:<address>`. */
    customerKey: text('customer_key').notNull(),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [index('promotion_usages_customer_idx').on(t.promotionId, t.customerKey)],
);

export type PromotionRow = typeof promotions.$inferSelect;
