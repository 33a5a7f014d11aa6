import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { products, type ProductVariantRow, productVariants } from '../../db/schema';
import { withUniqueConflicts } from '../../lib/db-errors';
import { withGuards } from '../../lib/db-guards';
import { ApiError } from '../../lib/errors';
import { outboxEvent } from '../../lib/events';
import { toMinor } from '../../lib/money';
import { stockChangeStatements } from '../inventory';
import { listedPrices } from '../checkout';
import { currencyTableOf, currencyTableRead, moneyView } from './products.currency';
import { getProduct, toVariant, writable } from './products.read';
import type { CreateVariantInput, Product, UpdateVariantInput, Variant } from './products.schemas';
import { MAX_VARIANTS_PER_PRODUCT } from './products.schemas';
import { checkedPrices, newVariantRow, UNIQUE_FIELDS } from './products.service';

/** The store's currencies, which a variant's prices per currency are checked against and shown in. */
const currencyTable = async (db: Database) => currencyTableOf(await currencyTableRead(db, {}));

// Variants: every change is a change of the product, so it emits `product.updated`.

export function findVariant(product: Product, variantId: string): Variant {
  const variant = product.variants.find((v) => v.id === variantId);
  if (!variant) throw ApiError.notFound('Variant', variantId);
  return variant;
}

export async function createVariant(db: Database, productId: string, input: CreateVariantInput, vendorId: string | null = null, now = new Date()): Promise<Variant> {
  const [current, table] = await Promise.all([getProduct(db, productId, writable(vendorId)), currencyTable(db)]);
  if (current.variants.length >= MAX_VARIANTS_PER_PRODUCT) {
    throw ApiError.conflict(`A product has at most ${MAX_VARIANTS_PER_PRODUCT} variants`);
  }
  const prices = checkedPrices(input.prices, table, 'prices');
  if (prices.problems.length) throw ApiError.validation(prices.problems);
  const row = newVariantRow(current.id, input, toMinor(current.price), current.variants.length, now, prices.prices);
  const variant = toVariant(row, moneyView(table));
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
  const [current, table] = await Promise.all([getProduct(db, productId, writable(vendorId)), patch.prices ? currencyTable(db) : undefined]);
  const before = findVariant(current, variantId);
  if (Object.keys(patch).length === 0) return before;
  const ts = now.toISOString();
  const { price, compareAtPrice, stock, prices, ...scalars } = patch;
  const set: Partial<ProductVariantRow> = { ...scalars, updatedAt: ts };
  let pricesShown: Variant['prices'] | undefined;
  if (prices !== undefined) {
    const checked = checkedPrices(prices, table!, 'prices');
    if (checked.problems.length) throw ApiError.validation(checked.problems);
    set.prices = checked.prices;
    pricesShown = listedPrices(checked.prices, table!);
  }
  // A new stock level is a correction like any other: in the history, and able to emit inventory.low.
  // It applies as a delta, so an order placed between the read above and this write keeps its decrement.
  const delta = stock === undefined ? 0 : stock - before.stock;
  const stockChange = delta === 0 ? [] : stockChangeStatements(db, { variantId, delta, reason: 'correction', note: 'variant update', actor }, now);
  if (price !== undefined) set.price = toMinor(price);
  if (compareAtPrice !== undefined) set.compareAtPrice = compareAtPrice === null ? null : toMinor(compareAtPrice);
  const variant: Variant = { ...before, ...patch, prices: pricesShown ?? before.prices, updatedAt: ts };
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
