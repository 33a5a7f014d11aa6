import { WEIGHT_UNITS } from '../../db/schema';
import type { Pagination } from '../../lib/envelope';
import type { Currency, TaxClass, TaxRate } from '../../modules/settings/schemas';
import { ActionButton, Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { Badge, Pager, Table } from '../components/table';
import { Checkbox } from './coupons';
import { VERSION_DATES } from '../../versions/versions';

export const STORE_FIELDS = [
  'name',
  'contactEmail',
  'defaultCurrency',
  'weightUnit',
  'lowStockThreshold',
  'returnWindowDays',
  'pricesIncludeTax',
  'shippingFlatRate',
  'freeShippingThreshold',
  'allowedOrigins',
  'apiVersion',
];

const TAX_FIELDS = ['name', 'country', 'region', 'rate', 'taxClass', 'shippingTaxable'];
const CURRENCY_FIELDS = ['name', 'symbol', 'minorUnits', 'exchangeRate', 'enabled', 'pricesIncludeTax'];

/** A currency's `pricesIncludeTax` as the form's choice: blank follows the store. */
export const PRICES_INCLUDE_TAX: [string, string][] = [
  ['', 'Store default'],
  ['yes', 'Yes: prices include tax'],
  ['no', 'No: tax is added'],
];

function PricesIncludeTaxSelect({ form }: { form: FormState }) {
  return <Select form={form} name="pricesIncludeTax" label="Prices include tax" options={PRICES_INCLUDE_TAX} />;
}

/** The classes a rate can be for: every one but zero, which is never taxed. */
function TaxClassSelect({ form, classes }: { form: FormState; classes: TaxClass[] }) {
  const options = classes.filter((c) => c.code !== 'zero').map((c): [string, string] => [c.code, c.name]);
  return <Select form={form} name="taxClass" label="Tax class" options={options} />;
}

const className = (classes: TaxClass[], code: string) => classes.find((c) => c.code === code)?.name ?? code;

export interface SettingsView {
  store: FormState;
  currencies: Currency[];
  taxes: TaxRate[];
  taxClasses: TaxClass[];
  taxPage: Pagination;
  url: string;
  taxForm: FormState;
  currencyForm: FormState;
  csrf: string;
  canWrite: boolean;
}

export function SettingsPage(v: SettingsView) {
  const codes = v.currencies.filter((c) => c.enabled).map((c) => c.code);
  return (
    <>
      <nav class="actions" aria-label="Settings sections">
        <a href="#store">Store</a> <a href="#currencies">Currencies</a> <a href="#taxes">Taxes</a> <a href="/admin/settings/tax-classes">Tax classes</a>{' '}
        <a href="/admin/settings/shipping">Shipping</a> <a href="/admin/settings/api-keys">API keys</a>
      </nav>
      <section class="card" aria-labelledby="store">
        <h2 id="store">Store</h2>
        <PostForm action="/admin/settings" csrf={v.csrf}>
          <FormErrors form={v.store} fields={STORE_FIELDS} />
          <div class="form-row">
            <Field form={v.store} name="name" label="Store name" required />
            <Field form={v.store} name="contactEmail" label="Contact email" type="email" />
            <Select form={v.store} name="defaultCurrency" label="Default currency" options={codes} />
            <Select form={v.store} name="weightUnit" label="Weight unit" options={WEIGHT_UNITS} />
            <Field form={v.store} name="lowStockThreshold" label="Low-stock threshold" type="number" min="0" />
            <Field
              form={v.store}
              name="returnWindowDays"
              label="Return window (days)"
              type="number"
              min="0"
              hint="After delivery; 0 closes returns to customers. Staff may return any time."
            />
            {/* The deprecated aliases of the migrated "Standard" shipping method, while it is there and flat (src/modules/settings/legacy-shipping-settings.ts). */}
            {v.store.values.shippingFlatRate != null && (
              <>
                <Field form={v.store} name="shippingFlatRate" label="Flat shipping (Standard)" type="number" step="0.01" min="0" />
                <Field form={v.store} name="freeShippingThreshold" label="Free shipping from" type="number" step="0.01" min="0" hint="Blank: never free." />
              </>
            )}
          </div>
          <Checkbox form={v.store} name="pricesIncludeTax" label="Prices include tax: shoppers pay the listed price, tax inside it (a currency may say otherwise)" />
          <Field
            form={v.store}
            name="allowedOrigins"
            label="Storefront origins (CORS)"
            type="textarea"
            hint="Web pages on these origins may call the API from the browser. One a line: https://shop.example, or https://*.shop.example for every subdomain."
          />
          <Select
            form={v.store}
            name="apiVersion"
            label="Default API version"
            options={VERSION_DATES}
            hint="The shapes of answers to requests that name no version (Store-Version) and whose key is pinned to none, and the version new API keys are pinned to. See docs/versioning.md."
          />
          {v.canWrite ? <button type="submit">Save settings</button> : null}
        </PostForm>
      </section>
      <h2 id="currencies">Currencies</h2>
      <Table caption="Currencies" head={['Code', 'Name', 'Symbol', 'Decimals', 'Rate', 'Prices include tax', 'State', '']} count={v.currencies.length}>
        {v.currencies.map((c) => (
          <tr>
            <td>{c.code}</td>
            <td>{c.name}</td>
            <td>{c.symbol}</td>
            <td class="num">{c.minorUnits}</td>
            <td class="num">{c.exchangeRate}</td>
            <td>{c.pricesIncludeTax === null ? 'store default' : c.pricesIncludeTax ? 'yes' : 'no'}</td>
            <td>{c.isDefault ? <Badge value="default" /> : <Badge value={c.enabled ? 'active' : 'inactive'} />}</td>
            <td>
              {v.canWrite ? (
                <div class="actions">
                  <a href={`/admin/settings/currencies/${c.code}`}>Edit</a>
                  {c.isDefault ? null : (
                    <ActionButton action={`/admin/settings/currencies/${c.code}/delete`} csrf={v.csrf} label="Delete" danger confirm={`Delete the currency ${c.code}?`} />
                  )}
                </div>
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
      {v.canWrite ? (
        <PostForm action="/admin/settings/currencies" csrf={v.csrf} class="card">
          <h3>Add a currency</h3>
          <FormErrors form={v.currencyForm} fields={['code', 'name', 'symbol', 'minorUnits', 'exchangeRate', 'pricesIncludeTax']} />
          <div class="form-row">
            <Field form={v.currencyForm} name="code" label="Code" required placeholder="EUR" />
            <Field form={v.currencyForm} name="name" label="Name" required />
            <Field form={v.currencyForm} name="symbol" label="Symbol" required />
            <Field form={v.currencyForm} name="minorUnits" label="Decimals" type="number" min="0" />
            <Field form={v.currencyForm} name="exchangeRate" label="Rate per default unit" type="number" step="any" min="0" required />
            <PricesIncludeTaxSelect form={v.currencyForm} />
          </div>
          <button type="submit">Add currency</button>
        </PostForm>
      ) : null}
      <h2 id="taxes">Taxes</h2>
      <p class="muted">
        A product is taxed at the rate of its <a href="/admin/settings/tax-classes">tax class</a> for the address; a class with no rate there pays the standard rate, and the zero
        class is never taxed.
      </p>
      <Table caption="Tax rates" head={['Name', 'Class', 'Country', 'Region', 'Rate', 'Shipping taxed', '']} count={v.taxes.length} empty="No tax rates.">
        {v.taxes.map((t) => (
          <tr>
            <td>{t.name}</td>
            <td>{className(v.taxClasses, t.taxClass)}</td>
            <td>{t.country}</td>
            <td>{t.region ?? '—'}</td>
            <td class="num">{t.rate}%</td>
            <td>{t.shippingTaxable ? 'yes' : 'no'}</td>
            <td>
              {v.canWrite ? (
                <div class="actions">
                  <a href={`/admin/settings/taxes/${t.id}`}>Edit</a>
                  <ActionButton action={`/admin/settings/taxes/${t.id}/delete`} csrf={v.csrf} label="Delete" danger confirm={`Delete the tax rate "${t.name}"?`} />
                </div>
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
      <Pager page={v.taxPage} url={v.url} />
      {v.canWrite ? (
        <PostForm action="/admin/settings/taxes" csrf={v.csrf} class="card">
          <h3>Add a tax rate</h3>
          <FormErrors form={v.taxForm} fields={TAX_FIELDS} />
          <div class="form-row">
            <Field form={v.taxForm} name="name" label="Name" required />
            <Field form={v.taxForm} name="country" label="Country" required placeholder="US" />
            <Field form={v.taxForm} name="region" label="Region" placeholder="CA" />
            <Field form={v.taxForm} name="rate" label="Rate (%)" type="number" step="any" min="0" required />
            <TaxClassSelect form={v.taxForm} classes={v.taxClasses} />
          </div>
          <Checkbox form={v.taxForm} name="shippingTaxable" label="Shipping is taxed too" />
          <button type="submit">Add tax rate</button>
        </PostForm>
      ) : null}
    </>
  );
}

export function CurrencyEditPage(v: { currency: Currency; form: FormState; csrf: string }) {
  const c = v.currency;
  const f = v.form;
  return (
    <>
      <div class="actions">
        <a href="/admin/settings#currencies">← Settings</a>
      </div>
      <PostForm action={`/admin/settings/currencies/${c.code}`} csrf={v.csrf} class="card">
        <h2>
          {c.code} {c.isDefault ? <Badge value="default" /> : null}
        </h2>
        {c.isDefault ? <p class="muted">The default currency stays enabled, at rate 1, with the same decimals: stored amounts are its minor units.</p> : null}
        <FormErrors form={f} fields={CURRENCY_FIELDS} />
        <div class="form-row">
          <Field form={f} name="name" label="Name" required />
          <Field form={f} name="symbol" label="Symbol" required />
          <Field form={f} name="minorUnits" label="Decimals" type="number" min="0" />
          <Field form={f} name="exchangeRate" label="Rate per default unit" type="number" step="any" min="0" required />
          <PricesIncludeTaxSelect form={f} />
        </div>
        <Checkbox form={f} name="enabled" label="Enabled (shown to customers)" />
        <button type="submit">Save currency</button>
      </PostForm>
      <ActionButton action={`/admin/settings/currencies/${c.code}/delete`} csrf={v.csrf} label="Delete currency" danger confirm={`Delete the currency ${c.code}?`} />
    </>
  );
}

export function TaxRateEditPage(v: { rate: TaxRate; taxClasses: TaxClass[]; form: FormState; csrf: string }) {
  const t = v.rate;
  const f = v.form;
  return (
    <>
      <div class="actions">
        <a href="/admin/settings#taxes">← Settings</a>
      </div>
      <PostForm action={`/admin/settings/taxes/${t.id}`} csrf={v.csrf} class="card">
        <h2>Tax rate</h2>
        <p class="muted">Orders already placed keep the tax they were charged.</p>
        <FormErrors form={f} fields={TAX_FIELDS} />
        <div class="form-row">
          <Field form={f} name="name" label="Name" required />
          <Field form={f} name="country" label="Country" required placeholder="US" />
          <Field form={f} name="region" label="Region" placeholder="CA" hint="Blank: the whole country." />
          <Field form={f} name="rate" label="Rate (%)" type="number" step="any" min="0" required />
          <TaxClassSelect form={f} classes={v.taxClasses} />
        </div>
        <Checkbox form={f} name="shippingTaxable" label="Shipping is taxed too" />
        <button type="submit">Save tax rate</button>
      </PostForm>
      <ActionButton action={`/admin/settings/taxes/${t.id}/delete`} csrf={v.csrf} label="Delete tax rate" danger confirm={`Delete the tax rate "${t.name}"?`} />
    </>
  );
}
