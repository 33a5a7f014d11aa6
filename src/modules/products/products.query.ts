import { sql } from 'drizzle-orm';
import { brands, categories, categoryTree, PRODUCT_STATUSES, productCategories, products, productVariants, vendors } from '../../db/schema';
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
 * Products in a category or any of its descendants, the category given by id or slug. A probe per
 * product (its links, then category_tree), so the list walks the index of its sort and stops at the
 * end of the page instead of reading the whole category and sorting it.
 */
function inCategoryTree(idOrSlug: string) {
  return sql`EXISTS (
    SELECT 1 FROM ${productCategories} JOIN ${categoryTree} ON ${categoryTree.descendantId} = ${productCategories.categoryId}
    WHERE ${productCategories.productId} = ${products.id} AND ${categoryTree.ancestorId} = ${categoryIdOf(idOrSlug)}
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
