import type { CartLine, ProductSet, Promotion, PromotionConditions, PromotionContext } from '../../src/modules/checkout/promotion-types';

/** Builders for the promotion engine's tests: a promotion or a cart with only what a test sets. */

export const anyProduct: ProductSet = { productIds: [], categoryIds: [], brandIds: [] };

export const noConditions: PromotionConditions = {
  minSubtotal: null,
  minQuantity: null,
  include: anyProduct,
  exclude: anyProduct,
  customerGroupIds: [],
  currencies: [],
  startsAt: null,
  endsAt: null,
  timesUsed: 0,
  usageLimit: null,
  usesByCustomer: 0,
  perCustomerLimit: null,
};

export function promotion(fields: Partial<Omit<Promotion, 'conditions'>> & { id: string; conditions?: Partial<PromotionConditions> }): Promotion {
  return {
    name: fields.id,
    code: null,
    type: 'percentage',
    value: '0',
    currencyAmounts: {},
    target: 'items',
    buyXGetY: null,
    freeShipping: null,
    priority: 0,
    combinesWithPromotions: true,
    combinesWithCodes: true,
    ...fields,
    conditions: { ...noConditions, ...fields.conditions },
  };
}

export const eur = { code: 'EUR', minorUnits: 2, exchangeRate: '1' };

export function cart(lines: CartLine[], fields: Partial<PromotionContext> = {}): PromotionContext {
  return { lines, defaultMinorUnits: 2, currency: eur, customerGroupIds: [], now: new Date('2026-06-01T12:00:00Z'), shipping: null, codes: [], ...fields };
}

export function line(key: string, unitPrice: number, quantity = 1, fields: Partial<CartLine> = {}): CartLine {
  return { key, productId: `prod-${key}`, categoryIds: [], brandId: null, unitPrice, quantity, ...fields };
}
