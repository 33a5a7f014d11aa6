import { COUPON_TYPES } from '../../db/schema';
import type { Pagination } from '../../lib/envelope';
import type { Coupon } from '../../modules/coupons/schemas';
import { COUPON_STATUSES } from '../../modules/coupons';
import { ActionButton, Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { Badge, Filters, Pager, Table, when } from '../components/table';
import { currencyField, currencyValues } from '../currency-fields';
import { formatAmount } from '../../lib/money';
import type { StoreCurrency } from '../../modules/settings';

/** `store`: the default currency, which a fixed coupon's value is in. */
export function CouponListPage(v: {
  coupons: Coupon[];
  store: StoreCurrency;
  page: Pagination;
  url: string;
  filters: FormState;
  form: FormState;
  csrf: string;
  canWrite: boolean;
}) {
  return (
    <>
      <Filters action="/admin/coupons" exportTo="coupons">
        <Field form={v.filters} name="q" label="Search" />
        <Select form={v.filters} name="status" label="Status" options={COUPON_STATUSES} blank="Any" />
      </Filters>
      <Table caption="Coupons" head={['Code', 'Type', 'Value', 'Status', 'Used', 'Ends', '']} count={v.coupons.length} empty="No coupons match.">
        {v.coupons.map((c) => (
          <tr>
            <td>
              <a href={`/admin/coupons/${c.id}`}>
                <code>{c.code}</code>
              </a>
              {c.description ? <div class="muted">{c.description}</div> : null}
            </td>
            <td>{c.type}</td>
            <td class="num">{c.type === 'percentage' ? `${c.value}%` : formatAmount(c.value, v.store.minorUnits)}</td>
            <td>
              <Badge value={c.status} />
            </td>
            <td class="num">
              {c.timesUsed}
              {c.usageLimit ? ` / ${c.usageLimit}` : ''}
            </td>
            <td>{when(c.endsAt)}</td>
            <td>
              {v.canWrite ? (
                <div class="actions">
                  <ActionButton
                    action={`/admin/coupons/${c.id}/active`}
                    csrf={v.csrf}
                    label={c.active ? 'Deactivate' : 'Activate'}
                    fields={{ active: c.active ? 'false' : 'true' }}
                  />
                  {c.timesUsed === 0 ? <ActionButton action={`/admin/coupons/${c.id}/delete`} csrf={v.csrf} label="Delete" danger confirm={`Delete coupon ${c.code}?`} /> : null}
                </div>
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
      {v.canWrite ? (
        <PostForm action="/admin/coupons" csrf={v.csrf} class="card">
          <h2>New coupon</h2>
          <FormErrors form={v.form} fields={['code', 'type', 'value', 'description', 'usageLimit', 'endsAt']} />
          <div class="form-row">
            <Field form={v.form} name="code" label="Code" required placeholder="SUMMER-10" />
            <Select form={v.form} name="type" label="Type" options={COUPON_TYPES} />
            <Field form={v.form} name="value" label="Value" type="number" step="0.01" min="0" required hint="Percent, or an amount in the default currency." />
            <Field form={v.form} name="usageLimit" label="Usage limit" type="number" min="1" hint="Blank: unlimited." />
            <Field form={v.form} name="endsAt" label="Ends on" type="date" />
          </div>
          <Field form={v.form} name="description" label="Description" />
          <button type="submit">Create coupon</button>
        </PostForm>
      ) : null}
    </>
  );
}

export const COUPON_FIELDS = [
  'code',
  'type',
  'value',
  'minSubtotal',
  'startsAt',
  'endsAt',
  'usageLimit',
  'usageLimitPerCustomer',
  'productIds',
  'categoryIds',
  'active',
  'description',
];

/** The form fields of the currency rows (CurrencyAmountRows), for FormErrors. */
export const amountOffFieldNames = (currencies: string[]) => currencies.flatMap((code) => [currencyField('value', code), currencyField('minSubtotal', code)]);

/** A UTC instant as the value of a datetime-local input (read back as UTC). */
export const localInstant = (iso: string | null | undefined) => (iso ? iso.slice(0, 23) : '');

/** The stored coupon as the edit form's values. */
export function couponFormValues(c: Coupon): Record<string, unknown> {
  return {
    ...c,
    ...currencyValues(c.currencyAmounts, (own) => ({ value: own.value, minSubtotal: own.minSubtotal })),
    startsAt: localInstant(c.startsAt),
    endsAt: localInstant(c.endsAt),
    productIds: c.productIds.join('\n'),
    categoryIds: c.categoryIds.join('\n'),
    active: c.active ? 'on' : '',
  };
}

/** A fixed coupon's (or promotion's: `noun`) own amount and minimum in each of the store's other currencies, a row each. */
const COUPON_ROWS_HINT = 'For a fixed coupon: what carts in that currency get off, instead of the value converted. Blank: converted.';

export function CurrencyAmountRows({
  form,
  currencies,
  legend = 'Fixed amount per currency',
  hint = COUPON_ROWS_HINT,
}: {
  form: FormState;
  currencies: string[];
  legend?: string;
  hint?: string;
}) {
  if (currencies.length === 0) return null;
  return (
    <fieldset>
      <legend>{legend}</legend>
      <p class="muted">{hint}</p>
      {currencies.map((code) => (
        <div class="form-row">
          <Field form={form} name={currencyField('value', code)} label={`Amount (${code})`} type="number" step="any" min="0" />
          <Field
            form={form}
            name={currencyField('minSubtotal', code)}
            label={`Minimum subtotal (${code})`}
            type="number"
            step="any"
            min="0"
            hint="Blank: the minimum subtotal converted."
          />
        </div>
      ))}
    </fieldset>
  );
}

export function CouponEditPage(v: { coupon: Coupon; currencies: string[]; form: FormState; csrf: string; canWrite: boolean }) {
  const c = v.coupon;
  const f = v.form;
  const remaining = c.usageLimit === null ? 'unlimited' : String(Math.max(0, c.usageLimit - c.timesUsed));
  return (
    <>
      <div class="actions">
        <a href="/admin/coupons">← All coupons</a>
      </div>
      <section class="card" aria-labelledby="usage">
        <h2 id="usage">Usage</h2>
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <Badge value={c.status} />
          </dd>
          <dt>Times used</dt>
          <dd data-times-used={c.timesUsed}>{c.timesUsed}</dd>
          <dt>Usage limit</dt>
          <dd>{c.usageLimit ?? 'unlimited'}</dd>
          <dt>Uses left</dt>
          <dd>{remaining}</dd>
          <dt>Per customer</dt>
          <dd>{c.usageLimitPerCustomer ?? 'unlimited'}</dd>
          <dt>Created</dt>
          <dd>{when(c.createdAt)}</dd>
          <dt>Updated</dt>
          <dd>{when(c.updatedAt)}</dd>
        </dl>
      </section>
      <PostForm action={`/admin/coupons/${c.id}`} csrf={v.csrf} class="card">
        <h2>Coupon</h2>
        <FormErrors form={f} fields={[...COUPON_FIELDS, ...amountOffFieldNames(v.currencies)]} />
        <div class="form-row">
          <Field form={f} name="code" label="Code" required />
          <Select form={f} name="type" label="Type" options={COUPON_TYPES} />
          <Field form={f} name="value" label="Value" type="number" step="any" min="0" required hint="Percent, or an amount in the default currency." />
          <Field form={f} name="minSubtotal" label="Minimum subtotal" type="number" step="any" min="0" hint="Blank: any subtotal." />
        </div>
        <CurrencyAmountRows form={f} currencies={v.currencies} />
        <div class="form-row">
          <Field form={f} name="startsAt" label="Starts (UTC)" type="datetime-local" step="0.001" hint="Blank: already started." />
          <Field form={f} name="endsAt" label="Ends (UTC)" type="datetime-local" step="0.001" hint="Blank: never ends." />
          <Field form={f} name="usageLimit" label="Usage limit" type="number" min="1" hint={`Blank: unlimited. Used ${c.timesUsed} times so far.`} />
          <Field form={f} name="usageLimitPerCustomer" label="Limit per customer" type="number" min="1" hint="Blank: unlimited." />
        </div>
        <div class="form-row">
          <Field form={f} name="productIds" label="Only these products" type="textarea" hint="Product ids, one per line. Blank: every product." />
          <Field form={f} name="categoryIds" label="Only these categories" type="textarea" hint="Category ids, one per line. Blank: every category." />
        </div>
        <Field form={f} name="description" label="Description" hint="Blank: none." />
        <Checkbox form={f} name="active" label="Active" />
        {v.canWrite ? <button type="submit">Save coupon</button> : null}
      </PostForm>
      {v.canWrite && c.timesUsed === 0 ? (
        <ActionButton action={`/admin/coupons/${c.id}/delete`} csrf={v.csrf} label="Delete coupon" danger confirm={`Delete coupon ${c.code}?`} />
      ) : null}
    </>
  );
}

/** One on/off checkbox ("on" when checked), its error under it. */
export function Checkbox(props: { form: FormState; name: string; label: string }) {
  const value = props.form.values[props.name];
  const error = props.form.errors[props.name];
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label class="check">
        <input type="checkbox" name={props.name} id={`f-${props.name}`} checked={value === true || value === 'on'} /> {props.label}
      </label>
      {error ? (
        <p class="error" id={`f-${props.name}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
