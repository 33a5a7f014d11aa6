import { sql } from 'drizzle-orm';
import { brands, categories, categoryListing, PRODUCT_STATUSES, products, productVariants, vendors } from '../../db/schema';
import {
  defineListQuery,
  enumFilter,
  fieldTreeFromSchema,
  idOrSlugFilter,
  moneyBoundFilter,
  searchFilter,
  exactFilter,
} from '../../lib/query';
import { z } from '@hono/zod-openapi';
import { ProductSchema } from './products.schemas';

/** The id of a category given by id or slug (NULL when there is none, which matches nothing). */
export function categoryIdOf(idOrSlug: string) {
  return sql`(SELECT ${categories.id} FROM ${categories} WHERE ${categories.id} = ${idOrSlug} OR ${categories.slug} = ${idOrSlug})`;
}

/**
 * Products in a category or any of its descendants, the category given by id or slug: one seek of
 * category_listing's key per product. A product list with a category filter does not go through
 * this condition but reads category_listing in its sort's order (products.listing.ts); this is
 * the same membership for any other query that filters products by category.
 */
function inCategoryTree(idOrSlug: string) {
  return sql`EXISTS (
    SELECT 1 FROM ${categoryListing} WHERE ${categoryListing.productId} = ${products.id} AND ${categoryListing.categoryId} = ${categoryIdOf(idOrSlug)}
  )`;
}

/** What a product list lets a client ask for: the one place its sort, fields and filters are declared. */
export const productListQuery = defineListQuery({
  resource: 'product',
  id: products.id,
  sortable: {
    createdAt: products.createdAt,
    updatedAt: products.updatedAt,
    name: products.name,
    price: products.price,
    sku: products.sku,
    id: products.id,
  },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(ProductSchema),
  filters: {
    category: {
      schema: z.string().min(1).max(200).optional().openapi({ description: 'Category id or slug; includes its sub-categories.' }),
      where: inCategoryTree,
    },
    brand: idOrSlugFilter(products.brandId, { id: brands.id, slug: brands.slug, table: 'brands' }, 'Brand id or slug.'),
    vendor: idOrSlugFilter(products.vendorId, { id: vendors.id, slug: vendors.slug, table: 'vendors' }, 'Vendor id or slug.'),
    sku: exactFilter(products.sku, 'Exact product SKU.'),
    price_min: moneyBoundFilter(products.price, 'min', 'Lowest price, inclusive, in major units.'),
    price_max: moneyBoundFilter(products.price, 'max', 'Highest price, inclusive, in major units.'),
    status: enumFilter(products.status, PRODUCT_STATUSES, 'Product status. Public callers see only active products.'),
    q: searchFilter([products.name, products.description, products.sku], 'Search in name, description and SKU (product or variant), case-insensitive.', (pattern) => [
      sql`EXISTS (SELECT 1 FROM ${productVariants} v WHERE v.product_id = ${products.id} AND v.sku LIKE ${pattern} ESCAPE '\\')`,
    ]),
  },
});
