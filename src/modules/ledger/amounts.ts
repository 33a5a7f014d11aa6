import { ApiError } from '../../lib/errors';
import { hasAtMostDecimals, toMinor } from '../../lib/money';

/** A body amount in minor units of a currency with `digits` decimals; 422 when it has more decimals than that. */
export function amountInMinor(amount: number, digits: number, field = 'amount'): number {
  if (!hasAtMostDecimals(amount, digits)) {
    throw ApiError.validation([{ field, problem: digits === 0 ? 'must be a whole number in this currency' : `must have at most ${digits} decimals in this currency` }]);
  }
  return toMinor(amount, digits);
}
