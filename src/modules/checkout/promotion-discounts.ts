import { allocate, percentOf } from './rates';
import { discounts, fixedAmount } from './promotion-scope';
import type { CartLine, Promotion, PromotionContext } from './promotion-types';

/**
 * What one promotion takes off each line, given what is left of each line after the promotions
 * applied before it (docs/promotions.md, "Allocation and rounding"). `lines` and `left` are in key
 * order; every amount is whole minor units, at most what is left of its line. `got`: a buy-x-get-y's
 * units got of each line (unitsGot), which do not depend on what is left, so are reckoned once.
 */
export function lineAmounts(promotion: Promotion, lines: readonly CartLine[], left: readonly number[], context: PromotionContext, got: readonly number[]): number[] {
  const capped = (amounts: number[]) => amounts.map((amount, i) => Math.min(amount, left[i]!));
  switch (promotion.type) {
    case 'percentage':
      return capped(lines.map((line, i) => (discounts(promotion, line) ? percentOf(left[i]!, promotion.value) : 0)));
    case 'fixed': {
      const weights = lines.map((line, i) => (discounts(promotion, line) ? left[i]! : 0));
      const amount = Math.min(
        fixedAmount(promotion, context),
        weights.reduce((a, b) => a + b, 0),
      );
      return allocate(amount, weights);
    }
    case 'buy_x_get_y':
      return capped(lines.map((line, i) => (got[i] ? percentOf(got[i]! * line.unitPrice, promotion.buyXGetY!.get.percent) : 0)));
    case 'free_shipping':
      return lines.map(() => 0);
  }
}
