// Writing products. Reads are in products.read.ts, variants in variants.service.ts.
import { asc, eq, inArray } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { bulkInserts } from '../../db/bound-parameters';
import type { Database } from '../../db/client';
import {
  brands,
  categories,
  type CurrencyPrices,
  type ProductRow,
  productCategories,
  products,
  type ProductVariantRow,
  type ProductRelated,
  productVariants,
  taxClasses,
  vendors,
} from '../../db/schema';
import { type CurrencyPriceInput, type CurrencyTable, listedPrices, storedPrices } from '../checkout';
import { withUniqueConflicts } from '../../lib/db-errors';
import { ApiError, type FieldProblem } from '../../lib/errors';
import { outboxEvent } from '../../lib/events';
import { ID_PREFIX, newId } from '../../lib/ids';
import { toMajor, toMajorOrNull, toMinor } from '../../lib/money';
import { uniqueSlug } from '../../lib/slug';
import { currencyTableOf, currencyTableRead, moneyView } from './products.currency';
import { getProduct, type Ref, toProduct, toVariant, writable } from './products.read';
import type { CreateProductInput, CreateVariantInput, Product, UpdateProductInput, Variant } from './products.schemas';
import { DEFAULT_PRODUCT_STATUS } from './products.schemas';

/** Which API field a UNIQUE violation of each column is about. */
export const UNIQUE_FIELDS = {
  'products.slug': 'slug',
  'products.sku': 'sku',
  'product_variants.sku': 'sku',
};

/** A vendor user keeps its products with its own vendor: naming any other vendor is 403. */
function refuseOtherVendor(vendorId: string | null, requested: string | null | undefined) {
  if (vendorId && requested !== undefined && requested !== vendorId) {
    throw ApiError.forbidden("A vendor user's products belong to its own vendor: vendorId must be your vendor's id or left out");
  }
}

/** A bought gift card is the store's money, spendable on every vendor's products: a vendor cannot sell one (docs/gift-cards.md). */
function refuseVendorGiftCard(vendorId: string | null, giftCard: boolean | undefined) {
  if (vendorId && giftCard) throw ApiError.forbidden("A gift card is the store's money: a vendor's credential cannot make a product a gift card");
}

const EMPTY_RELATED: ProductRelated = { brand: null, vendor: null, categories: [], variants: [] };

const refColumns = (t: typeof brands | typeof vendors | typeof categories) => ({ id: t.id, name: t.name, slug: t.slug });

// ---------------------------------------------------------------------------------------------
// References

interface RefInput {
  brandId?: string | null;
  vendorId?: string | null;
  categoryIds?: string[];
  taxClass?: string;
}
export interface ResolvedRefs {
  brand?: Ref | null;
  vendor?: Ref | null;
  categories?: Ref[];
  /** The store's currencies, which prices per currency are checked against and shown in. */
  currencies: CurrencyTable;
}

/**
 * Looks up the brand, vendor, categories and tax class a body names, with the store's currencies,
 * in one batch; 422 for any that do not exist.
 */
export async function resolveRefs(db: Database, input: RefInput): Promise<ResolvedRefs> {
  const categoryIds = input.categoryIds ? [...new Set(input.categoryIds)] : undefined;
  const [brandRows, vendorRows, categoryRows, taxClassRows, currencyRows] = await db.batch([
    db
      .select(refColumns(brands))
      .from(brands)
      .where(eq(brands.id, input.brandId ?? '')),
    db
      .select(refColumns(vendors))
      .from(vendors)
      .where(eq(vendors.id, input.vendorId ?? '')),
    db
      .select(refColumns(categories))
      .from(categories)
      .where(inArray(categories.id, categoryIds?.length ? categoryIds : ['']))
      .orderBy(asc(categories.name), asc(categories.id)),
    db
      .select({ code: taxClasses.code })
      .from(taxClasses)
      .where(eq(taxClasses.code, input.taxClass ?? '')),
    currencyTableRead(db, {}),
  ]);
  const errors: FieldProblem[] = [];
  if (input.brandId && !brandRows[0]) errors.push({ field: 'brandId', problem: `no brand '${input.brandId}'`, code: 'not_found' });
  if (input.vendorId && !vendorRows[0]) errors.push({ field: 'vendorId', problem: `no vendor '${input.vendorId}'`, code: 'not_found' });
  const missing = categoryIds?.filter((id) => !categoryRows.some((c) => c.id === id)) ?? [];
  if (missing.length) errors.push({ field: 'categoryIds', problem: `no category ${missing.map((id) => `'${id}'`).join(', ')}`, code: 'not_found' });
  if (input.taxClass !== undefined && !taxClassRows[0]) {
    errors.push({ field: 'taxClass', problem: `no tax class '${input.taxClass}' (GET /api/settings/tax-classes)`, code: 'not_found' });
  }
  if (errors.length) throw ApiError.validation(errors);
  return {
    currencies: currencyTableOf(currencyRows),
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
  return bulkInserts(db, productCategories, links);
}

export function variantInserts(db: Database, rows: ProductVariantRow[]) {
  return bulkInserts(db, productVariants, rows);
}

// ---------------------------------------------------------------------------------------------
// Writing: each write and its outbox event go in one batch, so they commit together.

export async function createProduct(db: Database, body: CreateProductInput, vendorId: string | null = null, now = new Date()): Promise<Product> {
  refuseOtherVendor(vendorId, body.vendorId);
  refuseVendorGiftCard(vendorId, body.giftCard);
  const input = vendorId ? { ...body, vendorId } : body;
  const [refs, slug] = await Promise.all([
    resolveRefs(db, { brandId: input.brandId, vendorId: input.vendorId, categoryIds: input.categoryIds ?? [], taxClass: input.taxClass }),
    input.slug ?? uniqueSlug(db, products, products.slug, input.name),
  ]);
  const { product, statements } = productCreation(db, input, refs, slug, now);
  await withUniqueConflicts(UNIQUE_FIELDS, () => db.batch(statements));
  return product;
}

/**
 * A new product from a body whose references and slug are resolved: its representation, and the
 * statements that write it in one batch (the product row, its variants, its category links and its
 * `product.created` event); 422 for duplicate SKUs or prices the store's currencies refuse. It reads
 * nothing and sends nothing, so an import's check builds the very statements its write will send
 * (src/modules/imports/writable.ts).
 */
export function productCreation(
  db: Database,
  input: CreateProductInput,
  refs: ResolvedRefs,
  slug: string,
  now: Date,
): { product: Product; statements: [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]] } {
  const ts = now.toISOString();
  const id = newId(ID_PREFIX.product, now.getTime());
  const price = toMinor(input.price);
  const variantInputs: CreateVariantInput[] = input.variants ?? [
    { sku: input.sku ?? null, price: input.price, compareAtPrice: input.compareAtPrice ?? null, prices: input.prices, stock: input.stock ?? 0, weight: input.weight ?? null },
  ];
  const productPrices = checkedPrices(input.prices, refs.currencies, 'prices');
  const variantPrices = variantInputs.map((v, i) => checkedPrices(v.prices, refs.currencies, input.variants ? `variants.${i}.prices` : 'prices'));
  const errors = [
    ...duplicateSkus(
      variantInputs.map((v) => v.sku),
      (i) => `variants.${i}.sku`,
    ),
    ...productPrices.problems,
    ...(input.variants ? variantPrices.flatMap((p) => p.problems) : []),
  ];
  if (errors.length) throw ApiError.validation(errors);

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
    taxClass: input.taxClass ?? 'standard',
    giftCard: input.giftCard ?? false,
    prices: productPrices.prices,
    related: EMPTY_RELATED, // filled by the triggers as the variants and links below are inserted
    media: [],
    variantPrices: '{}', // kept with `related`
    createdAt: ts,
    updatedAt: ts,
  };
  const variantRows = variantInputs.map((v, position) => newVariantRow(id, v, price, position, now, variantPrices[position]!.prices));
  const view = moneyView(refs.currencies);
  const product = toProduct(
    row,
    refs.brand ?? null,
    refs.vendor ?? null,
    refs.categories ?? [],
    variantRows.map((v) => toVariant(v, view)),
    view,
  );

  const statements: [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]] = [
    db.insert(products).values(row),
    ...variantInserts(db, variantRows),
    ...categoryLinkInserts(db, id, refs.categories ?? []),
    outboxEvent(db, 'product.created', { productId: id, product }, now),
  ];
  return { product, statements };
}

/** A body's `prices` as stored (absent: none), with the problems that keep it from being stored. */
export function checkedPrices(list: CurrencyPriceInput[] | undefined, table: CurrencyTable, field: string) {
  return storedPrices(list ?? [], table, field);
}

/** `prices` is checked against the store's currencies first (checkedPrices): `prices` here is the stored map. */
export function newVariantRow(productId: string, v: CreateVariantInput, productPrice: number, position: number, now: Date, prices: CurrencyPrices = {}): ProductVariantRow {
  const ts = now.toISOString();
  return {
    id: newId(ID_PREFIX.variant, now.getTime()),
    productId,
    sku: v.sku ?? null,
    name: v.name ?? null,
    options: v.options ?? {},
    price: v.price === undefined ? productPrice : toMinor(v.price),
    compareAtPrice: v.compareAtPrice == null ? null : toMinor(v.compareAtPrice),
    weight: v.weight ?? null,
    prices,
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
  refuseVendorGiftCard(vendorId, patch.giftCard);
  if (Object.keys(patch).length === 0) return current;
  const ts = now.toISOString();
  const refs = await resolveRefs(db, { brandId: patch.brandId, vendorId: patch.vendorId, categoryIds: patch.categoryIds, taxClass: patch.taxClass });

  const { categoryIds: _, price, compareAtPrice, prices, ...scalars } = patch;
  const set: Partial<ProductRow> = { ...scalars, updatedAt: ts };
  if (price !== undefined) set.price = toMinor(price);
  if (compareAtPrice !== undefined) set.compareAtPrice = compareAtPrice === null ? null : toMinor(compareAtPrice);
  if (prices !== undefined) {
    const checked = checkedPrices(prices, refs.currencies, 'prices');
    if (checked.problems.length) throw ApiError.validation(checked.problems);
    set.prices = checked.prices;
  }
  const pricesShown = set.prices && listedPrices(set.prices, refs.currencies);

  const simple = defaultVariant(current);
  const variantSet: Partial<ProductVariantRow> = {};
  if (simple) {
    if (set.price !== undefined) variantSet.price = set.price;
    if (set.compareAtPrice !== undefined) variantSet.compareAtPrice = set.compareAtPrice;
    if (set.prices !== undefined) variantSet.prices = set.prices;
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
          ...(pricesShown ? { prices: pricesShown } : {}),
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
    ...(pricesShown ? { prices: pricesShown } : {}),
    brand: refs.brand !== undefined ? refs.brand : current.brand,
    vendor: refs.vendor !== undefined ? refs.vendor : current.vendor,
    categories: refs.categories ?? current.categories,
    variants,
    updatedAt: ts,
  } as Product;

  await withUniqueConflicts(UNIQUE_FIELDS, () =>
    db.batch([
      db.update(products).set(set).where(eq(products.id, current.id)),
      ...(syncVariant
        ? [
            db
              .update(productVariants)
              .set({ ...variantSet, updatedAt: ts })
              .where(eq(productVariants.id, simple.id)),
          ]
        : []),
      ...(refs.categories ? [db.delete(productCategories).where(eq(productCategories.productId, current.id)), ...categoryLinkInserts(db, current.id, refs.categories)] : []),
      outboxEvent(db, 'product.updated', { productId: current.id, product }, now),
    ]),
  );
  return product;
}

/**
 * `product.deleted` carries the product as it was, like every `product.*` event (docs/webhooks.md).
 * Returns it, so the caller can delete the stored files its images no longer share (product-media.objects.ts).
 */
export async function deleteProduct(db: Database, id: string, vendorId: string | null = null, now = new Date()): Promise<Product> {
  const current = await getProduct(db, id, writable(vendorId));
  await db.batch([db.delete(products).where(eq(products.id, current.id)), outboxEvent(db, 'product.deleted', { productId: current.id, product: current }, now)]);
  return current;
}
