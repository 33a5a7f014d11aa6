// Reading products: lists, search suggestions, one by id or slug. Writes are in products.service.ts,
// variants in variants.service.ts.
import { and, asc, count, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { RunnableQuery } from 'drizzle-orm/runnable-query';
import type { Database } from '../../db/client';
import { keptQueries } from '../../db/compiled';
import {
  categoryProductCounts,
  PRODUCT_STATUSES,
  type ProductRow,
  type ProductStatus,
  productStatusCounts,
  products,
  type ProductVariantRow,
  type RelatedVariant,
} from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { toMajor, toMajorOrNull } from '../../lib/money';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { categoryCountQuery, categoryPageQuery, listingConditions } from './products.listing';
import { facetsFrom, facetsStatement } from './products.facets';
import { categoryIdOf, type FacetName, productListQuery } from './products.query';
import { searchPageQueries, suggest } from './products.search';
import type { Product, Variant } from './products.schemas';

export type Ref = { id: string; name: string; slug: string };

/**
 * Public callers see active products only; staff see every status. A vendor user (`vendorId`) sees
 * only its vendor's products, in every status: the others do not exist for it (404), so ids cannot
 * be probed. The condition goes into the WHERE of the one read, never filtered afterwards.
 */
export interface Visibility {
  staff: boolean;
  vendorId?: string | null;
}
const visibleTo = (v: Visibility) => (v.vendorId ? eq(products.vendorId, v.vendorId) : v.staff ? undefined : eq(products.status, 'active'));

/** What a writer may touch: every product, or only its vendor's when it is a vendor user. */
export const writable = (vendorId: string | null): Visibility => ({ staff: true, vendorId });

export function toVariant(row: ProductVariantRow | RelatedVariant): Variant {
  return {
    id: row.id,
    sku: row.sku,
    name: row.name,
    options: row.options,
    price: toMajor(row.price),
    compareAtPrice: toMajorOrNull(row.compareAtPrice),
    weight: row.weight ?? null,
    stock: row.stock,
    lowStockThreshold: row.lowStockThreshold,
    position: row.position,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function toProduct(row: ProductRow, brand: Ref | null, vendor: Ref | null, cats: Ref[], variants: Variant[]): Product {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    price: toMajor(row.price),
    compareAtPrice: toMajorOrNull(row.compareAtPrice),
    sku: row.sku,
    status: row.status,
    brand,
    vendor,
    categories: cats,
    images: row.images,
    media: row.media,
    attributes: row.attributes,
    stock: variants.reduce((sum, v) => sum + v.stock, 0),
    lowStockThreshold: row.lowStockThreshold,
    variants,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

interface Window {
  where: SQL | undefined;
  orderBy: SQL[];
  limit: number;
  offset: number;
}

/**
 * Loads products in a single D1 round trip and from their rows alone: each row carries its brand,
 * vendor, categories and variants in `related`, kept by triggers (migrations/0014_product_related.sql),
 * so no other table is read. The total, when asked for, is counted in the same batch.
 */
async function loadProducts(db: Database, rows: RunnableQuery<ProductRow[], 'sqlite'>, total?: RunnableQuery<{ total: number }[], 'sqlite'>) {
  if (!total) return { items: (await db.batch([rows]))[0].map(productFromRow), total: undefined };
  const [found, totals] = await db.batch([rows, total]);
  return { items: found.map(productFromRow), total: totals[0]?.total ?? 0 };
}

const windowRows = (db: Database, w: Window) =>
  db
    .select()
    .from(products)
    .where(w.where)
    .orderBy(...w.orderBy)
    .limit(w.limit)
    .offset(w.offset);

function productFromRow(row: ProductRow): Product {
  const { brand, vendor, categories: cats, variants } = row.related;
  return toProduct(row, brand, vendor, cats, variants.map(toVariant));
}

type ProductListQuery = ParsedListQuery<typeof productListQuery.filters>;

/**
 * Where a list's total comes from: COUNT(*) over the filtered products (which reads every matching
 * row through the filter's index, or through the category's listing rows), or, when the list is
 * filtered by status and at most a category, the counts the triggers keep: per status, or per
 * category and status (one row per status, whatever the size of the catalogue or the category).
 */
type TotalSource = 'count' | { statuses: readonly ProductStatus[]; category?: string };

function keptTotal(db: Database, from: Exclude<TotalSource, 'count'>) {
  if (from.category === undefined) {
    return db
      .select({ total: sql<number>`coalesce(sum(${productStatusCounts.count}), 0)` })
      .from(productStatusCounts)
      .where(inArray(productStatusCounts.status, [...from.statuses]));
  }
  return db
    .select({ total: sql<number>`coalesce(sum(${categoryProductCounts.count}), 0)` })
    .from(categoryProductCounts)
    .where(and(eq(categoryProductCounts.categoryId, categoryIdOf(from.category)), inArray(categoryProductCounts.status, [...from.statuses])));
}

/** The statuses a caller sees, narrowed to the one it asked for. */
function visibleStatuses(visibility: Visibility, status: ProductStatus | undefined): readonly ProductStatus[] {
  const visible: readonly ProductStatus[] = visibility.staff || visibility.vendorId ? PRODUCT_STATUSES : ['active'];
  return status ? visible.filter((s) => s === status) : visible;
}

export function totalSource(filters: ProductListQuery['filters'], visibility: Visibility): TotalSource {
  if (visibility.vendorId) return 'count';
  const { status, category, ...others } = filters;
  if (Object.keys(others).length) return 'count';
  return { statuses: visibleStatuses(visibility, status), category };
}

/**
 * The two statements of a product list: its page of rows and its total. Without a category, the
 * products' own indexes serve every filter and sort; with one, category_listing does
 * (products.listing.ts): its rows hold each product's status and sort columns, so the caller's
 * statuses and the filters on those columns select them there, and the other filters and a
 * vendor's scope are conditions on products.
 */
export function productListQueries(db: Database, query: ProductListQuery, visibility: Visibility) {
  const relevance = query.sort.some((k) => k.field === 'relevance');
  if (query.filters.q !== undefined) {
    // A search: the index's matches are the rows, ordered by relevance unless a sort was asked for.
    const { q, ...others } = query.filters;
    // Ranked or sorted, a search's pages are read by offset (a CSV export's keyset is for the plain list).
    const plan = listPlan(productListQuery, { ...query, filters: others, after: undefined }, [visibleTo(visibility)]);
    const sorted = query.sort !== productListQuery.defaultSort && !relevance;
    return searchPageQueries(db, { q, where: plan.where, orderBy: sorted ? plan.orderBy : null, limit: plan.limit, offset: plan.offset });
  }
  if (relevance) throw ApiError.badParameter('sort', 'relevance orders a search: it needs q');
  const totalFrom = totalSource(query.filters, visibility);
  const { category, status, ...others } = query.filters;
  if (category === undefined) {
    const plan = listPlan(productListQuery, query, [visibleTo(visibility)]);
    return { rows: windowRows(db, plan), total: totalFrom === 'count' ? db.select({ total: count() }).from(products).where(plan.matching) : keptTotal(db, totalFrom) };
  }
  const { listingWhere, productFilters } = listingConditions(others);
  const vendorScope = visibility.vendorId ? eq(products.vendorId, visibility.vendorId) : undefined;
  // Walked in category_listing's order, by offset (a CSV export's keyset is on products' own columns).
  const { where, limit, offset } = listPlan(productListQuery, { ...query, filters: productFilters, after: undefined }, [vendorScope]);
  const window = { category, statuses: visibleStatuses(visibility, status), listingWhere, where };
  return {
    rows: categoryPageQuery(db, { ...window, sort: query.sort, limit, offset }),
    total: totalFrom === 'count' ? categoryCountQuery(db, window) : keptTotal(db, totalFrom),
  };
}

/** Search-box suggestions among the products the caller may see (products.search.ts). */
export function suggestProducts(db: Database, q: string, visibility: Visibility) {
  return suggest(db, q, visibleTo(visibility));
}

export async function listProducts(db: Database, query: ProductListQuery, visibility: Visibility, facets: readonly FacetName[] = []) {
  // The statements depend on the query, the caller's view and whether the sort is the default (by identity: a search ranks by relevance then).
  const key = `products ${JSON.stringify([visibility.staff, visibility.vendorId ?? null, query.sort === productListQuery.defaultSort, facets, query])}`;
  const { rows, total, facetCounts } = keptQueries(db, key, () => ({
    ...productListQueries(db, query, visibility),
    facetCounts: facets.length ? facetsStatement(db, facets, facetScope(query, visibility)) : undefined,
  }));
  if (!facetCounts) {
    const page = await loadProducts(db, rows, total);
    return { items: page.items, total: page.total!, facets: undefined };
  }
  // The facets' statement rides in the page's batch: still one round trip.
  const [found, totals, facetRows] = await db.batch([rows, total, facetCounts]);
  return { items: found.map(productFromRow), total: totals[0]?.total ?? 0, facets: facetsFrom(facetRows, facets) };
}

/** What the facets count over: the list's filters and the products the caller sees. */
function facetScope(query: ProductListQuery, visibility: Visibility) {
  const { status, ...filters } = query.filters;
  return {
    filters,
    statuses: visibleStatuses(visibility, status),
    visible: and(visibleTo(visibility), status ? eq(products.status, status) : undefined),
    statusesOnly: !visibility.vendorId,
  };
}

/** One product by id or slug, or undefined. */
export async function findProduct(db: Database, idOrSlug: string, visibility: Visibility) {
  const { rows } = keptQueries(db, `product ${JSON.stringify([visibility.staff, visibility.vendorId ?? null, idOrSlug])}`, () => ({
    rows: windowRows(db, { where: and(or(eq(products.id, idOrSlug), eq(products.slug, idOrSlug)), visibleTo(visibility)), orderBy: [asc(products.id)], limit: 1, offset: 0 }),
  }));
  const { items } = await loadProducts(db, rows);
  return items[0];
}

export async function getProduct(db: Database, idOrSlug: string, visibility: Visibility): Promise<Product> {
  const product = await findProduct(db, idOrSlug, visibility);
  if (!product) throw ApiError.notFound('Product', idOrSlug);
  return product;
}
