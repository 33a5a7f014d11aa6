/**
 * Exact arithmetic for rates kept as decimal text (exchange rates `0.92`, tax and discount percents
 * `8.875`) applied to integer minor units. Everything runs on BigInt and rounds half-up (half away
 * from zero) once, at the end: no float ever touches an amount (docs/api.md, Responses).
 */

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** A non-negative decimal as an integer numerator over 10^scale: `8.875` is 8875 / 10^3. */
function parseDecimal(text: string): { numerator: bigint; scale: number } {
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new RangeError(`not a non-negative decimal: ${JSON.stringify(text)}`);
  const fraction = match[2] ?? '';
  return { numerator: BigInt(match[1]! + fraction), scale: fraction.length };
}

/** True for decimal text this module accepts (`1`, `0.92`, `8.875`), with at most `maxDecimals` decimals. */
export function isDecimalText(text: string, maxDecimals = 8): boolean {
  const match = DECIMAL.exec(text);
  return Boolean(match) && (match![2] ?? '').length <= maxDecimals;
}

/** A JSON number as canonical decimal text (`0.92`, `19`), or null when it has more than `maxDecimals` decimals. */
export function decimalText(value: number, maxDecimals = 8): string | null {
  if (!Number.isFinite(value) || value < 0) return null;
  const fixed = value.toFixed(maxDecimals);
  if (Number(fixed) !== value) return null;
  return fixed.replace(/\.?0+$/, '') || '0';
}

/** numerator / denominator rounded half away from zero: the one rounding of money (roundHalfUp is its face for numbers). */
function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (2n * n + d) / (2n * d);
  return negative ? -q : q;
}

function toSafeNumber(value: bigint): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`amount ${value} is out of range`);
  return n;
}

/**
 * The one rounding of money: `numerator / denominator` (integers) as whole minor units, rounded half
 * away from zero, that is half-up for amounts, which are never negative. Rates, tax and conversions
 * below round with it, and so do a refund's share of a line (ledger/refund-lines.ts), a bought gift
 * card's share of its line (ledger/bought-gift-cards.ts), a Stripe amount with fewer decimals than
 * ours (payments/providers/stripe.ts) and the reports' average order value.
 */
export function roundHalfUp(numerator: number | bigint, denominator: number | bigint): number {
  return toSafeNumber(divideHalfUp(BigInt(numerator), BigInt(denominator)));
}

/** `percent`% of an amount in minor units, rounded half-up: percentOf(1999, '19') = 380. */
export function percentOf(amountMinor: number, percent: string): number {
  const { numerator, scale } = parseDecimal(percent);
  return toSafeNumber(divideHalfUp(BigInt(amountMinor) * numerator, 100n * 10n ** BigInt(scale)));
}

/**
 * The tax inside an amount that includes `percent`% tax, rounded half-up: taxInside(2990, '19') = 477
 * (€29.90 with 19% VAT holds €4.77: 2990 × 19 / 119 = 477.39).
 */
export function taxInside(amountMinor: number, percent: string): number {
  const { numerator, scale } = parseDecimal(percent);
  return toSafeNumber(divideHalfUp(BigInt(amountMinor) * numerator, 100n * 10n ** BigInt(scale) + numerator));
}

/**
 * An amount converted between currencies: minor units with `fromDigits` decimals, times `rate`
 * (units of the target per unit of the source), as minor units with `toDigits` decimals, rounded
 * half-up. convertMinor(1000, 2, 0, '150.5') = 1505 (10.00 USD at 150.5 JPY/USD).
 */
export function convertMinor(amountMinor: number, fromDigits: number, toDigits: number, rate: string): number {
  const { numerator, scale } = parseDecimal(rate);
  const shift = toDigits - fromDigits - scale;
  const scaled = BigInt(amountMinor) * numerator;
  return toSafeNumber(shift >= 0 ? scaled * 10n ** BigInt(shift) : divideHalfUp(scaled, 10n ** BigInt(-shift)));
}

/**
 * Splits `total` over `weights` in proportion, in whole minor units that add up to `total` exactly
 * (largest remainder; ties to the earlier weight). Used to spread a fixed discount over lines.
 */
export function allocate(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0 || total <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (BigInt(total) * BigInt(w)) / BigInt(sum));
  const remainders = weights.map((w, i) => ({ i, r: (BigInt(total) * BigInt(w)) % BigInt(sum) }));
  let left = BigInt(total) - exact.reduce((a, b) => a + b, 0n);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left <= 0n) break;
    exact[i]! += 1n;
    left -= 1n;
  }
  return exact.map(toSafeNumber);
}
