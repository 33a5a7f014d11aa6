import { convertMinor } from './rates';
import type { CartLine, ProductSet, Promotion, PromotionContext } from './promotion-types';

/**
 * Which lines a promotion looks at and discounts, and its amounts in the cart's currency: the facts
 * both its conditions (promotion-conditions.ts) and its discount (promotion-discounts.ts) rest on.
 */

type Line = Pick<CartLine, 'productId' | 'categoryIds' | 'brandId'>;

const isEmpty = (set: ProductSet) => set.productIds.length === 0 && set.categoryIds.length === 0 && set.brandIds.length === 0;

/** True when the line's product, one of its categories or its brand is in the set. */
function inSet(set: ProductSet, line: Line): boolean {
  return set.productIds.includes(line.productId) || line.categoryIds.some((id) => set.categoryIds.includes(id)) || (line.brandId !== null && set.brandIds.includes(line.brandId));
}

/** The set, or every product when it is empty. */
export const inSetOrAll = (set: ProductSet, line: Line) => isEmpty(set) || inSet(set, line);

export const isExcluded = (promotion: Promotion, line: Line) => inSet(promotion.conditions.exclude, line);

/**
 * Included (or no inclusion list) and not excluded: counts for the promotion's conditions. As for
 * coupons, a line that costs nothing (a free sample) never matches: nor is it a buy-x-get-y's
 * cheapest unit to get.
 */
export const matches = (promotion: Promotion, line: Line & Pick<CartLine, 'unitPrice'>) =>
  line.unitPrice > 0 && inSetOrAll(promotion.conditions.include, line) && !isExcluded(promotion, line);

/** Whether a `percentage` or `fixed` promotion takes something off this line. */
export const discounts = (promotion: Promotion, line: CartLine) => (promotion.target === 'order' ? !isExcluded(promotion, line) : matches(promotion, line));

/** A buy-x-get-y's lines that count as bought / may be got. */
export const isBought = (promotion: Promotion, line: CartLine) => matches(promotion, line) && inSetOrAll(promotion.buyXGetY!.buy, line);
export function isGettable(promotion: Promotion, line: CartLine): boolean {
  const { get, buy } = promotion.buyXGetY!;
  return matches(promotion, line) && inSetOrAll(isEmpty(get) ? buy : get, line);
}

/** A default-currency amount (minor units) in the cart's currency. */
const converted = (amount: number, context: PromotionContext) => convertMinor(amount, context.defaultMinorUnits, context.currency.minorUnits, context.currency.exchangeRate);

/** A fixed promotion's amount off in the cart's currency: the shop's own amount for it, else the default one converted. */
export function fixedAmount(promotion: Promotion, context: PromotionContext): number {
  const own = promotion.currencyAmounts[context.currency.code];
  return own ? own.value : converted(Number(promotion.value), context);
}

/** The minimum subtotal in the cart's currency: the shop's own for it, else the default one converted; null: none. */
export function minSubtotal(promotion: Promotion, context: PromotionContext): number | null {
  const own = promotion.currencyAmounts[context.currency.code]?.minSubtotal;
  if (own !== undefined && own !== null) return own;
  const minimum = promotion.conditions.minSubtotal;
  return minimum === null ? null : converted(minimum, context);
}
