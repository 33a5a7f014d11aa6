import { allocate, percentOf } from '../../lib/rates';
import { unitsGot } from './buy-x-get-y';
import { discounts, fixedAmount } from './promotion-scope';
import type { CartLine, Promotion, PromotionContext } from './promotion-types';

/**
 * What one promotion takes off each line, given what is left of each line after the promotions
 * applied before it (docs/promotions.md, "Allocation and rounding"). `lines` and `left` are in key
 * order; every amount is whole minor units, at most what is left of its line.
 */
export function lineAmounts(promotion: Promotion, lines: readonly CartLine[], left: readonly number[], context: PromotionContext): number[] {
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
    case 'buy_x_get_y': {
      const got = unitsGot(promotion, lines);
      return capped(lines.map((line, i) => percentOf(got[i]! * line.unitPrice, promotion.buyXGetY!.get.percent)));
    }
    case 'free_shipping':
      return lines.map(() => 0);
  }
}
