import type { CurrencyPriceList } from '../../modules/checkout';
import { Field, type FormState } from '../components/form';
import { num, type Posted } from '../form-data';

/**
 * A product's or variant's own prices per currency on the panel's forms: one row (price and
 * compare-at price) per currency of the store other than the default, named
 * `prices.<code>.amount` and `prices.<code>.compareAt` (after the variant's prefix, if any).
 */

const fieldName = (code: string, part: 'amount' | 'compareAt') => `prices.${code}.${part}`;

export function CurrencyPriceFields(v: { form: FormState; currencies: readonly string[]; prefix?: string }) {
  if (!v.currencies.length) return null;
  const name = (code: string, part: 'amount' | 'compareAt') => `${v.prefix ?? ''}${fieldName(code, part)}`;
  return (
    <fieldset class="field">
      <legend>Prices per currency</legend>
      <p class="muted">Blank: converted from the price by exchange rate. Set, it is what shoppers pay in that currency.</p>
      {v.currencies.map((code) => (
        <div class="form-row">
          <Field form={v.form} name={name(code, 'amount')} label={`Price in ${code}`} type="number" step="any" min="0" />
          <Field form={v.form} name={name(code, 'compareAt')} label={`Compare-at price in ${code}`} type="number" step="any" min="0" />
        </div>
      ))}
    </fieldset>
  );
}

/**
 * The rows posted as the API's `prices` list (the rows with an amount or a compare-at price; the
 * list replaces the set), and the form field each list entry's problems belong to.
 */
export function postedPrices(form: Posted, currencies: readonly string[], prefix = '') {
  const filled = currencies.filter(
    (code) => num(form, `${prefix}${fieldName(code, 'amount')}`) !== undefined || num(form, `${prefix}${fieldName(code, 'compareAt')}`) !== undefined,
  );
  const prices = filled.map((code) => ({
    currency: code,
    amount: num(form, `${prefix}${fieldName(code, 'amount')}`),
    compareAt: num(form, `${prefix}${fieldName(code, 'compareAt')}`) ?? null,
  }));
  const fieldNames = Object.fromEntries(
    filled.flatMap((code, i) => (['amount', 'compareAt', 'currency'] as const).map((part) => [`prices.${i}.${part}`, fieldName(code, part === 'currency' ? 'amount' : part)])),
  );
  return { prices, fieldNames };
}

/** A read's `prices` as the form's values. */
export function priceValues(prices: CurrencyPriceList): Record<string, number | null> {
  return Object.fromEntries(prices.flatMap((p) => [[fieldName(p.currency, 'amount'), p.amount] as const, [fieldName(p.currency, 'compareAt'), p.compareAt] as const]));
}
