import { unitsGot } from './buy-x-get-y';
import { applicationOrder, bestCombination, combine } from './promotion-combinations';
import { firstFailure, type Failure } from './promotion-conditions';
import { lineAmounts } from './promotion-discounts';
import type { AppliedPromotion, CartLine, LineDiscount, NotApplicable, Promotion, PromotionContext, PromotionResult } from './promotion-types';

/**
 * The promotions a cart gets and what each takes off each line and off shipping: one pure function
 * shared by the quote and checkout, its rules in docs/promotions.md. The result does not depend on
 * the order of the context's lines (they are worked through sorted by key) nor of `promotions`.
 */
export function applyPromotions(context: PromotionContext, promotions: readonly Promotion[]): PromotionResult {
  const lines = [...context.lines].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  lines.forEach((line, i) => {
    if (i > 0 && line.key === lines[i - 1]!.key) throw new RangeError(`two cart lines have the key ${JSON.stringify(line.key)}`);
  });
  const codes = [...new Set(context.codes)];
  const failures = new Map<Promotion, Failure>();
  const candidates = promotions
    .filter((p) => p.code === null || codes.includes(p.code))
    .filter((p) => {
      const failure = firstFailure(p, lines, context);
      if (failure) failures.set(p, failure);
      return !failure;
    })
    .sort(applicationOrder);
  const got = new Map(candidates.map((p) => [p, p.type === 'buy_x_get_y' ? unitsGot(p, lines) : []]));
  const chosen = bestCombination(candidates, (set) => {
    const outcome = applySet(set, lines, context, got);
    return outcome.lineDiscountTotal + outcome.shippingDiscount;
  });
  const outcome = applySet(chosen, lines, context, got);

  const notApplicable = codes.flatMap((code): NotApplicable[] => {
    const promotion = promotions.find((p) => p.code === code);
    const say = (condition: NotApplicable['condition'], problem: string) => [{ code, condition, message: `Code '${code}' ${problem}` }];
    if (!promotion) return say('unknown_code', 'does not exist');
    const failure = failures.get(promotion);
    if (failure) return say(failure.condition, failure.problem);
    if (chosen.includes(promotion)) return [];
    // No promotion could join the chosen set (bestCombination), so one of it refuses this one.
    const rival = chosen.find((p) => !combine(p, promotion))!;
    return say('not_combinable', `does not combine with '${rival.name}', which takes more off this cart`);
  });

  const byKey = new Map(lines.map((line, i) => [line.key, i]));
  return {
    ...outcome,
    lines: context.lines.map((line) => outcome.lines[byKey.get(line.key)!]!),
    notApplicable,
  };
}

/** Applies `set` (in application order) to `lines` (in key order): line promotions first, then free shipping on the price for what is left. */
function applySet(
  set: readonly Promotion[],
  lines: readonly CartLine[],
  context: PromotionContext,
  got: ReadonlyMap<Promotion, readonly number[]>,
): Omit<PromotionResult, 'notApplicable'> {
  const left = lines.map((line) => line.unitPrice * line.quantity);
  const perLine: LineDiscount[][] = lines.map(() => []);
  const applied: AppliedPromotion[] = [];
  for (const promotion of set) {
    const amounts = lineAmounts(promotion, lines, left, context, got.get(promotion)!);
    amounts.forEach((amount, i) => {
      if (amount === 0) return;
      left[i]! -= amount;
      perLine[i]!.push({ promotionId: promotion.id, name: promotion.name, amount });
    });
    applied.push({ promotionId: promotion.id, name: promotion.name, code: promotion.code, amount: amounts.reduce((a, b) => a + b, 0), shippingAmount: 0 });
  }
  const subtotal = lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0);
  const discountedSubtotal = left.reduce((a, b) => a + b, 0);
  // As priceLines: an empty cart is charged no shipping, and its price is not asked.
  const shippingPrice = context.shipping && lines.length > 0 ? context.shipping.priceFor(discountedSubtotal) : 0;
  const freeing = applied.find((a) => set.find((p) => p.id === a.promotionId)!.type === 'free_shipping');
  if (freeing) {
    freeing.amount += shippingPrice;
    freeing.shippingAmount = shippingPrice;
  }
  return {
    lines: lines.map((line, i) => ({ key: line.key, subtotal: line.unitPrice * line.quantity, discount: line.unitPrice * line.quantity - left[i]!, promotions: perLine[i]! })),
    subtotal,
    lineDiscountTotal: subtotal - discountedSubtotal,
    shippingPrice,
    shippingDiscount: freeing ? shippingPrice : 0,
    // Automatic promotions that took nothing are not shown; a code the customer entered is, even at 0.
    applied: applied.filter((a) => a.amount > 0 || a.code !== null),
  };
}
