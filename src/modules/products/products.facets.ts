import { z } from '@hono/zod-openapi';
import { and, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { RunnableQuery } from 'drizzle-orm/runnable-query';
import { type SQLiteSelect, unionAll } from 'drizzle-orm/sqlite-core';
import type { Database } from '../../db/client';
import { brands, categories, categoryListing, categoryProductCounts, type ProductStatus, productFacetCounts, products } from '../../db/schema';
import { toMajor } from '../../lib/money';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { type FacetName, productListQuery } from './products.query';

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
    category: z.array(z.object(Ref)).optional().openapi({ description: 'Categories holding products of the list (a category counts its sub-categories\' products), most first, at most 50.' }),
    brand: z.array(z.object(Ref)).optional().openapi({ description: 'Brands of the list\'s products, most first, at most 50.' }),
    price: z
      .array(z.object({ min: z.number(), max: z.number().nullable(), count: z.number().int() }))
      .optional()
      .openapi({ description: 'Price buckets (major units of the store currency; `min` inclusive, `max` exclusive, null for the last), each with its count; empty buckets left out.' }),
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

/** One facet's arm of the statement: kept counts when the facet's other filters allow, else a GROUP BY over the matches. */
function facetArm(db: Database, facet: FacetName, scope: FacetScope) {
  const others = Object.fromEntries(Object.entries(scope.filters).filter(([name]) => !OWN_FILTERS[facet].includes(name as keyof Filters))) as Filters;
  const kept = scope.statusesOnly && Object.keys(others).length === 0;
  const statuses = [...scope.statuses];
  const label = sql<FacetName>`${facet}`.as('facet');
  const where = () => listPlan(productListQuery, { ...emptyQuery, filters: others }, [scope.visible]).where;
  if (facet === 'category') {
    const ref = { key: categories.id, name: categories.name, slug: categories.slug };
    if (kept) {
      return db.select({ facet: label, ...ref, count: sql<number>`sum(${categoryProductCounts.count})`.as('count') })
        .from(categoryProductCounts).innerJoin(categories, eq(categories.id, categoryProductCounts.categoryId))
        .where(inArray(categoryProductCounts.status, statuses)).groupBy(categories.id);
    }
    return db.select({ facet: label, ...ref, count: sql<number>`count(*)`.as('count') })
      .from(categoryListing).innerJoin(products, eq(products.id, categoryListing.productId)).innerJoin(categories, eq(categories.id, categoryListing.categoryId))
      .where(where()).groupBy(categories.id);
  }
  if (facet === 'brand') {
    const ref = { key: brands.id, name: brands.name, slug: brands.slug };
    if (kept) {
      return db.select({ facet: label, ...ref, count: sql<number>`sum(${productFacetCounts.count})`.as('count') })
        .from(productFacetCounts).innerJoin(brands, eq(brands.id, productFacetCounts.key))
        .where(and(eq(productFacetCounts.facet, 'brand'), inArray(productFacetCounts.status, statuses))).groupBy(brands.id);
    }
    return db.select({ facet: label, ...ref, count: sql<number>`count(*)`.as('count') })
      .from(products).innerJoin(brands, eq(brands.id, products.brandId)).where(where()).groupBy(brands.id);
  }
  const none = { name: sql<string | null>`NULL`.as('name'), slug: sql<string | null>`NULL`.as('slug') };
  if (kept) {
    return db.select({ facet: label, key: productFacetCounts.key, ...none, count: sql<number>`sum(${productFacetCounts.count})`.as('count') })
      .from(productFacetCounts).where(and(eq(productFacetCounts.facet, 'price'), inArray(productFacetCounts.status, statuses))).groupBy(productFacetCounts.key);
  }
  return db.select({ facet: label, key: sql<string>`${bucketOf}`.as('key'), ...none, count: sql<number>`count(*)`.as('count') })
    .from(products).where(and(where(), isNotNull(products.price))).groupBy(sql`2`);
}

/** The statement of the facets asked for (their arms, UNION ALL), for the list's batch. */
export function facetsStatement(db: Database, asked: readonly FacetName[], scope: FacetScope) {
  const [first, ...rest] = asked.map((facet) => facetArm(db, facet, scope)) as unknown as [SQLiteSelect, ...SQLiteSelect[]];
  return (rest.length ? unionAll(first, ...(rest as [SQLiteSelect, ...SQLiteSelect[]])) : first) as unknown as RunnableQuery<FacetRow[], 'sqlite'>;
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
