import { toMajor } from '../../lib/money';
import { unitsGot } from './buy-x-get-y';
import { isBought, matches, minSubtotal } from './promotion-scope';
import type { CartLine, NotApplicableCondition, Promotion, PromotionContext } from './promotion-types';

/**
 * Whether a promotion's conditions hold for a cart, and if not the first that fails, in the order
 * docs/promotions.md ("Why a code does not apply") lists: when it runs, how often it was used, who
 * and what currency it is for, what the cart holds, then the shipping it makes free.
 */

export interface Failure {
  condition: NotApplicableCondition;
  /** Words that finish "Code 'CODE' ...". */
  problem: string;
}

/** The first failed condition, or null when the promotion applies. `lines` are in key order. */
export function firstFailure(promotion: Promotion, lines: readonly CartLine[], context: PromotionContext): Failure | null {
  const c = promotion.conditions;
  const now = context.now.toISOString();
  const fail = (condition: NotApplicableCondition, problem: string): Failure => ({ condition, problem });
  if (c.startsAt && now < c.startsAt) return fail('not_started', `is not valid before ${c.startsAt}`);
  if (c.endsAt && now >= c.endsAt) return fail('expired', `expired at ${c.endsAt}`);
  if (c.usageLimit !== null && c.timesUsed >= c.usageLimit) return fail('usage_limit', 'has been used up');
  if (c.perCustomerLimit !== null && c.usesByCustomer >= c.perCustomerLimit) {
    return fail('per_customer_limit', `has already been used ${c.usesByCustomer} time(s) by this customer, the most allowed`);
  }
  const { currency } = context;
  if (c.currencies.length > 0 && !c.currencies.includes(currency.code)) return fail('currency', `does not apply to carts in ${currency.code}`);
  if (c.customerGroupIds.length > 0 && !context.customerGroupIds.some((id) => c.customerGroupIds.includes(id))) {
    return fail('customer_group', 'is for customers of other groups');
  }
  const counted = promotion.type === 'buy_x_get_y' ? (line: CartLine) => isBought(promotion, line) : (line: CartLine) => matches(promotion, line);
  const matching = lines.filter(counted);
  if (matching.length === 0) return fail('no_matching_items', 'does not apply to any item');
  const units = matching.reduce((sum, line) => sum + line.quantity, 0);
  if (c.minQuantity !== null && units < c.minQuantity) return fail('min_quantity', `needs at least ${c.minQuantity} matching item(s)`);
  const minimum = minSubtotal(promotion, context);
  const subtotal = lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0);
  if (minimum !== null && subtotal < minimum) return fail('min_subtotal', `needs a subtotal of at least ${toMajor(minimum, currency.minorUnits)} ${currency.code}`);
  if (promotion.type === 'buy_x_get_y' && unitsGot(promotion, lines).every((n) => n === 0)) {
    return fail('buy_quantity', `needs ${promotion.buyXGetY!.buy.quantity} item(s) bought before it gives any`);
  }
  const free = promotion.freeShipping;
  if (free) {
    const { shipping } = context;
    if (free.methodIds.length > 0 && !(shipping && free.methodIds.includes(shipping.methodId))) return fail('shipping_method', 'does not apply to the chosen shipping method');
    if (free.zoneIds.length > 0 && !(shipping && free.zoneIds.includes(shipping.zoneId))) return fail('shipping_zone', "does not apply to the shipping address's zone");
  }
  return null;
}
