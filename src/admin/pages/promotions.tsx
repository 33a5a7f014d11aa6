import { PROMOTION_TARGETS, PROMOTION_TYPES } from '../../db/schema';
import type { Pagination } from '../../lib/envelope';
import type { PromotionOut } from '../../modules/promotions/schemas';
import { utcLocal } from '../components/content';
import { ActionButton, Checkboxes, Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { ACTIVE_OPTIONS, Badge, Filters, Pager, Table, when } from '../components/table';
import { currencyValues } from '../currency-fields';
import { amountOffFieldNames, Checkbox, CurrencyAmountRows } from './coupons';
import { formatAmount } from '../../lib/money';
import type { StoreCurrency } from '../../modules/settings';

const HERE = '/admin/promotions';
type Options = [string, string][];

/** What the form offers to choose from; `otherCurrencies`: the store's currencies but the default (the rows of own amounts). */
export interface PromotionChoices {
  categories: Options;
  brands: Options;
  groups: Options;
  zones: Options;
  methods: Options;
  currencies: string[];
  otherCurrencies: string[];
}

/** The product sets of a promotion, each as three fields named after the API's (`include.productIds`, ...). */
export const PRODUCT_SETS = ['include', 'exclude', 'buyXGetY.buy', 'buyXGetY.get'] as const;
/** The fields sent as several values (checkbox groups). */
export const CHECKBOX_GROUPS = [
  ...PRODUCT_SETS.flatMap((set) => [`${set}.categoryIds`, `${set}.brandIds`]),
  'customerGroupIds',
  'currencies',
  'freeShipping.methodIds',
  'freeShipping.zoneIds',
];
const FIELDS = [
  ...['name', 'description', 'code', 'type', 'value', 'target', 'minSubtotal', 'minQuantity', 'startsAt', 'endsAt', 'usageLimit', 'perCustomerLimit', 'priority'],
  ...['combinesWithPromotions', 'combinesWithCodes', 'active', 'buyXGetY.buy.quantity', 'buyXGetY.get.quantity', 'buyXGetY.get.percent'],
  ...PRODUCT_SETS.map((set) => `${set}.productIds`),
  ...CHECKBOX_GROUPS,
];

/** A percentage, or a fixed amount in the default currency (`store`), with its decimals. */
const typeValue = (p: PromotionOut, store: StoreCurrency) => (p.type === 'percentage' ? `${p.value}%` : p.type === 'fixed' ? formatAmount(p.value, store.minorUnits) : '');
const deleteConfirm = (p: PromotionOut) => `Delete the promotion “${p.name}”? Orders that got it keep their discounts.`;

/** A stored promotion as the form's values. */
export function promotionFormValues(p: PromotionOut): Record<string, unknown> {
  const sets = { include: p.include, exclude: p.exclude, 'buyXGetY.buy': p.buyXGetY?.buy, 'buyXGetY.get': p.buyXGetY?.get };
  return {
    ...p,
    ...currencyValues(p.currencyAmounts, (own) => ({ value: own.value, minSubtotal: own.minSubtotal })),
    ...Object.fromEntries(
      Object.entries(sets).flatMap(([at, set]) => [
        [`${at}.productIds`, set?.productIds.join('\n') ?? ''],
        [`${at}.categoryIds`, set?.categoryIds ?? []],
        [`${at}.brandIds`, set?.brandIds ?? []],
      ]),
    ),
    value: p.type === 'percentage' || p.type === 'fixed' ? p.value : '',
    'buyXGetY.buy.quantity': p.buyXGetY?.buy.quantity ?? '',
    'buyXGetY.get.quantity': p.buyXGetY?.get.quantity ?? '',
    'buyXGetY.get.percent': p.buyXGetY?.get.percent ?? '',
    'freeShipping.methodIds': p.freeShipping?.methodIds ?? [],
    'freeShipping.zoneIds': p.freeShipping?.zoneIds ?? [],
    startsAt: utcLocal(p.startsAt),
    endsAt: utcLocal(p.endsAt),
    active: p.active ? 'on' : '',
    combinesWithPromotions: p.combinesWithPromotions ? 'on' : '',
    combinesWithCodes: p.combinesWithCodes ? 'on' : '',
  };
}

export function PromotionListPage(v: { promotions: PromotionOut[]; store: StoreCurrency; page: Pagination; url: string; filters: FormState; csrf: string; canWrite: boolean }) {
  return (
    <>
      <p class="muted">
        Discounts on carts and orders, automatic or with a code. The promotions that apply are applied highest priority first; two apply together only when each combines with the
        other's kind, else the set that takes the most off wins. <a href="/admin/coupons">Coupons</a> are listed here too, marked: they are changed on their own page.
      </p>
      {v.canWrite ? (
        <div class="actions">
          <a href={`${HERE}/new`}>+ New promotion</a>
        </div>
      ) : null}
      <Filters action={HERE} exportTo="promotions">
        <Field form={v.filters} name="q" label="Search" />
        <Select form={v.filters} name="type" label="Type" options={PROMOTION_TYPES} blank="Any" />
        <Select form={v.filters} name="active" label="Active" options={ACTIVE_OPTIONS} blank="Any" />
      </Filters>
      <Table caption="Promotions" head={['Name', 'Code', 'Type', 'Active', 'Used', 'Starts', 'Ends', 'Priority', '']} count={v.promotions.length} empty="No promotions match.">
        {v.promotions.map((p) => (
          <tr>
            <td>
              <a href={p.isCoupon ? `/admin/coupons/${p.id}` : `${HERE}/${p.id}`}>{p.name}</a> {p.isCoupon ? <span class="muted">(coupon)</span> : null}
              {p.description ? <div class="muted">{p.description}</div> : null}
            </td>
            <td>{p.code ? <code>{p.code}</code> : <span class="muted">automatic</span>}</td>
            <td>
              {p.type.replace(/_/g, ' ')} {typeValue(p, v.store)}
            </td>
            <td>
              <Badge value={p.active ? 'active' : 'inactive'} />
            </td>
            <td class="num">
              {p.timesUsed}
              {p.usageLimit ? ` / ${p.usageLimit}` : ''}
            </td>
            <td>{when(p.startsAt)}</td>
            <td>{when(p.endsAt)}</td>
            <td class="num">{p.priority}</td>
            <td>{v.canWrite && !p.isCoupon ? <ActionButton action={`${HERE}/${p.id}/delete`} csrf={v.csrf} label="Delete" danger confirm={deleteConfirm(p)} /> : null}</td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
    </>
  );
}

/** One set of products by id (typed), category and brand (chosen), its fields named `<at>.productIds` and so on. */
function ProductSetFields(v: { form: FormState; at: string; legend: string; hint: string; choices: PromotionChoices }) {
  return (
    <fieldset>
      <legend>{v.legend}</legend>
      <p class="muted">{v.hint}</p>
      <Field form={v.form} name={`${v.at}.productIds`} label="Products" type="textarea" hint="Product ids, one per line (each product's page shows its id)." />
      {v.choices.categories.length ? <Checkboxes form={v.form} name={`${v.at}.categoryIds`} legend="Categories" options={v.choices.categories} /> : null}
      {v.choices.brands.length ? <Checkboxes form={v.form} name={`${v.at}.brandIds`} legend="Brands" options={v.choices.brands} /> : null}
    </fieldset>
  );
}

/** Every field of a promotion: for creating (`promotion` absent) and editing. */
export function PromotionFormPage(v: { promotion?: PromotionOut; choices: PromotionChoices; form: FormState; csrf: string; canWrite: boolean }) {
  const p = v.promotion;
  const f = v.form;
  const { choices } = v;
  return (
    <>
      <div class="actions">
        <a href={HERE}>← All promotions</a>
        {p ? <Badge value={p.active ? 'active' : 'inactive'} /> : null}
      </div>
      {p ? (
        <section class="card" aria-labelledby="usage">
          <h2 id="usage">Usage</h2>
          <dl class="facts">
            <dt>Times used</dt>
            <dd data-times-used={p.timesUsed}>{p.timesUsed}</dd>
            <dt>Usage limit</dt>
            <dd>{p.usageLimit ?? 'unlimited'}</dd>
            <dt>Created</dt>
            <dd>{when(p.createdAt)}</dd>
            <dt>Updated</dt>
            <dd>{when(p.updatedAt)}</dd>
          </dl>
        </section>
      ) : null}
      <PostForm action={p ? `${HERE}/${p.id}` : HERE} csrf={v.csrf} class="card">
        <h2>{p ? 'Promotion' : 'New promotion'}</h2>
        <FormErrors form={f} fields={[...FIELDS, ...amountOffFieldNames(choices.otherCurrencies)]} />
        <div class="form-row">
          <Field form={f} name="name" label="Name" required placeholder="Winter sale" hint="Shown to shoppers on each line it discounts." />
          <Field form={f} name="code" label="Code" placeholder="WINTER-10" hint="Blank: automatic, applies without a code." />
          <Select form={f} name="type" label="Type" options={PROMOTION_TYPES} />
          <Field form={f} name="value" label="Value" type="number" step="any" min="0" hint="Percentage: the percent off. Fixed: an amount in the default currency. Else blank." />
          <Select
            form={f}
            name="target"
            label="Discounts"
            options={PROMOTION_TARGETS.map((t): [string, string] => [t, t === 'order' ? 'the whole order' : 'only the included items'])}
          />
        </div>
        <Field form={f} name="description" label="Description" hint="For the staff; blank: none." />
        <CurrencyAmountRows
          form={f}
          currencies={choices.otherCurrencies}
          legend="Own amounts per currency"
          hint="Amount: a fixed promotion's own amount off in that currency (fixed only). Minimum: any type's own minimum subtotal there (free shipping over 50.00 EUR). Blank: converted."
        />
        <fieldset>
          <legend>Buy X get Y</legend>
          <p class="muted">Only for buy_x_get_y: every “buy” units bought from the first set give up to “get” units of the second (blank: the same set), that percent off.</p>
          <div class="form-row">
            <Field form={f} name="buyXGetY.buy.quantity" label="Buy quantity" type="number" min="1" />
            <Field form={f} name="buyXGetY.get.quantity" label="Get quantity" type="number" min="1" />
            <Field form={f} name="buyXGetY.get.percent" label="Percent off what is got" type="number" step="any" min="0" hint="Blank: 100, free." />
          </div>
          <ProductSetFields form={f} at="buyXGetY.buy" legend="Bought from" hint="Blank: every product." choices={choices} />
          <ProductSetFields form={f} at="buyXGetY.get" legend="Got from" hint="Blank: the bought set." choices={choices} />
        </fieldset>
        <fieldset>
          <legend>Free shipping</legend>
          <p class="muted">Only for free_shipping: the methods and zones it is limited to (none chosen: any).</p>
          {choices.methods.length ? <Checkboxes form={f} name="freeShipping.methodIds" legend="Shipping methods" options={choices.methods} /> : null}
          {choices.zones.length ? <Checkboxes form={f} name="freeShipping.zoneIds" legend="Shipping zones" options={choices.zones} /> : null}
        </fieldset>
        <h3>Conditions</h3>
        <div class="form-row">
          <Field form={f} name="minSubtotal" label="Minimum subtotal" type="number" step="any" min="0" hint="Before discounts, in the default currency. Blank: any." />
          <Field form={f} name="minQuantity" label="Minimum quantity" type="number" min="1" hint="Units of the matching items. Blank: any." />
          <Field form={f} name="startsAt" label="Starts (UTC)" type="datetime-local" hint="Blank: already started." />
          <Field form={f} name="endsAt" label="Ends (UTC)" type="datetime-local" hint="Blank: never ends." />
        </div>
        <ProductSetFields form={f} at="include" legend="Items it applies to" hint="Blank: every product. The matching items count for the conditions." choices={choices} />
        <ProductSetFields form={f} at="exclude" legend="Items it never applies to" hint="Never discounted nor counted." choices={choices} />
        {choices.groups.length ? <Checkboxes form={f} name="customerGroupIds" legend="Only customers in these groups (none: everyone)" options={choices.groups} /> : null}
        <Checkboxes
          form={f}
          name="currencies"
          legend="Only carts in these currencies (none: every currency)"
          options={choices.currencies.map((code): [string, string] => [code, code])}
        />
        <h3>Limits and combining</h3>
        <div class="form-row">
          <Field form={f} name="usageLimit" label="Usage limit" type="number" min="1" hint={`Orders in all. Blank: unlimited.${p ? ` Used ${p.timesUsed} times so far.` : ''}`} />
          <Field form={f} name="perCustomerLimit" label="Limit per customer" type="number" min="1" hint="Blank: unlimited." />
          <Field form={f} name="priority" label="Priority" type="number" hint="Higher applies first; blank: 0." />
        </div>
        <Checkbox form={f} name="combinesWithPromotions" label="Combines with automatic promotions" />
        <Checkbox form={f} name="combinesWithCodes" label="Combines with codes (coupons too)" />
        <Checkbox form={f} name="active" label="Active" />
        {v.canWrite ? <button type="submit">{p ? 'Save promotion' : 'Create promotion'}</button> : null}
      </PostForm>
      {v.canWrite && p ? <ActionButton action={`${HERE}/${p.id}/delete`} csrf={v.csrf} label="Delete promotion" danger confirm={deleteConfirm(p)} /> : null}
    </>
  );
}
