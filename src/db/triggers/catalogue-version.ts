import { EVERY_WRITE, type VersionBumps } from './version-bumps';

/**
 * Tables whose writes bump `catalogue_version` (migrations/0007). Public catalogue and content reads
 * answer by it: their ETag, the answers isolates keep and the colo's cache
 * (src/middleware/catalogue-cache.ts, src/d1/catalogue-version.ts). A table a public catalogue read
 * shows must be here, or a kept answer outlives the row it showed. What the clock alone changes (a
 * page or price list whose time comes) is bumped by the one-minute cron (src/lib/scheduled-content.ts).
 */
export const CATALOGUE_VERSION_BUMPS: Record<string, VersionBumps> = {
  products: { why: 'products are what the catalogue shows', bumps: EVERY_WRITE },
  product_variants: { why: 'variants show with their product, their price and stock too (orders decrementing stock included)', bumps: EVERY_WRITE },
  product_categories: { why: "a product's categories, and the category listings it shows in", bumps: EVERY_WRITE },
  categories: { why: 'categories are read on their own and name the listings', bumps: EVERY_WRITE },
  brands: { why: 'brands are read on their own and show on their products', bumps: EVERY_WRITE },
  vendors: { why: 'vendors are read on their own and show on their products', bumps: EVERY_WRITE },
  pages: { why: 'content is kept and served by version like products (migrations/0035)', bumps: EVERY_WRITE },
  menus: { why: 'content is kept and served by version like products (migrations/0035)', bumps: EVERY_WRITE },
  banners: { why: 'content is kept and served by version like products (migrations/0035)', bumps: EVERY_WRITE },
  currencies: { why: 'reads in a currency (`?currency=EUR`) convert at its rate and digits, or refuse a disabled one (migrations/0055)', bumps: EVERY_WRITE },
  store_settings: {
    why: "the default currency decides which prices are a product's own (migrations/0055)",
    bumps: [{ on: 'UPDATE', of: ['default_currency'], suffix: 'currency' }],
  },
  price_lists: { why: "a signed-in customer's kept catalogue answers show price-list prices (migrations/0062)", bumps: EVERY_WRITE, withOtherVersion: true },
  price_list_prices: { why: "a signed-in customer's kept catalogue answers show price-list prices (migrations/0062)", bumps: EVERY_WRITE, withOtherVersion: true },
  customer_group_members: { why: "a customer's groups decide which price lists are theirs (migrations/0062)", bumps: EVERY_WRITE, withOtherVersion: true },
};
