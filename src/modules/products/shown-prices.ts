import type { Database } from '../../db/client';
import type { Principal } from '../../lib/access';
import { toMajor } from '../../lib/money';
import type { Product, Variant } from './products.schemas';
import { CUSTOMER_ROLE } from '../customers';
import { type CustomerPrice, customerPricesRead, listedUnitPrice } from '../checkout';

/** The signed-in customer a catalogue read is for, or null (anonymous, API keys and staff see public prices). */
export const shopperOf = (principal: Principal): string | null => (principal.kind === 'user' && principal.role === CUSTOMER_ROLE ? principal.id : null);

/** An item's shown price (major units) lowered to `listed` when that is below it, the public price then as `compareAtPrice`. */
function lowered<T extends Pick<Variant, 'price' | 'compareAtPrice'>>(item: T, listed: number | undefined): T {
  return listed !== undefined && listed < item.price ? { ...item, price: listed, compareAtPrice: item.price } : item;
}

/** The lowest price-list price of one unit of a variant in `currency` now, in major units. */
function listedMajor(prices: readonly CustomerPrice[], variantId: string, currency: string, now: Date): number | undefined {
  const amount = listedUnitPrice(prices, variantId, currency, 1, now);
  const digits = prices.find((p) => p.currency === currency)?.minorUnits;
  return amount === undefined || digits === undefined ? undefined : toMajor(amount, digits);
}

/**
 * Products as the signed-in customer `principal` buys one unit of each variant: the price-list price
 * where one applies and is lower (docs/price-lists.md), the public price then as `compareAtPrice`; a
 * product's own price shows its lowest variant's. Others get `products` as they are. One more D1
 * round trip, for customers only; such answers are kept for that customer alone (catalogue-cache.ts).
 */
export async function asShownTo(db: Database, principal: Principal, products: Product[], now = new Date()): Promise<Product[]> {
  const customerId = shopperOf(principal);
  const ids = products.flatMap((p) => p.variants.map((v) => v.id));
  if (!customerId || ids.length === 0) return products;
  const prices = await customerPricesRead(db, { customerId, ids: JSON.stringify(ids) });
  if (prices.length === 0) return products;
  return products.map((product) => {
    const variants = product.variants.map((v) => lowered(v, listedMajor(prices, v.id, product.currency, now)));
    const listed = variants.filter((v, i) => v !== product.variants[i]).map((v) => v.price);
    return { ...lowered(product, listed.length ? Math.min(...listed) : undefined), variants };
  });
}
