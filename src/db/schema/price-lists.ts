import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { productVariants } from './catalogue';
import { users } from './identity';
import { currencies } from './commerce';

// Customer groups and the price lists that give them (or every signed-in customer) their own prices
// (src/modules/price-lists/price-list-prices.ts says which price applies).

/** A set of customers (wholesale, staff, VIP) that price lists, and promotions, are for. */
export const customerGroups = sqliteTable('customer_groups', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  description: text('description'),
  ...timestamps,
});

/** A customer in a group; a customer may be in several. Goes with either side. */
export const customerGroupMembers = sqliteTable(
  'customer_group_members',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => customerGroups.id, { onDelete: 'cascade' }),
    customerId: text('customer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.customerId] }), index('customer_group_members_customer_idx').on(t.customerId, t.groupId)],
);

export const PRICE_LIST_STATUSES = ['active', 'draft'] as const;
export type PriceListStatus = (typeof PRICE_LIST_STATUSES)[number];

/**
 * Prices of variants in one currency for one customer group, or for every signed-in customer (no
 * group), from `startsAt` until `endsAt` (either null: open). Only `active` lists apply. When several
 * lists price a variant for a customer, the lowest applicable price wins, and never above the public price.
 */
export const priceLists = sqliteTable(
  'price_lists',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    customerGroupId: text('customer_group_id').references(() => customerGroups.id, { onDelete: 'restrict' }),
    /** ISO 4217 code of one of the store's currencies; the amounts are its minor units, so a deleted currency takes its lists. */
    currency: text('currency')
      .notNull()
      .references(() => currencies.code, { onDelete: 'cascade' }),
    status: text('status', { enum: PRICE_LIST_STATUSES }).notNull().default('draft'),
    startsAt: text('starts_at'),
    endsAt: text('ends_at'),
    ...timestamps,
  },
  (t) => [index('price_lists_group_idx').on(t.customerGroupId)],
);

/** A price-list price of a variant from `minQuantity` units a line up, in minor units of the list's currency. */
export const priceListPrices = sqliteTable(
  'price_list_prices',
  {
    priceListId: text('price_list_id')
      .notNull()
      .references(() => priceLists.id, { onDelete: 'cascade' }),
    variantId: text('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    minQuantity: integer('min_quantity').notNull().default(1),
    amount: integer('amount').notNull(),
  },
  (t) => [primaryKey({ columns: [t.priceListId, t.variantId, t.minQuantity] }), index('price_list_prices_variant_idx').on(t.variantId, t.priceListId)],
);

export type CustomerGroupRow = typeof customerGroups.$inferSelect;
export type PriceListRow = typeof priceLists.$inferSelect;
export type PriceListPriceRow = typeof priceListPrices.$inferSelect;
