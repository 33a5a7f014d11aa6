import { z } from '@hono/zod-openapi';
import { and, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { brands, categories, categoryListing, categoryProductCounts, type ProductStatus, productFacetCounts, products, productSearchRows } from '../../db/schema';
import { toMajor } from '../../lib/money';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { type FacetName, productListQuery } from './products.query';
import { ftsQuery, matches, productSearch } from './products.search';

/**
 * Facets of a product list (`?facets=category,brand,price`): how many products of the list each
 * category, brand and price bucket holds, each facet counted under every filter but its own (a
 * shopper who picked a brand still sees the other brands' counts). One statement for all of them,
 * in the same D1 batch as the page's two: from the counts the triggers keep (category_product_counts,
 * product_facet_counts) when the facet's other filters are only the statuses the caller sees,
 * else a GROUP BY over the matching products, which reads each of them once.
 */

/** Upper bounds (exclusive) of the price buckets, in minor units; the last bucket has none. Must match migrations/0031. */
export const PRICE_BUCKETS = [1000, 2500, 5000, 10000, 25000, 50000] as const;
/** Categories and brands listed per facet, most products first. */
export const FACET_VALUES = 50;

const Ref = { id: z.string(), name: z.string(), slug: z.string(), count: z.number().int() };
export const FacetsSchema = z
  .object({
    category: z
      .array(z.object(Ref))
      .optional()
      .openapi({ description: "Categories holding products of the list (a category counts its sub-categories' products), most first, at most 50." }),
    brand: z.array(z.object(Ref)).optional().openapi({ description: "Brands of the list's products, most first, at most 50." }),
    price: z
      .array(z.object({ min: z.number(), max: z.number().nullable(), count: z.number().int() }))
      .optional()
      .openapi({
        description: 'Price buckets (major units of the store currency; `min` inclusive, `max` exclusive, null for the last), each with its count; empty buckets left out.',
      }),
  })
  .openapi('ProductFacets', { description: 'Present when `facets` is asked for: each facet counted under every filter of the list except its own.' });
export type Facets = z.infer<typeof FacetsSchema>;

type Query = ParsedListQuery<typeof productListQuery.filters>;
type Filters = Query['filters'];

/** The filters each facet leaves out of its own count. */
const OWN_FILTERS: Record<FacetName, readonly (keyof Filters)[]> = {
  category: ['category'],
  brand: ['brand'],
  price: ['price_min', 'price_max'],
};

const bucketOf = sql`CASE ${sql.join(
  PRICE_BUCKETS.map((bound, i) => sql`WHEN ${products.price} < ${sql.raw(String(bound))} THEN '${sql.raw(String(i))}'`),
  sql` `,
)} ELSE '${sql.raw(String(PRICE_BUCKETS.length))}' END`;

interface FacetScope {
  /** The list's filters (status and the facets parameter aside). */
  filters: Filters;
  statuses: readonly ProductStatus[];
  /** The caller's visibility as a condition on products (statuses, a vendor's scope). */
  visible: SQL | undefined;
  /** Whether the visibility is statuses alone (no vendor scope): then kept counts can serve. */
  statusesOnly: boolean;
  /** The list's query config, whose price filters may read another currency (products.currency.ts). */
  listQuery?: typeof productListQuery;
}

/** A facet arm's row: which facet, the key (a category or brand id, a bucket's index), its name and slug, the count. */
export interface FacetRow {
  facet: FacetName;
  key: string;
  name: string | null;
  slug: string | null;
  count: number;
}

const emptyQuery: Query = { page: 1, limit: 1, sort: productListQuery.defaultSort, fields: undefined, filters: {} };

/**
 * One facet's arm of the statement: kept counts when the facet's other filters allow, else a GROUP
 * BY over the matching products. With `q`, the arm starts from the search index's matches (as the
 * page does), so it reads the matches, never the catalogue.
 */
function facetArm(facet: FacetName, scope: FacetScope): SQL {
  const { q, ...others } = Object.fromEntries(Object.entries(scope.filters).filter(([name]) => !OWN_FILTERS[facet].includes(name as keyof Filters))) as Filters;
  const statuses = sql.join(
    scope.statuses.map((s) => sql`${s}`),
    sql`, `,
  );
  if (scope.statusesOnly && q === undefined && Object.keys(others).length === 0) {
    if (facet === 'category') {
      return sql`SELECT 'category' AS facet, ${categories.id} AS key, ${categories.name} AS name, ${categories.slug} AS slug, sum(${categoryProductCounts.count}) AS count
        FROM ${categoryProductCounts} JOIN ${categories} ON ${categories.id} = ${categoryProductCounts.categoryId}
        WHERE ${categoryProductCounts.status} IN (${statuses}) GROUP BY ${categories.id}`;
    }
    const named = facet === 'brand' ? sql`JOIN ${brands} ON ${brands.id} = ${productFacetCounts.key}` : sql``;
    const ref = facet === 'brand' ? sql`${brands.name} AS name, ${brands.slug} AS slug` : sql`NULL AS name, NULL AS slug`;
    return sql`SELECT ${facet} AS facet, ${productFacetCounts.key} AS key, ${ref}, sum(${productFacetCounts.count}) AS count
      FROM ${productFacetCounts} ${named} WHERE ${productFacetCounts.facet} = ${facet} AND ${productFacetCounts.status} IN (${statuses}) GROUP BY ${productFacetCounts.key}`;
  }
  const where =
    and(listPlan(scope.listQuery ?? productListQuery, { ...emptyQuery, filters: others }, [scope.visible]).where, q === undefined ? undefined : matches(ftsQuery(q) ?? '""')) ??
    sql`1`;
  const from =
    q === undefined
      ? sql`${products}`
      : sql`${productSearch} JOIN ${productSearchRows} ON ${productSearchRows.doc} = ${productSearch.rowid} JOIN ${products} ON ${products.id} = ${productSearchRows.productId}`;
  if (facet === 'category') {
    return sql`SELECT 'category' AS facet, ${categories.id} AS key, ${categories.name} AS name, ${categories.slug} AS slug, count(*) AS count
      FROM ${from} JOIN ${categoryListing} ON ${categoryListing.productId} = ${products.id} JOIN ${categories} ON ${categories.id} = ${categoryListing.categoryId}
      WHERE ${where} GROUP BY ${categories.id}`;
  }
  if (facet === 'brand') {
    return sql`SELECT 'brand' AS facet, ${brands.id} AS key, ${brands.name} AS name, ${brands.slug} AS slug, count(*) AS count
      FROM ${from} JOIN ${brands} ON ${brands.id} = ${products.brandId} WHERE ${where} GROUP BY ${brands.id}`;
  }
  return sql`SELECT 'price' AS facet, ${bucketOf} AS key, NULL AS name, NULL AS slug, count(*) AS count FROM ${from} WHERE ${where} GROUP BY 2`;
}

/** The statement of the facets asked for (their arms, UNION ALL), for the list's batch. */
export function facetsStatement(db: Database, asked: readonly FacetName[], scope: FacetScope) {
  const arms = sql.join(
    asked.map((facet) => facetArm(facet, scope)),
    sql` UNION ALL `,
  );
  // A select over the arms (rather than db.all), so that it can ride in the page's batch.
  const column = <T>(name: string) => sql<T>`${sql.identifier(name)}`;
  return db
    .select({
      facet: column<FacetName>('facet'),
      key: column<string>('key'),
      name: column<string | null>('name'),
      slug: column<string | null>('slug'),
      count: column<number>('count'),
    })
    .from(sql`(${arms}) AS ${sql.identifier('facets')}`);
}

/** The facets from the statement's rows: categories and brands most products first (at most FACET_VALUES), price buckets in order. */
export function facetsFrom(rows: FacetRow[], asked: readonly FacetName[]): Facets {
  const counted = rows.filter((r) => r.count > 0);
  const top = (facet: FacetName) =>
    counted
      .filter((r) => r.facet === facet)
      .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key))
      .slice(0, FACET_VALUES)
      .map((r) => ({ id: r.key, name: r.name ?? '', slug: r.slug ?? '', count: r.count }));
  const facets: Facets = {};
  if (asked.includes('category')) facets.category = top('category');
  if (asked.includes('brand')) facets.brand = top('brand');
  if (asked.includes('price')) {
    facets.price = counted
      .filter((r) => r.facet === 'price')
      .sort((a, b) => Number(a.key) - Number(b.key))
      .map((r) => {
        const i = Number(r.key);
        return { min: toMajor(i === 0 ? 0 : PRICE_BUCKETS[i - 1]!), max: i < PRICE_BUCKETS.length ? toMajor(PRICE_BUCKETS[i]!) : null, count: r.count };
      });
  }
  return facets;
}
