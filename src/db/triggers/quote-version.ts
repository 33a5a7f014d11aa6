import type { TriggerEvent } from './trigger-sql';
import { EVERY_WRITE, type VersionBumps } from './version-bumps';

/**
 * Tables whose writes bump `quote_version` (migrations/0021): whatever an order's quote reads
 * (readQuoteInputs, src/modules/checkout/quote.ts) except stock. Isolates keep those inputs per version
 * (src/modules/checkout/quote-inputs.ts) and an order's batch asserts the version still holds, so a
 * pricing input without its bump prices orders from stale inputs, silently.
 * test/d1/quote-version-inputs.test.ts runs readQuoteInputs, reads which tables it read, and fails
 * on one whose inserts, updates or deletes bump nothing in the migrated database, unless
 * QUOTE_INPUTS_WITHOUT_BUMP below says why that write needs none.
 */
export const QUOTE_VERSION_BUMPS: Record<string, VersionBumps> = {
  products: {
    why: "a line's product name, status, vendor and tax class; its brand, for promotions limited to brands (migrations/0065)",
    bumps: [{ on: 'UPDATE', of: ['id', 'name', 'status', 'vendor_id', 'tax_class'] }, { on: 'DELETE' }, { on: 'UPDATE', of: ['brand_id'], suffix: 'brand' }],
  },
  product_variants: {
    why: "a line's variant: its name, SKU, options, price, weight and own currency prices; not its stock, which orders reserve in their batch",
    bumps: [{ on: 'UPDATE', of: ['id', 'product_id', 'name', 'sku', 'options', 'price', 'weight', 'prices'] }, { on: 'DELETE' }],
  },
  store_settings: { why: 'the default currency and whether prices include tax; the row is read whole and kept with the quote', bumps: [{ on: 'UPDATE', suffix: '' }] },
  currencies: { why: 'the currency a quote prices in: its rate, digits and whether it is enabled', bumps: EVERY_WRITE },
  tax_rates: { why: "the tax rates of the shipping address's country and region (migrations/0052)", bumps: EVERY_WRITE },
  shipping_zones: { why: 'the zone that serves the address (migrations/0050)', bumps: EVERY_WRITE },
  shipping_methods: { why: "the zone's methods and their rates (migrations/0050)", bumps: EVERY_WRITE },
  promotions: {
    why: "the automatic promotions and the code's; not an order's use (times_used), which the order's batch enforces, unless a cancelled order gives back the last use of a used-up one (migrations/0069)",
    bumps: [
      { on: 'INSERT' },
      {
        on: 'UPDATE',
        of: [
          ...['id', 'name', 'code', 'type', 'value', 'currency_amounts', 'target', 'buy_x_get_y', 'free_shipping', 'min_subtotal', 'min_quantity', 'include', 'exclude'],
          ...[
            'customer_group_ids',
            'currencies',
            'starts_at',
            'ends_at',
            'usage_limit',
            'per_customer_limit',
            'priority',
            'combines_with_promotions',
            'combines_with_codes',
            'active',
          ],
        ],
      },
      { on: 'DELETE' },
      {
        on: 'UPDATE',
        of: ['times_used'],
        when: 'NEW.`usage_limit` IS NOT NULL AND NEW.`times_used` < OLD.`times_used` AND OLD.`times_used` >= NEW.`usage_limit`',
        suffix: 'use_given_back',
      },
    ],
  },
  product_categories: { why: "the lines' categories, for promotions limited to some (migrations/0065)", bumps: EVERY_WRITE },
  categories: {
    why: "the categories' ancestors, for promotions limited to a parent category (migrations/0065)",
    bumps: [{ on: 'UPDATE', of: ['parent_id'], suffix: 'parent' }],
  },
  price_lists: { why: 'what a signed-in customer pays by price lists (migrations/0062)', bumps: EVERY_WRITE, withOtherVersion: true },
  price_list_prices: { why: 'what a signed-in customer pays by price lists (migrations/0062)', bumps: EVERY_WRITE, withOtherVersion: true },
  customer_group_members: {
    why: "a customer's groups: their price lists, and promotions limited to groups (migrations/0062)",
    bumps: EVERY_WRITE,
    withOtherVersion: true,
  },
};

/** Tables a quote reads whose writes (some or all) need no quote_version bump, and why, by write. */
export const QUOTE_INPUTS_WITHOUT_BUMP: Record<string, Partial<Record<TriggerEvent, string>>> = {
  quote_version: { INSERT: 'the version itself', UPDATE: 'the version itself', DELETE: 'the version itself' },
  products: { INSERT: 'a new product is in no kept input: kept variants are found by id, and one not kept is read afresh' },
  product_variants: { INSERT: 'a new variant is in no kept input: kept variants are found by id, and one not kept is read afresh' },
  store_settings: { INSERT: 'one row, made by migration 0005, never inserted again', DELETE: 'one row, never deleted' },
  categories: {
    INSERT: 'categories are read only as the ancestors of product links (product_categories, which bump): a new category has none',
    DELETE: "a deleted category's links go first (categories_tree_delete_links), and their deletes bump",
  },
  promotion_usages: {
    INSERT: "a customer's uses are never kept (kept inputs count none); the order's batch enforces the per-customer limit (promotion_usages_customer_guard)",
    UPDATE: "a customer's uses are never kept (kept inputs count none)",
    DELETE: "a customer's uses are never kept (kept inputs count none)",
  },
};
