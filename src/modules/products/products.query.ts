import { sql } from 'drizzle-orm';
import { brands, categories, PRODUCT_STATUSES, productCategories, products, productVariants, vendors } from '../../db/schema';
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

/** Products in a category or any of its descendants, the category given by id or slug. */
function inCategoryTree(idOrSlug: string) {
  return sql`${products.id} IN (
    SELECT ${productCategories.productId} FROM ${productCategories}
    WHERE ${productCategories.categoryId} IN (
      WITH RECURSIVE tree(id) AS (
        SELECT id FROM ${categories} WHERE id = ${idOrSlug} OR slug = ${idOrSlug}
        UNION SELECT c.id FROM ${categories} c JOIN tree ON c.parent_id = tree.id
      )
      SELECT id FROM tree
    )
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
