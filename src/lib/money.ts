/**
 * Money crosses the API as a decimal number in the currency's major unit (19.99) and lives
 * everywhere else as integer minor units (1999). Conversions go through decimal strings, so no
 * float arithmetic ever touches an amount.
 */

/** Minor-unit digits of the store's currency until per-store currency settings exist. */
export const DEFAULT_MINOR_DIGITS = 2;
/** Largest amount accepted in major units; keeps minor units far inside safe integers. */
export const MAX_MAJOR_AMOUNT = 999_999_999;

/** True when `amount` is written with at most `digits` decimals (19.99 yes, 19.999 no). */
export function hasAtMostDecimals(amount: number, digits = DEFAULT_MINOR_DIGITS): boolean {
  return Number.isFinite(amount) && Number(amount.toFixed(digits)) === amount;
}

export function toMinor(amount: number, digits = DEFAULT_MINOR_DIGITS): number {
  if (!hasAtMostDecimals(amount, digits)) throw new RangeError(`amount ${amount} has more than ${digits} decimals`);
  const fixed = amount.toFixed(digits);
  const negative = fixed.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? fixed.slice(1) : fixed).split('.');
  const minor = Number.parseInt(whole + fraction.padEnd(digits, '0'), 10);
  return negative ? -minor : minor;
}

export function toMajor(minor: number, digits = DEFAULT_MINOR_DIGITS): number {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`minor amount ${minor} is not a safe integer`);
  if (digits === 0) return minor;
  const negative = minor < 0;
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  const major = `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return Number(negative ? `-${major}` : major);
}

/** Nullable convenience for optional amounts. */
export function toMajorOrNull(minor: number | null | undefined, digits = DEFAULT_MINOR_DIGITS): number | null {
  return minor == null ? null : toMajor(minor, digits);
}

/**
 * An amount in major units as people read it (the admin panel, notifications): exactly `digits`
 * decimals, the currency's minor units from the currencies table, so 1200 (JPY, 0), 19.90 (EUR, 2),
 * 1.234 (KWD, 3). `amount` has at most `digits` decimals, as every amount the API gives has.
 */
export function formatAmount(amount: number, digits: number): string {
  return amount.toFixed(digits);
}

/** formatAmount followed by the currency's code: "1200 JPY", "1.234 KWD". */
export function formatMoney(amount: number, currency: string, digits: number): string {
  return `${formatAmount(amount, digits)} ${currency}`;
}

/** formatMoney of an amount in minor units. */
export function formatMinor(minor: number, currency: string, digits: number): string {
  return formatMoney(toMajor(minor, digits), currency, digits);
}

/**
 * The decimals ISO 4217 gives `currency` (2 for a code it does not know): only for an amount whose
 * currency the store no longer has, or that carries no minor units of its own.
 */
export function isoDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().minimumFractionDigits ?? DEFAULT_MINOR_DIGITS;
  } catch {
    return DEFAULT_MINOR_DIGITS;
  }
}
