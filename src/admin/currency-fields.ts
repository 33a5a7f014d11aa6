import type { Database } from '../db/client';
import { getStoreCurrencies } from '../modules/settings';
import type { FormState } from './components/form';
import { numOrNull, type Posted, required, str } from './form-data';

/**
 * Per-currency rows of the panel's forms (a coupon's own amounts, a shipping method's own rates): one
 * row for each currency of the store but the default, its fields named `field.CODE`. A row left blank
 * is no entry (carts in that currency convert the default amounts).
 */

/** The store's currencies other than the default, by code. */
export async function otherCurrencies(db: Database): Promise<string[]> {
  const store = await getStoreCurrencies(db);
  return [...store.digits.keys()].filter((code) => code !== store.default.code).sort();
}

/** The form field of `field` in the row of `currency`. */
export const currencyField = (field: string, currency: string) => `${field}.${currency}`;

/** The currencies whose rows have any of `fields` filled, in the order of `currencies`: those the form sends entries for. */
export const filledRows = (form: Posted, currencies: string[], fields: string[]) =>
  currencies.filter((currency) => fields.some((f) => str(form, currencyField(f, currency)) !== undefined));

/** The entries of the filled rows, each read by `entry`. */
export function currencyRows<E>(form: Posted, currencies: string[], fields: string[], entry: (currency: string) => E): (E & { currency: string })[] {
  return filledRows(form, currencies, fields).map((currency) => ({ currency, ...entry(currency) }));
}

/** Stored entries as the rows' form values (`value.EUR: 5`), each entry's fields shown by `values`. */
export function currencyValues<E extends { currency: string }>(entries: E[], values: (entry: E) => Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(entries.flatMap((entry) => Object.entries(values(entry)).map(([field, value]) => [currencyField(field, entry.currency), value])));
}

/**
 * The form's errors with those of the API's entries (`currencyAmounts.1.value`) under their rows' fields
 * (`value.GBP`): `rows` are the currencies the form sent entries for, in order (filledRows); `formField`
 * names a row's field for the rest of the API's name (`value`, `rate.bands.0.amount`); the first error of a field stays.
 */
export function withRowErrors(state: FormState, list: string, rows: string[], formField: (rest: string) => string): FormState {
  const pattern = new RegExp(`^${list}\\.(\\d+)\\.(.+)$`);
  const errors: Record<string, string> = {};
  for (const [name, message] of Object.entries(state.errors)) {
    const m = pattern.exec(name);
    const currency = m ? rows[Number(m[1])] : undefined;
    errors[currency ? currencyField(formField(m![2]!), currency) : name] ??= message;
  }
  return { ...state, errors };
}

/** The fields of a row of a fixed discount's own amounts (a coupon's or a promotion's `currencyAmounts`). */
export const AMOUNT_OFF_FIELDS = ['value', 'minSubtotal'];

/**
 * Those rows as `currencyAmounts`: a coupon's row with a minimum but no amount goes on, for the schema to
 * refuse; a promotion's goes without `value` (`num`), which only a fixed promotion needs.
 */
export const amountsOffRows = (form: Posted, currencies: string[], value: (form: Posted, name: string) => number | string | undefined = required) =>
  currencyRows(form, currencies, AMOUNT_OFF_FIELDS, (code) => ({
    value: value(form, currencyField('value', code)),
    minSubtotal: numOrNull(form, currencyField('minSubtotal', code)),
  }));
