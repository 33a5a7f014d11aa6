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
import { listedPrices } from '../checkout';
import { ApiError } from '../../lib/errors';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { currencyTableOf, currencyTableRead, isForeign, listQueryIn, type MoneyView, moneyView, readsPrice, shownPrice, shownProductPrice } from './products.currency';
import { categoryCountQuery, categoryPageQuery, listingConditions } from './products.listing';
import { type FacetRow, facetsFrom, facetsStatement } from './products.facets';
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

/** A variant as shown in `view`'s currency (`price` and `compareAtPrice` in it), with its own prices per currency. */
export function toVariant(row: ProductVariantRow | RelatedVariant, view: MoneyView): Variant {
  return {
    id: row.id,
    sku: row.sku,
    name: row.name,
    options: row.options,
    ...shownPrice(row, view),
    prices: listedPrices(row.prices, view.table),
    weight: row.weight ?? null,
    stock: row.stock,
    lowStockThreshold: row.lowStockThreshold,
    position: row.position,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function toProduct(row: ProductRow, brand: Ref | null, vendor: Ref | null, cats: Ref[], variants: Variant[], view: MoneyView): Product {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    currency: view.currency.code,
    ...shownProductPrice(row, variants, view),
    prices: listedPrices(row.prices, view.table),
    taxClass: row.taxClass,
    sku: row.sku,
    status: row.status,
    brand,
    vendor,
    categories: cats,
    images: row.images,
    media: row.media,
    attributes: row.attributes,
    giftCard: row.giftCard,
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
 * so no other table is read. The total, when asked for, is counted in the same batch, and so are
 * the store's currencies (a few rows), for the minor units of the prices per currency, unless the
 * caller read them already (`view`, a list in another currency).
 */
async function loadProducts(db: Database, reads: ProductReads, view?: MoneyView) {
  const named = Object.entries({ ...reads, currencies: view ? undefined : currencyTableRead(db, {}) }).filter(([, read]) => read !== undefined);
  const results = (await db.batch(named.map(([, read]) => read) as never)) as unknown[];
  const got = Object.fromEntries(named.map(([name], i) => [name, results[i]])) as {
    rows: ProductRow[];
    total?: { total: number }[];
    facetCounts?: FacetRow[];
    currencies?: Parameters<typeof currencyTableOf>[0];
  };
  const shownIn = view ?? moneyView(currencyTableOf(got.currencies!));
  return { items: got.rows.map((row) => productFromRow(row, shownIn)), total: got.total?.[0]?.total ?? 0, facetRows: got.facetCounts };
}

/** The statements of a product read: its rows, and for a list its total and facets. */
interface ProductReads {
  rows: RunnableQuery<ProductRow[], 'sqlite'>;
  total?: RunnableQuery<{ total: number }[], 'sqlite'>;
  facetCounts?: RunnableQuery<FacetRow[], 'sqlite'>;
}

const windowRows = (db: Database, w: Window) =>
  db
    .select()
    .from(products)
    .where(w.where)
    .orderBy(...w.orderBy)
    .limit(w.limit)
    .offset(w.offset);

function productFromRow(row: ProductRow, view: MoneyView): Product {
  const { brand, vendor, categories: cats, variants } = row.related;
  return toProduct(
    row,
    brand,
    vendor,
    cats,
    variants.map((v) => toVariant(v, view)),
    view,
  );
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
export function productListQueries(db: Database, query: ProductListQuery, visibility: Visibility, view?: MoneyView) {
  const config = view && isForeign(view) ? listQueryIn(view) : productListQuery;
  const relevance = query.sort.some((k) => k.field === 'relevance');
  if (query.filters.q !== undefined) {
    // A search: the index's matches are the rows, ordered by relevance unless a sort was asked for.
    const { q, ...others } = query.filters;
    // Ranked or sorted, a search's pages are read by offset (a CSV export's keyset is for the plain list).
    const plan = listPlan(config, { ...query, filters: others, after: undefined }, [visibleTo(visibility)]);
    const sorted = query.sort !== productListQuery.defaultSort && !relevance;
    return searchPageQueries(db, { q, where: plan.where, orderBy: sorted ? plan.orderBy : null, limit: plan.limit, offset: plan.offset });
  }
  if (relevance) throw ApiError.badParameter('sort', 'relevance orders a search: it needs q');
  const totalFrom = totalSource(query.filters, visibility);
  const { category, status, ...others } = query.filters;
  // category_listing keeps default prices: a list by price in another currency reads products (category as a condition).
  if (category === undefined || (config !== productListQuery && readsPrice(query))) {
    const plan = listPlan(config, query, [visibleTo(visibility)]);
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

/**
 * The view a read in `currency` shows (one round trip for the store's currencies first), or
 * undefined for the default currency, whose reads take the currencies in their own batch.
 */
export async function viewFor(db: Database, currency: string | undefined): Promise<MoneyView | undefined> {
  if (currency === undefined) return undefined;
  return moneyView(currencyTableOf(await currencyTableRead(db, {})), currency);
}

export async function listProducts(db: Database, query: ProductListQuery, visibility: Visibility, facets: readonly FacetName[] = [], view?: MoneyView) {
  const foreign = view && isForeign(view) ? view : undefined;
  if (foreign && facets.includes('price')) {
    throw ApiError.badParameter('facets', `the price facet's buckets are in ${foreign.table.defaultCode}, the default currency: leave out currency or the price facet`);
  }
  // The statements depend on the query, the caller's view, whether the sort is the default (by identity: a search ranks by relevance then)
  // and, in another currency, its code, rate and digits.
  const shownIn = foreign && [foreign.currency.code, foreign.currency.exchangeRate, foreign.currency.minorUnits, foreign.defaultDigits];
  const key = `products ${JSON.stringify([visibility.staff, visibility.vendorId ?? null, query.sort === productListQuery.defaultSort, facets, query, ...(shownIn ? [shownIn] : [])])}`;
  const reads = keptQueries(db, key, () => ({
    ...productListQueries(db, query, visibility, foreign),
    // The facets' statement rides in the page's batch: still one round trip.
    facetCounts: facets.length ? facetsStatement(db, facets, { ...facetScope(query, visibility), listQuery: foreign ? listQueryIn(foreign) : undefined }) : undefined,
  }));
  const page = await loadProducts(db, reads, view);
  return { items: page.items, total: page.total, facets: page.facetRows ? facetsFrom(page.facetRows, facets) : undefined };
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
export async function findProduct(db: Database, idOrSlug: string, visibility: Visibility, view?: MoneyView) {
  const reads = keptQueries(db, `product ${JSON.stringify([visibility.staff, visibility.vendorId ?? null, idOrSlug])}`, () => ({
    rows: windowRows(db, { where: and(or(eq(products.id, idOrSlug), eq(products.slug, idOrSlug)), visibleTo(visibility)), orderBy: [asc(products.id)], limit: 1, offset: 0 }),
  }));
  const { items } = await loadProducts(db, reads, view);
  return items[0];
}

/** One product by id or slug, its prices shown in `view`'s currency (the default currency without one); 404 when there is none. */
export async function getProduct(db: Database, idOrSlug: string, visibility: Visibility, view?: MoneyView): Promise<Product> {
  const product = await findProduct(db, idOrSlug, visibility, view);
  if (!product) throw ApiError.notFound('Product', idOrSlug);
  return product;
}
