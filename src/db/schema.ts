import { relations, sql } from 'drizzle-orm';
import {
  type AnySQLiteColumn,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
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
    ...timestamps,
  },
  (t) => [
    index('products_status_created_idx').on(t.status, t.createdAt, t.id),
    index('products_status_price_idx').on(t.status, t.price, t.id),
    index('products_created_idx').on(t.createdAt, t.id),
    index('products_price_idx').on(t.price, t.id),
    index('products_brand_idx').on(t.brandId),
    index('products_vendor_idx').on(t.vendorId),
  ],
);

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
export const apiKeys = sqliteTable('api_keys', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  prefix: text('prefix').notNull(),
  keyHash: text('key_hash').notNull().unique(),
  /** A role whose permissions the key holds, or null for a key with its own `permissions` list. */
  roleId: text('role_id').references(() => roles.id, { onDelete: 'restrict' }),
  permissions: text('permissions', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
  createdBy: text('created_by'),
  expiresAt: text('expires_at'),
  revokedAt: text('revoked_at'),
  lastUsedAt: text('last_used_at'),
  ...timestamps,
});

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
  (t) => [index('events_unpublished_idx').on(t.publishedAt, t.createdAt)],
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
