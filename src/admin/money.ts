import type { Database } from '../db/client';
import { currencies } from '../db/schema';
import { formatAmount, formatMoney, isoDigits } from '../lib/money';

/**
 * How the panel shows amounts: every amount on its pages goes through one of these, which give it
 * its currency's decimals from the currencies table (src/lib/money.ts formats), so a yen order
 * reads 1200 JPY and a dinar one 1.234 KWD, never 1200.00 JPY or 1.23 KWD.
 */
export interface Money {
  /** `amount` (major units, as the API gives it) and its currency: "1200 JPY". */
  (amount: number, currency: string): string;
  /** The amount alone, with its currency's decimals: "1200", for a column whose currency is said once. */
  amount(amount: number, currency: string): string;
  /** The currency's decimals. */
  digits(currency: string): number;
  /** The `step` of an amount field in the currency: "1" for JPY, "0.01" for EUR, "0.001" for KWD. */
  step(currency: string): string;
}

/** The panel's Money for the store's currencies now (one read); a currency since deleted gets ISO 4217's decimals. */
export async function moneyOf(db: Database): Promise<Money> {
  const rows = await db.select({ code: currencies.code, minorUnits: currencies.minorUnits }).from(currencies);
  return moneyWith(new Map(rows.map((row) => [row.code, row.minorUnits])));
}

/** Money for currencies of known `digits`. */
export function moneyWith(digits: ReadonlyMap<string, number>): Money {
  const digitsOf = (currency: string) => digits.get(currency) ?? isoDigits(currency);
  const money = (amount: number, currency: string) => formatMoney(amount, currency, digitsOf(currency));
  money.amount = (amount: number, currency: string) => formatAmount(amount, digitsOf(currency));
  money.digits = digitsOf;
  money.step = (currency: string) => {
    const d = digitsOf(currency);
    return d === 0 ? '1' : (10 ** -d).toFixed(d);
  };
  return money;
}
