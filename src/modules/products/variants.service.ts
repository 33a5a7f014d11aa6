import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { products, type ProductVariantRow, productVariants } from '../../db/schema';
import { withUniqueConflicts } from '../../lib/db-errors';
import { withGuards } from '../../lib/db-guards';
import { ApiError } from '../../lib/errors';
import { outboxEvent } from '../../lib/events';
import { toMinor } from '../../lib/money';
import { stockChangeStatements } from '../inventory/stock';
import { getProduct, toVariant, type Visibility, writable } from './products.read';
import type { CreateVariantInput, Product, UpdateVariantInput, Variant } from './products.schemas';
import { MAX_VARIANTS_PER_PRODUCT } from './products.schemas';
import { newVariantRow, UNIQUE_FIELDS } from './products.service';

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
