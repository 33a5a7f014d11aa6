import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { ProductStatus } from './catalogue';

/**
 * Every product under every category, as the category filter lists it: one row per (category,
 * product) for each product linked to the category or to any of its descendants (product_categories
 * expanded through category_tree, each pair once), carrying the product's status and sort columns.
 * `?category=x&sort=price:asc` reads its page off `(category_id, status, price, product_id)` and
 * joins those products only, instead of walking every product and probing its links.
 *
 * Derived data kept by triggers (migrations/0017_category_listing.sql) on product_categories,
 * category_tree and products; never written by the application. No foreign keys: the triggers
 * remove rows as their sources go.
 */
export const categoryListing = sqliteTable(
  'category_listing',
  {
    categoryId: text('category_id').notNull(),
    productId: text('product_id').notNull(),
    status: text('status').$type<ProductStatus>().notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    name: text('name').notNull(),
    price: integer('price').notNull(),
    sku: text('sku'),
  },
  (t) => [
    // By product first: what the triggers look up when a product or one of its links changes.
    primaryKey({ columns: [t.productId, t.categoryId] }),
    // One per sortable field of a product list, each ending on the id that breaks ties, walked
    // forwards or backwards for either direction.
    index('category_listing_created_idx').on(t.categoryId, t.status, t.createdAt, t.productId),
    index('category_listing_updated_idx').on(t.categoryId, t.status, t.updatedAt, t.productId),
    index('category_listing_name_idx').on(t.categoryId, t.status, t.name, t.productId),
    index('category_listing_price_idx').on(t.categoryId, t.status, t.price, t.productId),
    index('category_listing_sku_idx').on(t.categoryId, t.status, t.sku, t.productId),
    index('category_listing_id_idx').on(t.categoryId, t.status, t.productId),
  ],
);

/**
 * The full-text index of products (`product_search`, an FTS5 table over name, SKUs, brand,
 * categories, variant names and description: migrations/0030_product_search.sql) addresses its rows
 * by integer; this gives each product its own, which never changes (a product's rowid could, on a
 * VACUUM). Kept by the same triggers as the index; never written by the application.
 */
export const productSearchRows = sqliteTable('product_search_rows', {
  doc: integer('doc').primaryKey(),
  productId: text('product_id').notNull().unique(),
});

/**
 * Products of each status per brand and per price bucket (`facet` 'brand' with the brand's id, or
 * 'price' with the bucket's index in PRICE_BUCKETS of src/modules/products/products.facets.ts), kept
 * by triggers on products (migrations/0031_product_facet_counts.sql), so the facets of an unfiltered
 * list are a few rows instead of a count over the catalogue.
 */
export const productFacetCounts = sqliteTable(
  'product_facet_counts',
  {
    facet: text('facet').notNull(),
    key: text('key').notNull(),
    status: text('status').$type<ProductStatus>().notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.facet, t.status, t.key] })],
);
