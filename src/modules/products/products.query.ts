import { sql } from 'drizzle-orm';
import { brands, categories, categoryListing, PRODUCT_STATUSES, products, vendors } from '../../db/schema';
import { defineListQuery, enumFilter, fieldTreeFromSchema, idOrSlugFilter, moneyBoundFilter, exactFilter } from '../../lib/query';
import { z } from '@hono/zod-openapi';
import { ProductSchema } from './products.schemas';
import { searchCondition } from './products.search';

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

/** The facets a product list can count beside its page (products.facets.ts). */
export const FACETS = ['category', 'brand', 'price'] as const;
export type FacetName = (typeof FACETS)[number];

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
    // Only with `q`: the search orders by its rank (products.search.ts); the column is never read.
    relevance: products.id,
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
    price_min: moneyBoundFilter(products.price, 'min', 'Lowest price, inclusive, in major units of `currency`.'),
    price_max: moneyBoundFilter(products.price, 'max', 'Highest price, inclusive, in major units of `currency`.'),
    status: enumFilter(products.status, PRODUCT_STATUSES, 'Product status. Public callers see only active products.'),
    q: {
      schema: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .optional()
        .openapi({
          description:
            'Full-text search in name, SKUs (product and variants), brand, category names, variant names and description: each word matches as a prefix ' +
            '(`sat` finds "satchel"), accents do not matter (`cafe` finds "Café"), "quoted words" match as a phrase, every word must match. ' +
            'Ordered by relevance (a name match above a description match) unless `sort` says otherwise; combines with every other filter.',
          example: 'leather sat',
        }),
      where: searchCondition,
    },
    // Not a filter: the currency prices are shown, filtered and sorted in (products.currency.ts). The handler takes it out.
    currency: {
      schema: z
        .string()
        .regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 code, like EUR')
        .transform((code) => code.toUpperCase())
        .optional()
        .openapi({
          description:
            "An enabled currency (`GET /api/settings/currencies`; 422 otherwise) to show, filter (`price_min`, `price_max`) and sort (`sort=price`) prices in: each product's and variant's own price in it when set (`prices`), else its price converted by exchange rate, as a cart in that currency charges. Each product's `currency` says which. Default: the store's default currency. A storefront passes its cart's currency.",
          example: 'EUR',
        }),
      where: () => undefined,
    },
    // Not a filter: which facets to count beside the page (products.facets.ts). The handler takes it out.
    facets: {
      schema: z
        .string()
        .optional()
        .transform((raw, ctx) => {
          if (raw === undefined) return undefined;
          const names = [...new Set(raw.split(',').map((n) => n.trim()))];
          const unknown = names.filter((n) => !(FACETS as readonly string[]).includes(n));
          if (unknown.length) {
            ctx.addIssue({ code: 'custom', message: `unknown facet ${unknown.map((n) => `'${n}'`).join(', ')}; facets: ${FACETS.join(', ')}` });
            return z.NEVER;
          }
          return names as FacetName[];
        })
        .openapi({
          type: 'string',
          description: `Comma-separated facets to count for this list, returned as \`facets\` beside \`pagination\`: ${FACETS.join(', ')}. Each facet is counted under every other filter of the list (not its own), in the same D1 round trip as the page.`,
          example: 'category,brand,price',
        }),
      where: () => undefined,
    },
  },
});
