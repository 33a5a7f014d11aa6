/**
 * Tax by rate, as an invoice shows it: for each percent charged, the net amount taxed at it and the
 * tax. Built from amounts already priced (src/modules/checkout/pricing.ts), so it adds up exactly to them.
 */

export interface TaxedAmount {
  /** The percent charged (decimal text); null: untaxed, left out. */
  rate: string | null;
  /** What the shopper is charged for it before tax is added: after discounts, and with the tax inside when prices include it. */
  charged: number;
  tax: number;
}

/** One rate's entry on the wire: the percent, and amounts in major units (`money`). */
export interface TaxByRate {
  rate: number;
  netAmount: number;
  taxAmount: number;
}

export function taxBreakdown(items: readonly TaxedAmount[], pricesIncludeTax: boolean, money: (minor: number) => number): TaxByRate[] {
  const byRate = new Map<string, { rate: string; net: number; tax: number }>();
  for (const { rate, charged, tax } of items) {
    if (rate === null || charged === 0) continue;
    const entry = byRate.get(rate) ?? { rate, net: 0, tax: 0 };
    entry.net += pricesIncludeTax ? charged - tax : charged;
    entry.tax += tax;
    byRate.set(rate, entry);
  }
  return [...byRate.values()].sort((a, b) => Number(b.rate) - Number(a.rate)).map((t) => ({ rate: Number(t.rate), netAmount: money(t.net), taxAmount: money(t.tax) }));
}
