import { isBought, isGettable } from './promotion-scope';
import type { CartLine, Promotion } from './promotion-types';

/**
 * How many units of each line a buy-x-get-y promotion gives (docs/promotions.md, "Buy X get Y"):
 * the most units k such that, with the k cheapest gettable units set aside, the units left to count
 * as bought pay for them: every `buy.quantity` bought units entitle up to `get.quantity` got ones.
 * The cheapest units are got first (ties: the line with the smaller key). `lines` are sorted by key.
 */
export function unitsGot(promotion: Promotion, lines: readonly CartLine[]): number[] {
  const { buy, get } = promotion.buyXGetY!;
  const got = lines.map(() => 0);
  if (buy.quantity <= 0 || get.quantity <= 0) return got;
  const bought = lines.map((line) => isBought(promotion, line));
  const boughtUnits = lines.reduce((sum, line, i) => sum + (bought[i] ? line.quantity : 0), 0);
  const gettable = lines.map((line, i) => ({ line, i })).filter(({ line }) => isGettable(promotion, line));
  // Stable sort: lines are already in key order, so equal prices keep it.
  gettable.sort((a, b) => a.line.unitPrice - b.line.unitPrice);
  const gettableUnits = gettable.reduce((sum, { line }) => sum + line.quantity, 0);

  /** Walks the k cheapest gettable units, telling each line how many of its units are among them. */
  const takeCheapest = (k: number, each: (i: number, units: number) => void) => {
    let left = k;
    for (const { line, i } of gettable) {
      if (left === 0) break;
      const units = Math.min(left, line.quantity);
      each(i, units);
      left -= units;
    }
  };
  const paysFor = (k: number) => {
    let setAside = 0;
    takeCheapest(k, (i, units) => {
      if (bought[i]) setAside += units;
    });
    return boughtUnits - setAside >= buy.quantity * Math.ceil(k / get.quantity);
  };
  // paysFor holds for 0 and, once false, stays false as k grows: the largest k is found by bisection.
  let low = 0;
  let high = gettableUnits;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (paysFor(mid)) low = mid;
    else high = mid - 1;
  }
  takeCheapest(low, (i, units) => {
    got[i] = units;
  });
  return got;
}
