import type { ShippingRate } from '../../db/schema';
import { ApiError } from '../../lib/errors';

/**
 * The shipping forms' text fields as the API's lists: places and postcodes separated by commas (or
 * spaces, for codes that hold none), rate bands one a line as two numbers.
 */

/** `DE, AT` or `DE AT` as ['DE', 'AT']; postcodes (which may hold spaces) split only on commas, semicolons and lines. */
export const listFromText = (text: string | undefined, separators = /[\s,;]+/) =>
  (text ?? '')
    .split(separators)
    .map((item) => item.trim())
    .filter(Boolean);

const OPEN = new Set(['*', 'above', 'over', 'more']);

/**
 * `2 4.99` a line: a weight band's `upTo` (`*` for the last, open band) or a price band's `from`,
 * then its amount. A line that is not two numbers is refused here, naming the line; what the
 * numbers mean (ascending, amounts in the currency's decimals) the API's schema judges.
 */
export function bandsFromText(type: 'weight' | 'price', text: string | undefined, field = 'bands') {
  const lines = (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.map((line, i) => {
    const [first = '', amount = '', ...rest] = line.split(/[\s:;,]+/).filter(Boolean);
    const open = type === 'weight' && OPEN.has(first.toLowerCase());
    const numbers = [open ? 0 : Number(first), Number(amount)];
    if (rest.length > 0 || amount === '' || numbers.some((n) => !Number.isFinite(n))) {
      const example = type === 'weight' ? '"2 4.99" (up to 2, 4.99), or "* 9.99" for the last band' : '"50 0" (from 50, free)';
      throw ApiError.validation([{ field, problem: `line ${i + 1} ("${line}") must be two numbers, like ${example}` }]);
    }
    return type === 'weight' ? { upTo: open ? null : numbers[0]!, amount: numbers[1]! } : { from: numbers[0]!, amount: numbers[1]! };
  });
}

/** A rate's bands as the form shows them (amounts in major units, as the API gives them). */
export function bandsToText(rate: Exclude<ShippingRate, { type: 'flat' }>): string {
  return rate.type === 'weight' ? rate.bands.map((b) => `${b.upTo ?? '*'} ${b.amount}`).join('\n') : rate.bands.map((b) => `${b.from} ${b.amount}`).join('\n');
}
