import { eq, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type CurrencyPrices, productCategories, productVariants, products } from '../../db/schema';
import { type CurrencyPriceInput, listedPrices, storedPrices } from '../checkout';
import { ApiError } from '../../lib/errors';
import { withUniqueConflicts } from '../../lib/db-errors';
import { outboxEvent } from '../../lib/events';
import { toMajor, toMinor } from '../../lib/money';
import { stockChangeStatements } from '../inventory';
import type { Product, Variant } from '../products/schemas';
import { moneyView, getProduct, toVariant, writable, categoryLinkInserts, createProduct, newVariantRow, resolveRefs, UNIQUE_FIELDS, variantInserts } from '../products';
import type { ProductPlan } from './plan';

export type Outcome = 'created' | 'updated' | 'unchanged';

/** The product a plan describes, if the store has it: by SKU, else by handle (its slug). */
export async function existingProductId(db: Database, plan: ProductPlan, vendorId: string | null): Promise<string | null> {
  if (!plan.sku && !plan.handle) return null;
  const match = or(plan.sku ? eq(products.sku, plan.sku) : undefined, plan.handle ? eq(products.slug, plan.handle) : undefined);
  const rows = await db.select({ id: products.id, sku: products.sku, vendorId: products.vendorId }).from(products).where(match);
  const row = rows.find((r) => plan.sku && r.sku === plan.sku) ?? rows[0];
  if (!row) return null;
  return vendorId && row.vendorId !== vendorId ? null : row.id;
}

/**
 * Writes one product of an import in ONE batch, so a product is written whole or not at all: a new
 * one as `POST /api/products` creates it; an existing one (same SKU, else same handle) gets the
 * fields the file gives, its variants matched by SKU updated (stock as an adjustment of the
 * difference), new variants added, and `product.updated`. Nothing changed is `unchanged`, no event.
 */
export async function applyPlan(db: Database, plan: ProductPlan, options: { vendorId: string | null; actor: string; note: string; now?: Date }): Promise<Outcome> {
  const now = options.now ?? new Date();
  const id = await existingProductId(db, plan, options.vendorId);
  if (!id) {
    await createProduct(db, plan.body, options.vendorId, now);
    return 'created';
  }
  const current = await getProduct(db, id, writable(options.vendorId));
  const body = plan.body;
  const ts = now.toISOString();
  const patch: Record<string, unknown> = {};
  const shown: Partial<Product> = {};
  const change = (column: string, value: unknown, before: unknown, show: Partial<Product> = {}) => {
    if (JSON.stringify(value) === JSON.stringify(before)) return;
    patch[column] = value;
    Object.assign(shown, show);
  };
  const refs = await resolveRefs(db, {
    brandId: plan.given.includes('brandId') ? body.brandId : undefined,
    categoryIds: plan.given.includes('categoryIds') ? body.categoryIds : undefined,
  });
  /** Prices per currency as stored, in one order, so that the file's and the product's compare. */
  const storedOf = (list: CurrencyPriceInput[] | undefined): CurrencyPrices => {
    const { prices, problems } = storedPrices(list ?? [], refs.currencies, 'prices');
    if (problems.length) throw ApiError.validation(problems);
    return Object.fromEntries(Object.entries(prices).sort(([a], [b]) => (a < b ? -1 : 1)));
  };
  for (const key of plan.given) {
    if (key === 'name' || key === 'description' || key === 'status' || key === 'slug' || key === 'sku') change(key, body[key], current[key], { [key]: body[key] });
    if (key === 'images') change('images', body.images, current.images, { images: body.images });
    if (key === 'price') change('price', toMinor(body.price), toMinor(current.price), { price: body.price });
    if (key === 'compareAtPrice')
      change('compareAtPrice', body.compareAtPrice == null ? null : toMinor(body.compareAtPrice), current.compareAtPrice == null ? null : toMinor(current.compareAtPrice), {
        compareAtPrice: body.compareAtPrice ?? null,
      });
    if (key === 'prices') {
      const prices = storedOf(body.prices);
      change('prices', prices, storedOf(current.prices), { prices: listedPrices(prices, refs.currencies) });
    }
  }
  if (refs.brand !== undefined && refs.brand?.id !== current.brand?.id) change('brandId', refs.brand?.id ?? null, current.brand?.id ?? null, { brand: refs.brand });
  const newCategories =
    refs.categories && JSON.stringify(refs.categories.map((c) => c.id).sort()) !== JSON.stringify(current.categories.map((c) => c.id).sort()) ? refs.categories : undefined;

  // Variants: the file's, matched to the product's by SKU (a simple product's one variant matches the file's one).
  const wanted = body.variants ?? [
    { sku: body.sku ?? null, price: body.price, compareAtPrice: body.compareAtPrice, prices: body.prices, stock: body.stock, weight: body.weight, options: {} },
  ];
  const variantUpdates: { variant: Variant; set: Record<string, unknown>; delta: number }[] = [];
  const added: ReturnType<typeof newVariantRow>[] = [];
  for (const v of wanted) {
    const match = current.variants.find((cv) => v.sku && cv.sku === v.sku) ?? (wanted.length === 1 && current.variants.length === 1 ? current.variants[0] : undefined);
    if (!match) {
      added.push(newVariantRow(current.id, v, toMinor(body.price), current.variants.length + added.length, now, storedOf(v.prices)));
      continue;
    }
    const set: Record<string, unknown> = {};
    if (v.price !== undefined && toMinor(v.price) !== toMinor(match.price)) set.price = toMinor(v.price);
    if (v.compareAtPrice !== undefined && v.compareAtPrice !== match.compareAtPrice) set.compareAtPrice = v.compareAtPrice == null ? null : toMinor(v.compareAtPrice);
    if (v.sku && v.sku !== match.sku) set.sku = v.sku;
    if (v.weight !== undefined && v.weight !== match.weight) set.weight = v.weight;
    if (v.options && Object.keys(v.options).length && JSON.stringify(v.options) !== JSON.stringify(match.options)) set.options = v.options;
    if (v.prices !== undefined && JSON.stringify(storedOf(v.prices)) !== JSON.stringify(storedOf(match.prices))) set.prices = storedOf(v.prices);
    const delta = v.stock === undefined ? 0 : v.stock - match.stock;
    if (Object.keys(set).length || delta) variantUpdates.push({ variant: match, set, delta });
  }
  if (!Object.keys(patch).length && !newCategories && !variantUpdates.length && !added.length) return 'unchanged';

  const variants = [
    ...current.variants.map((cv) => {
      const u = variantUpdates.find((x) => x.variant.id === cv.id);
      if (!u) return cv;
      const s = u.set as { price?: number; compareAtPrice?: number | null; sku?: string; weight?: number | null; options?: Record<string, string>; prices?: CurrencyPrices };
      return {
        ...cv,
        ...(s.price !== undefined ? { price: toMajor(s.price) } : {}),
        ...(s.compareAtPrice !== undefined ? { compareAtPrice: s.compareAtPrice === null ? null : toMajor(s.compareAtPrice) } : {}),
        ...(s.sku !== undefined ? { sku: s.sku } : {}),
        ...(s.weight !== undefined ? { weight: s.weight } : {}),
        ...(s.options ? { options: s.options } : {}),
        ...(s.prices ? { prices: listedPrices(s.prices, refs.currencies) } : {}),
        stock: cv.stock + u.delta,
        updatedAt: ts,
      };
    }),
    ...added.map((v) => toVariant(v, moneyView(refs.currencies))),
  ];
  const product = { ...current, ...shown, categories: newCategories ?? current.categories, variants, stock: variants.reduce((n, v) => n + v.stock, 0), updatedAt: ts } as Product;
  await withUniqueConflicts(UNIQUE_FIELDS, () =>
    db.batch([
      db
        .update(products)
        .set({ ...patch, updatedAt: ts })
        .where(eq(products.id, current.id)),
      ...variantUpdates
        .filter((u) => Object.keys(u.set).length)
        .map((u) =>
          db
            .update(productVariants)
            .set({ ...u.set, updatedAt: ts })
            .where(eq(productVariants.id, u.variant.id)),
        ),
      ...variantUpdates
        .filter((u) => u.delta)
        .flatMap((u) => stockChangeStatements(db, { variantId: u.variant.id, delta: u.delta, reason: 'correction', note: options.note, actor: options.actor }, now)),
      ...variantInserts(db, added),
      ...(newCategories ? [db.delete(productCategories).where(eq(productCategories.productId, current.id)), ...categoryLinkInserts(db, current.id, newCategories)] : []),
      outboxEvent(db, 'product.updated', { productId: current.id, product }, now),
    ] as never),
  );
  return 'updated';
}
