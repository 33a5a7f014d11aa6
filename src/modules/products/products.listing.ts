import { and, count, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Database } from '../../db/client';
import { categoryListing, type ProductStatus, products } from '../../db/schema';
import { exactFilter, moneyBoundFilter, orderByFor, type ParsedListQuery, type SortKey } from '../../lib/query';
import { categoryIdOf, type productListQuery } from './products.query';

type Filters = ParsedListQuery<typeof productListQuery.filters>['filters'];

/**
 * Product lists filtered by category, read off category_listing (src/db/schema/listing.ts): the
 * category's rows of each status the caller sees, walked along the index of the sort
 * (category_id, status, <column>, product_id) and merged in order, give the page's ids; only those
 * products are then read. A page costs its own rows whatever the size of the catalogue or the
 * category, where walking the products' index and probing each product's links read every product
 * before the page (a few thousand rows for a small category of a large catalogue).
 */

/** The listing's copy of each column a product list sorts on. */
const LISTING_SORTABLE: Record<keyof typeof productListQuery.sortable, SQLiteColumn> = {
  createdAt: categoryListing.createdAt,
  updatedAt: categoryListing.updatedAt,
  name: categoryListing.name,
  price: categoryListing.price,
  sku: categoryListing.sku,
  id: categoryListing.productId,
  // A list with `q` is a search (products.search.ts), never read off the listing.
  relevance: categoryListing.productId,
};

/**
 * Filters the listing answers from its own columns, built like the list's own (same parsing, same
 * SQL) over the listing's copy of the column: `price_min`/`price_max` become a range of the price
 * index, and neither they nor `sku` need the products read.
 */
const LISTING_FILTERS = {
  price_min: moneyBoundFilter(categoryListing.price, 'min', 'price_min on the listing'),
  price_max: moneyBoundFilter(categoryListing.price, 'max', 'price_max on the listing'),
  sku: exactFilter(categoryListing.sku, 'sku on the listing'),
} satisfies Partial<Record<keyof Filters, unknown>>;

/** Splits a category list's other filters into conditions on the listing and filters left for products. */
export function listingConditions(filters: Filters): { listingWhere: SQL | undefined; productFilters: Filters } {
  const productFilters: Filters = { ...filters };
  const conditions: (SQL | undefined)[] = [];
  for (const name of Object.keys(LISTING_FILTERS) as (keyof typeof LISTING_FILTERS)[]) {
    const value = filters[name];
    if (value === undefined) continue;
    conditions.push(LISTING_FILTERS[name].where(value as never));
    delete productFilters[name];
  }
  return { listingWhere: and(...conditions), productFilters };
}

export interface CategoryWindow {
  /** The category, by id or slug: the list holds its products and its descendants'. */
  category: string;
  /** The statuses the caller may see and asked for; none lists nothing. */
  statuses: readonly ProductStatus[];
  /** Conditions on the listing's own columns (listingConditions). */
  listingWhere: SQL | undefined;
  /** Every other condition, on products (other filters, a vendor's scope); each arm joins products for them. */
  where: SQL | undefined;
  sort: SortKey[];
  limit: number;
  offset: number;
}

/** Listing rows of the window's category whose status meets `statusIs`, under the window's other conditions. */
function inWindow(w: Omit<CategoryWindow, 'sort' | 'limit' | 'offset'>, statusIs: SQL) {
  return and(eq(categoryListing.categoryId, categoryIdOf(w.category)), statusIs, w.listingWhere, w.where);
}

/** The page's arm for one status: the listing rows, joined to products only when other conditions need them. */
function listingRows(db: Database, w: CategoryWindow, statusIs: SQL, selection: Record<string, SQL.Aliased>) {
  const rows = db.select(selection).from(categoryListing).$dynamic();
  return (w.where ? rows.innerJoin(products, eq(products.id, categoryListing.productId)) : rows).where(inWindow(w, statusIs));
}

/**
 * The page's products, in the sort's order (ties on the id). Each status's rows come off its own
 * index range already sorted, so several statuses (a staff list) are merged (UNION ALL, whose
 * ORDER BY SQLite answers by merging its sorted arms) and the walk stops once the page is full:
 * the offset's and the page's index entries are read, then the page's products. A sort of several
 * keys that no index holds still returns the right page, from a sort of the category's rows.
 */
export function categoryPageQuery(db: Database, w: CategoryWindow) {
  // The page's columns, each sort key's and the id, under names no table has: the merged ORDER BY
  // names result columns, and an arm that joins products has two of `price`, `name` ...
  const fields = [...new Set([...w.sort.map((k) => k.field), 'id'])] as (keyof typeof LISTING_SORTABLE)[];
  const alias = (field: string) => `sort_${field}`;
  const selection = Object.fromEntries(fields.map((f) => [f, sql`${LISTING_SORTABLE[f]}`.as(alias(f))]));
  const columnsOf = (table?: string) =>
    Object.fromEntries(fields.map((f) => [f, table ? sql`${sql.identifier(table)}.${sql.identifier(alias(f))}` : sql`${sql.identifier(alias(f))}`]));
  // One arm per status (none: an arm that matches nothing, for a public caller asking for drafts).
  const arms = w.statuses.length ? w.statuses.map((status) => eq(categoryListing.status, status)) : [sql`0`];
  const [first, ...others] = arms.map((statusIs) => listingRows(db, w, statusIs, selection));
  const merged = others.reduce((all, arm) => all.unionAll(arm), first!);
  const inner = columnsOf();
  const page = merged
    .orderBy(...orderByFor(w.sort, inner, inner.id!))
    .limit(w.limit)
    .offset(w.offset)
    .as('page');
  const outer = columnsOf('page');
  return db
    .select(getTableColumns(products))
    .from(page)
    .innerJoin(products, eq(products.id, outer.id!))
    .orderBy(...orderByFor(w.sort, outer, outer.id!));
}

/** How many products the window's conditions leave in the category, counted over the category's listing rows. */
export function categoryCountQuery(db: Database, w: Omit<CategoryWindow, 'sort' | 'limit' | 'offset'>) {
  const rows = db.select({ total: count() }).from(categoryListing).$dynamic();
  const statusIs = inArray(categoryListing.status, [...w.statuses]);
  return (w.where ? rows.innerJoin(products, eq(products.id, categoryListing.productId)) : rows).where(inWindow(w, statusIs));
}
