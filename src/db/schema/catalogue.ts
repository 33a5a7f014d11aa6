import { relations, sql } from 'drizzle-orm';
import { type AnySQLiteColumn, index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';

// The catalogue: categories, brands, vendors, products, their variants, category links and media, and the
// versions and guards reads and writes of it are checked against.

/** A brand, vendor or category as a product shows it. */
export interface CatalogueRef {
  id: string;
  name: string;
  slug: string;
}

/**
 * Prices a shop sets itself in other currencies, by ISO 4217 code, in minor units of that currency
 * (`{"EUR": {"amount": 2990, "compareAt": null}}`). They win over conversion by exchange rate for
 * their currency; a currency without an entry is converted from `price`.
 */
export type CurrencyPrices = Record<string, { amount: number; compareAt: number | null }>;

/** A variant inside products.related: the product_variants row (camelCase, money in minor units). */
export interface RelatedVariant {
  id: string;
  productId: string;
  sku: string | null;
  name: string | null;
  options: Record<string, string>;
  price: number;
  compareAtPrice: number | null;
  /** Absent from values built before migration 0050 (read as null). */
  weight?: number | null;
  /** Absent from values built before migration 0052 (read as {}). */
  prices?: CurrencyPrices;
  stock: number;
  lowStockThreshold: number | null;
  position: number;
  createdAt: string;
  updatedAt: string;
}

/**
 * products.variant_prices: for each currency in which some variant of the product has its own price,
 * the lowest such own amount (minor units of that currency) and the lowest default-currency price
 * (minor units) of the variants without one, null when every variant has one
 * (`{"EUR": {"own": 2400, "toConvert": 4000}}`). A currency no variant has its own price in has no
 * entry. The price a cart charges for the product's cheapest variant there is then
 * min(own, toConvert converted at the rate of the moment), so a rate change rewrites nothing.
 */
export type VariantPriceFloors = Record<string, { own: number; toConvert: number | null }>;

/**
 * products.related: what a product shows of other tables, rebuilt by the triggers of
 * migrations/0014_product_related.sql whenever one of them changes (categories by name, then id;
 * variants by position, then id).
 */
export interface ProductRelated {
  brand: CatalogueRef | null;
  vendor: CatalogueRef | null;
  categories: CatalogueRef[];
  variants: RelatedVariant[];
}

/**
 * An image of products.media: the product_media row (camelCase) as the triggers of
 * migrations/0033_product_media.sql keep it on the product, by position.
 */
/** The image types product media may be, read from each file's first bytes (src/modules/media/media.sniff.ts). */
export const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export interface ProductMediaItem {
  id: string;
  key: string;
  url: string;
  contentType: MediaType;
  byteSize: number;
  width: number | null;
  height: number | null;
  alt: string | null;
  position: number;
  variantId: string | null;
  createdAt: string;
  updatedAt: string;
}

export const PRODUCT_STATUSES = ['draft', 'active', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

export interface ProductImage {
  url: string;
  alt?: string | null;
}
export type AttributeValue = string | number | boolean;

export const categories = sqliteTable(
  'categories',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    slug: text('slug').notNull().unique(),
    description: text('description'),
    parentId: text('parent_id').references((): AnySQLiteColumn => categories.id, {
      onDelete: 'restrict',
    }),
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('categories_parent_idx').on(t.parentId), index('categories_created_idx').on(t.createdAt)],
);

export const brands = sqliteTable(
  'brands',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    slug: text('slug').notNull().unique(),
    description: text('description'),
    logoUrl: text('logo_url'),
    ...timestamps,
  },
  (t) => [index('brands_name_idx').on(t.name)],
);

export const VENDOR_STATUSES = ['active', 'suspended'] as const;

/**
 * Sellers on the marketplace. Vendor users belong to one (users.vendorId, restrict: a vendor with
 * users cannot be deleted); products may belong to one (set null: they outlive it).
 */
export const vendors = sqliteTable(
  'vendors',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    slug: text('slug').notNull().unique(),
    email: text('email'),
    description: text('description'),
    status: text('status', { enum: VENDOR_STATUSES }).notNull().default('active'),
    ...timestamps,
  },
  (t) => [index('vendors_name_idx').on(t.name), index('vendors_created_idx').on(t.createdAt)],
);

export const products = sqliteTable(
  'products',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    slug: text('slug').notNull().unique(),
    description: text('description'),
    price: integer('price').notNull(),
    compareAtPrice: integer('compare_at_price'),
    sku: text('sku').unique(),
    status: text('status', { enum: PRODUCT_STATUSES }).notNull().default('draft'),
    brandId: text('brand_id').references(() => brands.id, { onDelete: 'set null' }),
    vendorId: text('vendor_id').references(() => vendors.id, { onDelete: 'set null' }),
    images: text('images', { mode: 'json' }).$type<ProductImage[]>().notNull().default(sql`'[]'`),
    attributes: text('attributes', { mode: 'json' }).$type<Record<string, AttributeValue>>().notNull().default(sql`'{}'`),
    lowStockThreshold: integer('low_stock_threshold'),
    /** Code of a row of tax_classes (not a foreign key: a trigger refuses to delete a class in use). */
    taxClass: text('tax_class').notNull().default('standard'),
    /** Selling it issues a gift card of its price per unit once the order is paid. */
    giftCard: integer('gift_card', { mode: 'boolean' }).notNull().default(false),
    prices: text('prices', { mode: 'json' }).$type<CurrencyPrices>().notNull().default(sql`'{}'`),
    /**
     * Brand, vendor, categories and variants as one JSON value, kept by triggers (never written by the
     * application), so a page of products reads only its own rows. See ProductRelated.
     */
    related: text('related', { mode: 'json' }).$type<ProductRelated>().notNull().default(sql`'{"brand":null,"vendor":null,"categories":[],"variants":[]}'`),
    /** The product's images stored in R2 (product_media), by position, kept by triggers like `related`. */
    media: text('media', { mode: 'json' }).$type<ProductMediaItem[]>().notNull().default(sql`'[]'`),
    /**
     * JSON of VariantPriceFloors, kept with `related` by its triggers (migration 0073), read only by
     * SQL: what a list in another currency filters and sorts by (products.currency.ts). Plain text,
     * so that reading a product row does not decode it.
     */
    variantPrices: text('variant_prices').notNull().default(sql`'{}'`),
    ...timestamps,
  },
  (t) => [
    index('products_status_created_idx').on(t.status, t.createdAt, t.id),
    index('products_status_price_idx').on(t.status, t.price, t.id),
    index('products_created_idx').on(t.createdAt, t.id),
    index('products_price_idx').on(t.price, t.id),
    // Every sort a public list offers (status = 'active' first) and a staff list offers reads the page off an index.
    index('products_status_name_idx').on(t.status, t.name, t.id),
    index('products_status_updated_idx').on(t.status, t.updatedAt, t.id),
    index('products_name_idx').on(t.name, t.id),
    index('products_updated_idx').on(t.updatedAt, t.id),
    index('products_brand_idx').on(t.brandId),
    index('products_vendor_idx').on(t.vendorId),
  ],
);

/**
 * How many products have each status, kept by triggers (migrations/0008_product_status_counts.sql)
 * on insert, status change and delete, so a list filtered by status alone (the public default)
 * gets its total without COUNT(*) reading every product.
 */
export const productStatusCounts = sqliteTable('product_status_counts', {
  status: text('status').primaryKey(),
  count: integer('count').notNull().default(0),
});

export const productVariants = sqliteTable(
  'product_variants',
  {
    id: text('id').primaryKey(),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    sku: text('sku').unique(),
    name: text('name'),
    options: text('options', { mode: 'json' }).$type<Record<string, string>>().notNull().default(sql`'{}'`),
    price: integer('price').notNull(),
    compareAtPrice: integer('compare_at_price'),
    /** In the store's weightUnit, for shipping rates by weight; null weighs 0. */
    weight: real('weight'),
    prices: text('prices', { mode: 'json' }).$type<CurrencyPrices>().notNull().default(sql`'{}'`),
    stock: integer('stock').notNull().default(0),
    lowStockThreshold: integer('low_stock_threshold'),
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('product_variants_product_idx').on(t.productId, t.position)],
);

export const productCategories = sqliteTable(
  'product_categories',
  {
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    categoryId: text('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.productId, t.categoryId] }), index('product_categories_category_idx').on(t.categoryId, t.productId)],
);

/**
 * Images of products, stored in the R2 bucket MEDIA under the SHA-256 of their bytes (`key`), so one
 * file used by several products, or uploaded twice, is one object. `url` is where it is served,
 * fixed at upload (MEDIA_BASE_URL, else the API's origin + /media). Positions run 0..n-1 per product.
 */
export const productMedia = sqliteTable(
  'product_media',
  {
    id: text('id').primaryKey(),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    variantId: text('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    key: text('key').notNull(),
    url: text('url').notNull(),
    contentType: text('content_type', { enum: MEDIA_TYPES }).notNull(),
    byteSize: integer('byte_size').notNull(),
    width: integer('width'),
    height: integer('height'),
    alt: text('alt'),
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('product_media_product_idx').on(t.productId, t.position), index('product_media_key_idx').on(t.key)],
);

/**
 * Stored files (R2 keys) that no product_media row uses, and from when their object may go: recorded
 * by a trigger when the last image using a key is deleted (at once), and by an upload before it
 * stores its file (an hour on; its image row's insert removes the record). Objects are deleted right
 * after an image's or a product's deletion, and by the hourly cron for what is left (an upload whose
 * write failed): src/modules/products/product-media.objects.ts.
 */
export const mediaUnused = sqliteTable('media_unused', {
  key: text('key').primaryKey(),
  deletableAfter: text('deletable_after').notNull(),
});

/**
 * Requests to rebuild products.related: a trigger inserts a product id, the BEFORE INSERT trigger
 * rebuilds that product's value and drops the row (RAISE(IGNORE)), so the table is always empty.
 */
export const productRelatedRefresh = sqliteTable('product_related_refresh', {
  productId: text('product_id').notNull(),
});

/** Every (ancestor, descendant) pair of categories, each category its own ancestor; kept by triggers. */
export const categoryTree = sqliteTable(
  'category_tree',
  {
    ancestorId: text('ancestor_id').notNull(),
    descendantId: text('descendant_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ancestorId, t.descendantId] }), index('category_tree_descendant_idx').on(t.descendantId, t.ancestorId)],
);

/**
 * Distinct products of each status in a category and its descendants, kept by triggers, so the total
 * of `?category=x` is one row per status instead of a count over the category.
 */
export const categoryProductCounts = sqliteTable(
  'category_product_counts',
  {
    categoryId: text('category_id').notNull(),
    status: text('status').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.categoryId, t.status] })],
);

/**
 * One row (id 1) whose version changes by triggers (migrations/0007_catalogue_version.sql, made a
 * random 53-bit value by 0015 so no version is ever current twice) on every insert, update and
 * delete of products, variants (stock included), category links, categories, brands and vendors,
 * whoever writes them. Catalogue reads derive their ETag from it (a conditional GET is answered
 * 304 after reading this one row) and isolates keep rendered answers per version
 * (src/middleware/catalogue-cache.ts).
 */
export const catalogueVersion = sqliteTable('catalogue_version', {
  id: integer('id').primaryKey(),
  version: integer('version').notNull().default(0),
});

/**
 * One row (id 1) whose version changes, to a random 53-bit value, by triggers (migrations/0021_order_guards.sql)
 * whenever anything an order's quote reads changes, stock excepted: a variant's price, name, sku,
 * options or product, a product's name, status or vendor, a deletion of either, the store
 * settings, currencies and tax rates. Isolates keep quote inputs per version
 * (src/modules/checkout/quote-inputs.ts) and an order placed from them is written only if the version
 * is still the one they were read at (a `write_guards` row in the same batch).
 */
export const quoteVersion = sqliteTable('quote_version', {
  id: integer('id').primaryKey(),
  version: integer('version').notNull().default(0),
});

/**
 * Never holds a row: a batch inserts `(name, ok)` to assert something it read earlier still holds
 * (src/lib/db-guards.ts names them). The table's trigger aborts the whole batch with `guard:<name>` when
 * `ok` is not 1, and drops the row when it is, so a write that depends on a read done in another
 * round trip (or kept by the isolate) commits only if that read is still true.
 */
export const writeGuards = sqliteTable('write_guards', {
  name: text('name').notNull(),
  ok: integer('ok'),
});

/**
 * Roles hold permissions of the form `resource:action` (`products:write`), `resource:*` or `*`.
 * The built-in roles (admin, vendor, customer) are created by a migration, have their name as id,
 * and cannot be deleted or renamed.
 */

export const categoriesRelations = relations(categories, ({ one, many }) => ({
  parent: one(categories, { fields: [categories.parentId], references: [categories.id], relationName: 'tree' }),
  children: many(categories, { relationName: 'tree' }),
  productLinks: many(productCategories),
}));

export const productsRelations = relations(products, ({ one, many }) => ({
  brand: one(brands, { fields: [products.brandId], references: [brands.id] }),
  vendor: one(vendors, { fields: [products.vendorId], references: [vendors.id] }),
  variants: many(productVariants),
  categoryLinks: many(productCategories),
}));

export const productVariantsRelations = relations(productVariants, ({ one }) => ({
  product: one(products, { fields: [productVariants.productId], references: [products.id] }),
}));

export const productCategoriesRelations = relations(productCategories, ({ one }) => ({
  product: one(products, { fields: [productCategories.productId], references: [products.id] }),
  category: one(categories, { fields: [productCategories.categoryId], references: [categories.id] }),
}));

export type ProductRow = typeof products.$inferSelect;
export type ProductVariantRow = typeof productVariants.$inferSelect;
export type CategoryRow = typeof categories.$inferSelect;
export type BrandRow = typeof brands.$inferSelect;
export type VendorRow = typeof vendors.$inferSelect;
