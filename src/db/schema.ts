import { relations, sql } from 'drizzle-orm';
import {
  type AnySQLiteColumn,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core';

/**
 * Every table of the store, in one place so that modules never import each other for foreign keys.
 * Conventions: ids are prefixed, time-ordered text (`prod_01J...`); timestamps are ISO 8601 UTC
 * text (they sort as they compare); money is integer minor units; JSON columns hold text.
 */

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
const timestamps = {
  createdAt: text('created_at').notNull().default(now),
  updatedAt: text('updated_at').notNull().default(now),
};

/** A brand, vendor or category as a product shows it. */
export interface CatalogueRef {
  id: string;
  name: string;
  slug: string;
}

/** A variant inside products.related: the product_variants row (camelCase, money in minor units). */
export interface RelatedVariant {
  id: string;
  productId: string;
  sku: string | null;
  name: string | null;
  options: Record<string, string>;
  price: number;
  compareAtPrice: number | null;
  stock: number;
  lowStockThreshold: number | null;
  position: number;
  createdAt: string;
  updatedAt: string;
}

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
    attributes: text('attributes', { mode: 'json' })
      .$type<Record<string, AttributeValue>>()
      .notNull()
      .default(sql`'{}'`),
    lowStockThreshold: integer('low_stock_threshold'),
    /**
     * Brand, vendor, categories and variants as one JSON value, kept by triggers (never written by the
     * application), so a page of products reads only its own rows. See ProductRelated.
     */
    related: text('related', { mode: 'json' }).$type<ProductRelated>().notNull().default(sql`'{"brand":null,"vendor":null,"categories":[],"variants":[]}'`),
    /** The product's images stored in R2 (product_media), by position, kept by triggers like `related`. */
    media: text('media', { mode: 'json' }).$type<ProductMediaItem[]>().notNull().default(sql`'[]'`),
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
  (t) => [
    primaryKey({ columns: [t.productId, t.categoryId] }),
    index('product_categories_category_idx').on(t.categoryId, t.productId),
  ],
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
 * write failed): src/modules/media/media.objects.ts.
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
 * (src/modules/orders/quote-inputs.ts) and an order placed from them is written only if the version
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
export const roles = sqliteTable('roles', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  description: text('description'),
  permissions: text('permissions', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
  builtIn: integer('built_in', { mode: 'boolean' }).notNull().default(false),
  ...timestamps,
});

export const USER_STATUSES = ['active', 'disabled'] as const;

/**
 * Everyone who signs in: customers, vendor users and admin users, told apart by role. One table so
 * that an email address names one account and one login endpoint serves all.
 */
export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull().unique(),
    name: text('name'),
    phone: text('phone'),
    /** `pbkdf2-sha256$<iterations>$<salt>$<hash>`; null for an account that cannot sign in yet. */
    passwordHash: text('password_hash'),
    roleId: text('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'restrict' }),
    vendorId: text('vendor_id').references(() => vendors.id, { onDelete: 'restrict' }),
    status: text('status', { enum: USER_STATUSES }).notNull().default('active'),
    /** Carried in every JWT as `ver`; bumped on password change so older tokens stop working. */
    tokenVersion: integer('token_version').notNull().default(0),
    /** The customer wants no SMS (src/notifications). */
    smsOptOut: integer('sms_opt_out', { mode: 'boolean' }).notNull().default(false),
    /** The customer wants no marketing email; transactional email (orders, receipts, resets) still goes. */
    marketingEmailOptOut: integer('marketing_email_opt_out', { mode: 'boolean' }).notNull().default(false),
    lastLoginAt: text('last_login_at'),
    ...timestamps,
  },
  (t) => [index('users_role_created_idx').on(t.roleId, t.createdAt, t.id), index('users_vendor_idx').on(t.vendorId)],
);

export const addresses = sqliteTable(
  'addresses',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    firstName: text('first_name'),
    lastName: text('last_name'),
    company: text('company'),
    line1: text('line1').notNull(),
    line2: text('line2'),
    city: text('city').notNull(),
    region: text('region'),
    postalCode: text('postal_code'),
    country: text('country').notNull(),
    phone: text('phone'),
    isDefaultShipping: integer('is_default_shipping', { mode: 'boolean' }).notNull().default(false),
    isDefaultBilling: integer('is_default_billing', { mode: 'boolean' }).notNull().default(false),
    ...timestamps,
  },
  (t) => [index('addresses_user_idx').on(t.userId, t.createdAt)],
);

/** API keys: only the SHA-256 of the key is stored; `prefix` is the visible start of the key. */
export const apiKeys = sqliteTable(
  'api_keys',
  {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /**
   * `secret` (`sk_…`): a server's credential, holding a role or permissions. `publishable`
   * (`pk_…`): safe in a browser, with the abilities of a shopper without an account and nothing
   * more, usable only from its `allowedOrigins`, counted per shopper network (src/middleware/rate-limit.ts).
   */
  type: text('type', { enum: ['secret', 'publishable'] }).notNull().default('secret'),
  /** For a publishable key: the web origins a browser may use it from (as the settings' allowedOrigins). */
  allowedOrigins: text('allowed_origins', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
  prefix: text('prefix').notNull(),
  keyHash: text('key_hash').notNull().unique(),
  /** A role whose permissions the key holds, or null for a key with its own `permissions` list. */
  roleId: text('role_id').references(() => roles.id, { onDelete: 'restrict' }),
  permissions: text('permissions', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
  /**
   * The user on whose authority the key exists: the user who minted it, or the owner of the key that
   * minted it; null for keys minted by the CLI or bootstrap. No foreign key on purpose: the key check
   * treats a key whose owner is gone, disabled or no longer covers it as unusable (src/lib/access.ts).
   */
  ownerId: text('owner_id'),
  /** The vendor a key of the vendor role acts for, scoped like that vendor's users; null for other keys. */
  vendorId: text('vendor_id').references(() => vendors.id, { onDelete: 'restrict' }),
  createdBy: text('created_by'),
  expiresAt: text('expires_at'),
  revokedAt: text('revoked_at'),
  lastUsedAt: text('last_used_at'),
  ...timestamps,
}, (t) => [index('api_keys_owner_idx').on(t.ownerId)]);

/**
 * Sign-in attempts (the API's login and the admin panel's alike), counted per account and client
 * network and per account across every network (`ip` = '*') before the password is checked, and
 * cleared by a right one, so `failures` counts failed and pending attempts: a row at its limit locks
 * until `lockedUntil` (src/modules/auth/login-lockout.ts). Rows exist for emails with no account too,
 * so a lock never tells whether an account exists.
 */
export const loginFailures = sqliteTable(
  'login_failures',
  {
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    failures: integer('failures').notNull(),
    /** Start of the counting window: failures older than the window no longer count. */
    firstFailureAt: text('first_failure_at').notNull(),
    lockedUntil: text('locked_until'),
  },
  (t) => [primaryKey({ columns: [t.email, t.ip] })],
);

/**
 * The outbox: a domain event is inserted in the same D1 batch as the change that causes it, so
 * either both commit or neither does. `publishedAt` is set once the event has been handed to the
 * delivery queue.
 */
export const events = sqliteTable(
  'events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    data: text('data', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    createdAt: text('created_at').notNull().default(now),
    publishedAt: text('published_at'),
  },
  (t) => [
    index('events_unpublished_idx').on(t.publishedAt, t.createdAt),
    // The last inventory.low of a variant, for the once-an-hour check of inventory_adjustments_apply (migrations/0024).
    index('events_inventory_low_variant_idx').on(sql`json_extract(${t.data}, '$.variantId')`, t.createdAt).where(sql`${t.type} = 'inventory.low'`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Commerce: settings, currencies, taxes, coupons, carts, orders, payments, shipments, inventory.
// Money columns are integer minor units of the row's currency; rates are exact decimal text.

export const WEIGHT_UNITS = ['g', 'kg', 'oz', 'lb'] as const;

/** The store's settings: one row, id 'store', created by a migration and only ever updated. */
export const storeSettings = sqliteTable('store_settings', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  contactEmail: text('contact_email'),
  /** Catalogue prices are in this currency (ISO 4217 code of a row in `currencies`). */
  defaultCurrency: text('default_currency').notNull(),
  weightUnit: text('weight_unit', { enum: WEIGHT_UNITS }).notNull().default('kg'),
  /** Stock at or below this emits `inventory.low`, unless the variant or product sets its own. */
  lowStockThreshold: integer('low_stock_threshold').notNull().default(5),
  /** Flat shipping per order in minor units of the default currency; 0 for free shipping. */
  shippingFlatRate: integer('shipping_flat_rate').notNull().default(0),
  /** Orders whose discounted subtotal reaches this ship free; null for never. */
  freeShippingThreshold: integer('free_shipping_threshold'),
  /**
   * Web origins whose pages may call the API from the browser (CORS, src/middleware/cors.ts): exact
   * origins (`https://shop.example`) or one wildcard label (`https://*.shop.example`). `CORS_ORIGINS`
   * in the environment adds to them.
   */
  allowedOrigins: text('allowed_origins', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
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
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
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
    shippingTaxable: integer('shipping_taxable', { mode: 'boolean' }).notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex('tax_rates_place_idx').on(t.country, sql`coalesce(${t.region}, '')`)],
);

export const COUPON_TYPES = ['percentage', 'fixed'] as const;

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

/** One row per order that used a coupon; a trigger enforces `usage_limit_per_customer` on insert. */
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
    couponId: text('coupon_id').references(() => coupons.id, { onDelete: 'set null' }),
    shippingAddress: text('shipping_address', { mode: 'json' }).$type<PostalAddress>(),
    billingAddress: text('billing_address', { mode: 'json' }).$type<PostalAddress>(),
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
    total: integer('total').notNull(),
    amountPaid: integer('amount_paid').notNull().default(0),
    amountRefunded: integer('amount_refunded').notNull().default(0),
    couponId: text('coupon_id').references(() => coupons.id, { onDelete: 'set null' }),
    couponCode: text('coupon_code'),
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
    tax: integer('tax').notNull().default(0),
    total: integer('total').notNull(),
    quantityShipped: integer('quantity_shipped').notNull().default(0),
    quantityDelivered: integer('quantity_delivered').notNull().default(0),
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

// ---------------------------------------------------------------------------------------------
// Webhooks: endpoints, one delivery per event and endpoint, and every attempt at it.

export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    url: text('url').notNull(),
    /** Event kinds delivered, or `["*"]` for all. */
    events: text('events', { mode: 'json' }).$type<string[]>().notNull(),
    description: text('description'),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    /** Signs every delivery (`whsec_` + base64 of 32 random bytes). Shown once, at creation and rotation. */
    secret: text('secret').notNull(),
    /** The secret before the last rotation, which also signs until `previousSecretExpiresAt`. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: text('previous_secret_expires_at'),
    /** When the current run of failed deliveries began; null while deliveries succeed. */
    failingSince: text('failing_since'),
    /** Set when the endpoint was switched off for failing too long (it is then inactive). */
    disabledAt: text('disabled_at'),
    disabledReason: text('disabled_reason'),
    ...timestamps,
  },
  (t) => [index('webhook_endpoints_created_idx').on(t.createdAt, t.id)],
);

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'retrying', 'failed'] as const;

/** One event for one endpoint; its id is `X-Store-Delivery` and `webhook-id`, the same on every retry. */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    lastAttemptAt: text('last_attempt_at'),
    nextRetryAt: text('next_retry_at'),
    deliveredAt: text('delivered_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_endpoint_idx').on(t.eventId, t.endpointId),
    index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt),
  ],
);

export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    startedAt: text('started_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    /** Null when no response came (timeout, network error). */
    statusCode: integer('status_code'),
    error: text('error'),
    /** The first 1 KB of the response body. */
    responseExcerpt: text('response_excerpt'),
    /** When the next attempt is due; null after the last one or a success. */
    nextRetryAt: text('next_retry_at'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attempt)],
);

export const NOTIFICATION_STATUSES = ['queued', 'sending', 'sent', 'retrying', 'failed', 'skipped'] as const;

/**
 * Every message to a person (email, SMS), rendered from a template (schema-notifications.ts) and
 * sent by the `notifications` queue consumer (src/notifications/). `queued` until a provider takes
 * it (`sent`); `sending` while a consumer holds it (a lease of a minute); `retrying` after a failed attempt; `failed` when retries ran out or the provider
 * refused it for good; `skipped` when the recipient opted out (never sent). The outbox provider
 * sends nothing: the row is the message, readable at /api/notifications.
 */
export const notifications = sqliteTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    recipient: text('recipient').notNull(),
    /** The template's key (`order_confirmation`). */
    template: text('template').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    /** Email only: the HTML part. */
    bodyHtml: text('body_html'),
    /** The variables the message was rendered with. */
    data: text('data', { mode: 'json' }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    status: text('status', { enum: NOTIFICATION_STATUSES }).notNull().default('queued'),
    category: text('category', { enum: ['transactional', 'marketing'] }).notNull().default('transactional'),
    /** The outbox event that caused it; null for internal triggers (password reset, endpoint disabled). */
    eventId: text('event_id'),
    /** The account it was sent to, when it went to one. */
    recipientUserId: text('recipient_user_id'),
    /** `<cause>|<template>.<channel>|<recipient>`: one message per cause, template and recipient, however often the cause is processed. */
    dedupeKey: text('dedupe_key'),
    /** The provider that took (or last tried) it: outbox, resend, twilio. */
    provider: text('provider'),
    providerMessageId: text('provider_message_id'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    lastAttemptAt: text('last_attempt_at'),
    sentAt: text('sent_at'),
    ...timestamps,
  },
  (t) => [
    index('notifications_created_idx').on(t.createdAt, t.id),
    index('notifications_status_created_idx').on(t.status, t.createdAt, t.id),
    index('notifications_recipient_idx').on(t.recipient, t.createdAt),
    uniqueIndex('notifications_dedupe_idx').on(t.dedupeKey),
  ],
);

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
export type RoleRow = typeof roles.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type AddressRow = typeof addresses.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type EventRow = typeof events.$inferSelect;
export type StoreSettingsRow = typeof storeSettings.$inferSelect;
export type CurrencyRow = typeof currencies.$inferSelect;
export type TaxRateRow = typeof taxRates.$inferSelect;
export type CouponRow = typeof coupons.$inferSelect;
export type CartRow = typeof carts.$inferSelect;
export type CartLineRow = typeof cartLines.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;
export type ShipmentRow = typeof shipments.$inferSelect;
export type InventoryAdjustmentRow = typeof inventoryAdjustments.$inferSelect;
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;

export * from './schema-admin';

export * from './schema-notifications';

export * from './schema-content';

export * from './schema-audit';

export * from './schema-listing';

export * from './schema-reports';

export * from './schema-imports';
