import fc from 'fast-check';
import { createProduct, insertUser, uid } from '../helpers';
import { ok } from './return-fixtures';

/**
 * The shop the money conservation property (money-conservation.test.ts) trades in. Once per file:
 * euro prices include German VAT (19%, shipping taxed too), dollar prices get New York's sales tax
 * (8.875%) on top, and both countries ship at a flat rate. Once per run: three new products (two
 * plain, one gift card) and the promotions fast-check chose, every one limited to those products so
 * that no run's promotions reach another's carts.
 */

export const CURRENCIES = ['USD', 'EUR'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const ADDRESSES: Record<Currency, Record<string, string>> = {
  USD: { firstName: 'Ada', line1: '1 Main St', city: 'New York', region: 'NY', postalCode: '10001', country: 'US' },
  EUR: { firstName: 'Ada', line1: '1 Hauptstr.', city: 'Berlin', postalCode: '10115', country: 'DE' },
};

export async function openStore(key: string): Promise<void> {
  const post = (path: string, json: Record<string, unknown>) => ok(path, { method: 'POST', key, json });
  await post('/api/settings/currencies', { code: 'EUR', name: 'Euro', symbol: '€', minorUnits: 2, exchangeRate: 0.92, pricesIncludeTax: true });
  await post('/api/settings/taxes', { name: 'MwSt', country: 'DE', rate: 19, shippingTaxable: true });
  await post('/api/settings/taxes', { name: 'NY sales tax', country: 'US', region: 'NY', rate: 8.875, shippingTaxable: true });
  for (const [country, amount] of [
    ['US', 5],
    ['DE', 4.95],
  ] as const) {
    const zone = await post('/api/settings/shipping-zones', { name: `Zone ${country} ${uid()}`, countries: [country] });
    await post(`/api/settings/shipping-zones/${zone.id}/methods`, { name: `Post ${country}`, rate: { type: 'flat', amount } });
  }
}

/** What fast-check chooses of a run's shop: prices, and which promotions run. */
export interface ShopSpec {
  plainPrices: [number, number];
  giftCardPrice: number;
  /** An automatic percentage off; `giftCards`: the gift-card product is discounted too. */
  percentage: { value: number; giftCards: boolean } | null;
  fixed: { value: number } | null;
  buyXGetY: { percent: number } | null;
  /** A code promotion, entered by the orders that say so. */
  code: { type: 'percentage' | 'fixed'; value: number } | null;
  freeShipping: boolean;
  /** Whether the promotions combine with each other and with the code. */
  combine: boolean;
  /** What the customer and the gift-card holders start the run with (minor units). */
  credit: Record<Currency, number>;
  giftCards: { currency: Currency; amount: number }[];
}

export const shopSpec: fc.Arbitrary<ShopSpec> = fc.record({
  plainPrices: fc.tuple(fc.constantFrom(9.99, 19.99, 33.33), fc.constantFrom(4.5, 7.25, 12)),
  giftCardPrice: fc.constantFrom(25, 50, 100),
  percentage: fc.option(fc.record({ value: fc.constantFrom(10, 20, 25, 50), giftCards: fc.boolean() }), { freq: 3 }),
  fixed: fc.option(fc.record({ value: fc.constantFrom(5, 15) }), { freq: 2 }),
  buyXGetY: fc.option(fc.record({ percent: fc.constantFrom(50, 100) }), { freq: 2 }),
  code: fc.option(fc.record({ type: fc.constantFrom('percentage' as const, 'fixed' as const), value: fc.constantFrom(10, 15) }), { freq: 2 }),
  freeShipping: fc.boolean(),
  combine: fc.boolean(),
  credit: fc.record({ USD: fc.constantFrom(0, 2000, 6000), EUR: fc.constantFrom(0, 2000, 6000) }),
  giftCards: fc.array(fc.record({ currency: fc.constantFrom(...CURRENCIES), amount: fc.constantFrom(1000, 2500, 9000) }), { maxLength: 2 }),
});

export interface ShopProduct {
  productId: string;
  variantId: string;
  giftCard: boolean;
}

export interface Shop {
  key: string;
  customer: { id: string; token: string };
  /** Two plain products, then the gift-card product. */
  products: ShopProduct[];
  code: string | null;
  /** Every product's stock when the run began. */
  stockAtStart: number;
}

const STOCK = 1000;

export async function openShop(key: string, spec: ShopSpec): Promise<Shop> {
  const product = async (price: number, giftCard: boolean): Promise<ShopProduct> => {
    const created = await createProduct(key, { price, stock: STOCK, giftCard });
    return { productId: created.id, variantId: created.variants[0].id, giftCard };
  };
  const products = [await product(spec.plainPrices[0], false), await product(spec.plainPrices[1], false), await product(spec.giftCardPrice, true)];
  const all = products.map((p) => p.productId);
  const plain = all.slice(0, 2);
  const combines = { combinesWithPromotions: spec.combine, combinesWithCodes: spec.combine };
  const promote = (json: Record<string, unknown>) => ok('/api/promotions', { method: 'POST', key, json: { name: `Conservation ${uid()}`, ...combines, ...json } });
  if (spec.percentage) await promote({ type: 'percentage', value: spec.percentage.value, target: 'items', include: { productIds: spec.percentage.giftCards ? all : plain } });
  if (spec.fixed) await promote({ type: 'fixed', value: spec.fixed.value, target: 'order', include: { productIds: all } });
  if (spec.buyXGetY) {
    await promote({ type: 'buy_x_get_y', buyXGetY: { buy: { quantity: 2, productIds: all }, get: { quantity: 1, percent: spec.buyXGetY.percent, productIds: all } } });
  }
  if (spec.freeShipping) await promote({ type: 'free_shipping', minSubtotal: 40, include: { productIds: all } });
  let code: string | null = null;
  if (spec.code) {
    code = `MC${uid().toUpperCase()}`;
    await promote({ type: spec.code.type, value: spec.code.value, code, include: { productIds: all } });
  }
  const { user, token } = await insertUser();
  return { key, customer: { id: user.id, token }, products, code, stockAtStart: STOCK };
}
