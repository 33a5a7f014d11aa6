import { and, asc, count, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { RunnableQuery } from 'drizzle-orm/runnable-query';
import type { Database } from '../../db/client';
import {
  brands,
  categories,
  categoryProductCounts,
  PRODUCT_STATUSES,
  type ProductRow,
  type ProductStatus,
  productStatusCounts,
  productCategories,
  products,
  type ProductVariantRow,
  type ProductRelated,
  productVariants,
  vendors,
} from '../../db/schema';
import { chunkRows, withUniqueConflicts } from '../../lib/db-errors';
import { withGuards } from '../../lib/db-guards';
import { ApiError, type FieldProblem } from '../../lib/errors';
import { outboxEvent } from '../../lib/events';
import { ID_PREFIX, newId } from '../../lib/ids';
import { toMajor, toMajorOrNull, toMinor } from '../../lib/money';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { uniqueSlug } from '../../lib/slug';
import { stockChangeStatements } from '../inventory/stock';
import { categoryCountQuery, categoryPageQuery, listingConditions } from './products.listing';
import { facetsFrom, facetsStatement } from './products.facets';
import { categoryIdOf, type FacetName, productListQuery } from './products.query';
import { searchPageQueries, suggest } from './products.search';
import type {
  CreateProductInput,
  CreateVariantInput,
  Product,
  UpdateProductInput,
  UpdateVariantInput,
  Variant,
} from './products.schemas';
import { DEFAULT_PRODUCT_STATUS, MAX_VARIANTS_PER_PRODUCT } from './products.schemas';

type Ref = { id: string; name: string; slug: string };

/** Which API field a UNIQUE violation of each column is about. */
export const UNIQUE_FIELDS = {
  'products.slug': 'slug',
  'products.sku': 'sku',
  'product_variants.sku': 'sku',
};

export { MAX_VARIANTS_PER_PRODUCT };

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

/** A vendor user keeps its products with its own vendor: naming any other vendor is 403. */
function refuseOtherVendor(vendorId: string | null, requested: string | null | undefined) {
  if (vendorId && requested !== undefined && requested !== vendorId) {
    throw ApiError.forbidden("A vendor user's products belong to its own vendor: vendorId must be your vendor's id or left out");
  }
}

// ---------------------------------------------------------------------------------------------
// Reading

export function toVariant(row: ProductVariantRow): Variant {
  return {
    id: row.id,
    sku: row.sku,
    name: row.name,
    options: row.options,
    price: toMajor(row.price),
    compareAtPrice: toMajorOrNull(row.compareAtPrice),
    stock: row.stock,
    lowStockThreshold: row.lowStockThreshold,
    position: row.position,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function toProduct(row: ProductRow, brand: Ref | null, vendor: Ref | null, cats: Ref[], variants: Variant[]): Product {
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

const EMPTY_RELATED: ProductRelated = { brand: null, vendor: null, categories: [], variants: [] };

const refColumns = (t: typeof brands | typeof vendors | typeof categories) => ({ id: t.id, name: t.name, slug: t.slug });

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

const windowRows = (db: Database, w: Window) => db.select().from(products).where(w.where).orderBy(...w.orderBy).limit(w.limit).offset(w.offset);

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
  const { rows, total } = productListQueries(db, query, visibility);
  if (!facets.length) {
    const page = await loadProducts(db, rows, total);
    return { items: page.items, total: page.total!, facets: undefined };
  }
  // The facets' statement rides in the page's batch: still one round trip.
  const { status, ...filters } = query.filters;
  const scope = { filters, statuses: visibleStatuses(visibility, status), visible: and(visibleTo(visibility), status ? eq(products.status, status) : undefined), statusesOnly: !visibility.vendorId };
  const [found, totals, facetRows] = await db.batch([rows, total, facetsStatement(db, facets, scope)]);
  return { items: found.map(productFromRow), total: totals[0]?.total ?? 0, facets: facetsFrom(facetRows, facets) };
}

/** One product by id or slug, or undefined. */
export async function findProduct(db: Database, idOrSlug: string, visibility: Visibility) {
  const where = and(or(eq(products.id, idOrSlug), eq(products.slug, idOrSlug)), visibleTo(visibility));
  const { items } = await loadProducts(db, windowRows(db, { where, orderBy: [asc(products.id)], limit: 1, offset: 0 }));
  return items[0];
}

export async function getProduct(db: Database, idOrSlug: string, visibility: Visibility): Promise<Product> {
  const product = await findProduct(db, idOrSlug, visibility);
  if (!product) throw ApiError.notFound('Product', idOrSlug);
  return product;
}

// ---------------------------------------------------------------------------------------------
// References

interface RefInput {
  brandId?: string | null;
  vendorId?: string | null;
  categoryIds?: string[];
}
interface ResolvedRefs {
  brand?: Ref | null;
  vendor?: Ref | null;
  categories?: Ref[];
}

/** Looks up the brand, vendor and categories a body names, in one batch; 422 for any that do not exist. */
export async function resolveRefs(db: Database, input: RefInput): Promise<ResolvedRefs> {
  const categoryIds = input.categoryIds ? [...new Set(input.categoryIds)] : undefined;
  const [brandRows, vendorRows, categoryRows] = await db.batch([
    db.select(refColumns(brands)).from(brands).where(eq(brands.id, input.brandId ?? '')),
    db.select(refColumns(vendors)).from(vendors).where(eq(vendors.id, input.vendorId ?? '')),
    db
      .select(refColumns(categories))
      .from(categories)
      .where(inArray(categories.id, categoryIds?.length ? categoryIds : ['']))
      .orderBy(asc(categories.name), asc(categories.id)),
  ]);
  const errors: FieldProblem[] = [];
  if (input.brandId && !brandRows[0]) errors.push({ field: 'brandId', problem: `no brand '${input.brandId}'`, code: 'not_found' });
  if (input.vendorId && !vendorRows[0]) errors.push({ field: 'vendorId', problem: `no vendor '${input.vendorId}'`, code: 'not_found' });
  const missing = categoryIds?.filter((id) => !categoryRows.some((c) => c.id === id)) ?? [];
  if (missing.length) errors.push({ field: 'categoryIds', problem: `no category ${missing.map((id) => `'${id}'`).join(', ')}`, code: 'not_found' });
  if (errors.length) throw ApiError.validation(errors);
  return {
    ...(input.brandId !== undefined ? { brand: brandRows[0] ?? null } : {}),
    ...(input.vendorId !== undefined ? { vendor: vendorRows[0] ?? null } : {}),
    ...(categoryIds ? { categories: categoryRows } : {}),
  };
}

function duplicateSkus(skus: (string | null | undefined)[], field: (index: number) => string): FieldProblem[] {
  const seen = new Set<string>();
  const errors: FieldProblem[] = [];
  skus.forEach((sku, i) => {
    if (!sku) return;
    if (seen.has(sku)) errors.push({ field: field(i), problem: `SKU '${sku}' appears more than once`, code: 'already_exists' });
    seen.add(sku);
  });
  return errors;
}

export function categoryLinkInserts(db: Database, productId: string, cats: Ref[]) {
  const links = cats.map((c) => ({ productId, categoryId: c.id }));
  return chunkRows(links, 2).map((chunk) => db.insert(productCategories).values(chunk));
}

export function variantInserts(db: Database, rows: ProductVariantRow[]) {
  return chunkRows(rows, 12).map((chunk) => db.insert(productVariants).values(chunk));
}

// ---------------------------------------------------------------------------------------------
// Writing: each write and its outbox event go in one batch, so they commit together.

export async function createProduct(db: Database, body: CreateProductInput, vendorId: string | null = null, now = new Date()): Promise<Product> {
  refuseOtherVendor(vendorId, body.vendorId);
  const input = vendorId ? { ...body, vendorId } : body;
  const ts = now.toISOString();
  const id = newId(ID_PREFIX.product, now.getTime());
  const [refs, slug] = await Promise.all([
    resolveRefs(db, { brandId: input.brandId, vendorId: input.vendorId, categoryIds: input.categoryIds ?? [] }),
    input.slug ?? uniqueSlug(db, products, products.slug, input.name),
  ]);
  const price = toMinor(input.price);
  const variantInputs: CreateVariantInput[] = input.variants ?? [
    { sku: input.sku ?? null, price: input.price, compareAtPrice: input.compareAtPrice ?? null, stock: input.stock ?? 0 },
  ];
  const skuErrors = duplicateSkus(variantInputs.map((v) => v.sku), (i) => `variants.${i}.sku`);
  if (skuErrors.length) throw ApiError.validation(skuErrors);

  const row: ProductRow = {
    id,
    name: input.name,
    slug,
    description: input.description ?? null,
    price,
    compareAtPrice: input.compareAtPrice == null ? null : toMinor(input.compareAtPrice),
    sku: input.sku ?? null,
    status: input.status ?? DEFAULT_PRODUCT_STATUS,
    brandId: refs.brand?.id ?? null,
    vendorId: refs.vendor?.id ?? null,
    images: input.images ?? [],
    attributes: input.attributes ?? {},
    lowStockThreshold: input.lowStockThreshold ?? null,
    related: EMPTY_RELATED, // filled by the triggers as the variants and links below are inserted
    media: [],
    createdAt: ts,
    updatedAt: ts,
  };
  const variantRows = variantInputs.map((v, position) => newVariantRow(id, v, price, position, now));
  const product = toProduct(row, refs.brand ?? null, refs.vendor ?? null, refs.categories ?? [], variantRows.map(toVariant));

  await withUniqueConflicts(UNIQUE_FIELDS, () =>
    db.batch([
      db.insert(products).values(row),
      ...variantInserts(db, variantRows),
      ...categoryLinkInserts(db, id, refs.categories ?? []),
      outboxEvent(db, 'product.created', { productId: id, product }, now),
    ]),
  );
  return product;
}

export function newVariantRow(productId: string, v: CreateVariantInput, productPrice: number, position: number, now: Date): ProductVariantRow {
  const ts = now.toISOString();
  return {
    id: newId(ID_PREFIX.variant, now.getTime()),
    productId,
    sku: v.sku ?? null,
    name: v.name ?? null,
    options: v.options ?? {},
    price: v.price === undefined ? productPrice : toMinor(v.price),
    compareAtPrice: v.compareAtPrice == null ? null : toMinor(v.compareAtPrice),
    stock: v.stock ?? 0,
    lowStockThreshold: v.lowStockThreshold ?? null,
    position: v.position ?? position,
    createdAt: ts,
    updatedAt: ts,
  };
}

/** A product with one variant and no options is a simple product: its variant mirrors its price and SKU. */
function defaultVariant(product: Product): Variant | undefined {
  const [only, ...others] = product.variants;
  return only && !others.length && Object.keys(only.options).length === 0 ? only : undefined;
}

export async function updateProduct(db: Database, id: string, patch: UpdateProductInput, vendorId: string | null = null, now = new Date()): Promise<Product> {
  const current = await getProduct(db, id, writable(vendorId));
  refuseOtherVendor(vendorId, patch.vendorId);
  if (Object.keys(patch).length === 0) return current;
  const ts = now.toISOString();
  const refs = await resolveRefs(db, { brandId: patch.brandId, vendorId: patch.vendorId, categoryIds: patch.categoryIds });

  const { categoryIds: _, price, compareAtPrice, ...scalars } = patch;
  const set: Partial<ProductRow> = { ...scalars, updatedAt: ts };
  if (price !== undefined) set.price = toMinor(price);
  if (compareAtPrice !== undefined) set.compareAtPrice = compareAtPrice === null ? null : toMinor(compareAtPrice);

  const simple = defaultVariant(current);
  const variantSet: Partial<ProductVariantRow> = {};
  if (simple) {
    if (set.price !== undefined) variantSet.price = set.price;
    if (set.compareAtPrice !== undefined) variantSet.compareAtPrice = set.compareAtPrice;
    if (set.sku !== undefined) variantSet.sku = set.sku;
  }
  const syncVariant = simple && Object.keys(variantSet).length > 0;

  const variants = current.variants.map((v) =>
    syncVariant && v.id === simple.id
      ? {
          ...v,
          ...(variantSet.price !== undefined ? { price: toMajor(variantSet.price) } : {}),
          ...(variantSet.compareAtPrice !== undefined ? { compareAtPrice: toMajorOrNull(variantSet.compareAtPrice) } : {}),
          ...(variantSet.sku !== undefined ? { sku: variantSet.sku } : {}),
          updatedAt: ts,
        }
      : v,
  );
  // brandId and vendorId are columns, not fields of the representation (it shows `brand` and `vendor`).
  const { brandId: _brandId, vendorId: _vendorId, ...shown } = scalars;
  const product: Product = {
    ...current,
    ...shown,
    ...(price !== undefined ? { price } : {}),
    ...(compareAtPrice !== undefined ? { compareAtPrice } : {}),
    brand: refs.brand !== undefined ? refs.brand : current.brand,
    vendor: refs.vendor !== undefined ? refs.vendor : current.vendor,
    categories: refs.categories ?? current.categories,
    variants,
    updatedAt: ts,
  } as Product;

  await withUniqueConflicts(UNIQUE_FIELDS, () =>
    db.batch([
      db.update(products).set(set).where(eq(products.id, current.id)),
      ...(syncVariant ? [db.update(productVariants).set({ ...variantSet, updatedAt: ts }).where(eq(productVariants.id, simple.id))] : []),
      ...(refs.categories
        ? [db.delete(productCategories).where(eq(productCategories.productId, current.id)), ...categoryLinkInserts(db, current.id, refs.categories)]
        : []),
      outboxEvent(db, 'product.updated', { productId: current.id, product }, now),
    ]),
  );
  return product;
}

/**
 * `product.deleted` carries the product as it was, like every `product.*` event (docs/webhooks.md).
 * Returns it, so the caller can delete the stored files its images no longer share (media.objects.ts).
 */
export async function deleteProduct(db: Database, id: string, vendorId: string | null = null, now = new Date()): Promise<Product> {
  const current = await getProduct(db, id, writable(vendorId));
  await db.batch([
    db.delete(products).where(eq(products.id, current.id)),
    outboxEvent(db, 'product.deleted', { productId: current.id, product: current }, now),
  ]);
  return current;
}

// ---------------------------------------------------------------------------------------------
// Variants: every change is a change of the product, so it emits `product.updated`.

function findVariant(product: Product, variantId: string): Variant {
  const variant = product.variants.find((v) => v.id === variantId);
  if (!variant) throw ApiError.notFound('Variant', variantId);
  return variant;
}

export async function listVariants(db: Database, productId: string, visibility: Visibility): Promise<Variant[]> {
  return (await getProduct(db, productId, visibility)).variants;
}

export async function getVariant(db: Database, productId: string, variantId: string, visibility: Visibility): Promise<Variant> {
  return findVariant(await getProduct(db, productId, visibility), variantId);
}

export async function createVariant(db: Database, productId: string, input: CreateVariantInput, vendorId: string | null = null, now = new Date()): Promise<Variant> {
  const current = await getProduct(db, productId, writable(vendorId));
  if (current.variants.length >= MAX_VARIANTS_PER_PRODUCT) {
    throw ApiError.conflict(`A product has at most ${MAX_VARIANTS_PER_PRODUCT} variants`);
  }
  const row = newVariantRow(current.id, input, toMinor(current.price), current.variants.length, now);
  const variant = toVariant(row);
  const product: Product = { ...current, variants: [...current.variants, variant], stock: current.stock + variant.stock, updatedAt: row.updatedAt };
  await withUniqueConflicts(UNIQUE_FIELDS, () =>
    db.batch([
      db.insert(productVariants).values(row),
      db.update(products).set({ updatedAt: row.updatedAt }).where(eq(products.id, current.id)),
      outboxEvent(db, 'product.updated', { productId: current.id, product }, now),
    ]),
  );
  return variant;
}

export async function updateVariant(
  db: Database,
  productId: string,
  variantId: string,
  patch: UpdateVariantInput,
  vendorId: string | null = null,
  now = new Date(),
  actor = 'system',
): Promise<Variant> {
  const current = await getProduct(db, productId, writable(vendorId));
  const before = findVariant(current, variantId);
  if (Object.keys(patch).length === 0) return before;
  const ts = now.toISOString();
  const { price, compareAtPrice, stock, ...scalars } = patch;
  const set: Partial<ProductVariantRow> = { ...scalars, updatedAt: ts };
  // A new stock level is a correction like any other: in the history, and able to emit inventory.low.
  // It applies as a delta, so an order placed between the read above and this write keeps its decrement.
  const delta = stock === undefined ? 0 : stock - before.stock;
  const stockChange = delta === 0 ? [] : stockChangeStatements(db, { variantId, delta, reason: 'correction', note: 'variant update', actor }, now);
  if (price !== undefined) set.price = toMinor(price);
  if (compareAtPrice !== undefined) set.compareAtPrice = compareAtPrice === null ? null : toMinor(compareAtPrice);
  const variant: Variant = { ...before, ...patch, updatedAt: ts };
  const variants = current.variants.map((v) => (v.id === variantId ? variant : v));
  const product: Product = { ...current, variants, stock: variants.reduce((s, v) => s + v.stock, 0), updatedAt: ts };
  await withGuards(() =>
    withUniqueConflicts(UNIQUE_FIELDS, () =>
      db.batch([
        db.update(productVariants).set(set).where(eq(productVariants.id, variantId)),
        ...stockChange,
        db.update(products).set({ updatedAt: ts }).where(eq(products.id, current.id)),
        outboxEvent(db, 'product.updated', { productId: current.id, product }, now),
      ]),
    ),
  );
  return variant;
}

export async function deleteVariant(db: Database, productId: string, variantId: string, vendorId: string | null = null, now = new Date()): Promise<void> {
  const current = await getProduct(db, productId, writable(vendorId));
  findVariant(current, variantId);
  if (current.variants.length === 1) throw ApiError.conflict('A product keeps at least one variant; delete the product instead');
  const ts = now.toISOString();
  const variants = current.variants.filter((v) => v.id !== variantId);
  const product: Product = { ...current, variants, stock: variants.reduce((s, v) => s + v.stock, 0), updatedAt: ts };
  await db.batch([
    db.delete(productVariants).where(eq(productVariants.id, variantId)),
    db.update(products).set({ updatedAt: ts }).where(eq(products.id, current.id)),
    outboxEvent(db, 'product.updated', { productId: current.id, product }, now),
  ]);
}
