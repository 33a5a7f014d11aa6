import { PRODUCT_STATUSES } from '../../db/schema';
import type { Pagination } from '../../lib/envelope';
import type { Product, Variant } from '../../modules/products/schemas';
import { ActionButton, Checkboxes, Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { Badge, Filters, Pager, Table } from '../components/table';
import type { Money } from '../money';
import { CurrencyPriceFields, priceValues } from './currency-prices';
import { ProductMediaSection } from './product-media';

type Option = [string, string];

export interface ProductChoices {
  brands: Option[];
  categories: Option[];
  /** Empty for a vendor user: its products always belong to its own vendor. */
  vendors: Option[];
  taxClasses: Option[];
  /** The store's currencies other than the default, each a row of own prices on the forms. */
  currencies: string[];
  /** Shows prices with their currency's decimals. */
  money: Money;
}

export function ProductListPage(v: { products: Product[]; page: Pagination; url: string; filters: FormState; choices: ProductChoices; canWrite: boolean }) {
  return (
    <>
      <div class="actions">
        {v.canWrite ? (
          <>
            <a href="/admin/products/new">+ New product</a> <a href="/admin/products/import">Import CSV</a>
          </>
        ) : null}
      </div>
      <Filters action="/admin/products" exportTo="products">
        <FilterField form={v.filters} name="q" label="Search" />
        <Select form={v.filters} name="status" label="Status" options={PRODUCT_STATUSES} blank="Any" />
        <Select form={v.filters} name="category" label="Category" options={v.choices.categories} blank="Any" />
        <Select form={v.filters} name="brand" label="Brand" options={v.choices.brands} blank="Any" />
      </Filters>
      <Table caption="Products" head={['Name', 'SKU', 'Status', 'Price', 'Stock', 'Variants', 'Brand']} count={v.products.length} empty="No products match.">
        {v.products.map((p) => (
          <tr>
            <td>
              <a href={`/admin/products/${p.id}`}>{p.name}</a>
            </td>
            <td>{p.sku ?? '—'}</td>
            <td>
              <Badge value={p.status} />
            </td>
            <td class="num">{v.choices.money.amount(p.price, p.currency)}</td>
            <td class="num">{p.stock}</td>
            <td class="num">{p.variants.length}</td>
            <td>{p.brand?.name ?? '—'}</td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
    </>
  );
}

const FilterField = (props: { form: FormState; name: string; label: string; type?: string }) => <Field {...props} />;

export const PRODUCT_FIELDS = [
  'name',
  'slug',
  'description',
  'price',
  'compareAtPrice',
  'sku',
  'status',
  'brandId',
  'vendorId',
  'categoryIds',
  'stock',
  'weight',
  'lowStockThreshold',
  'taxClass',
];

/** The product's own fields: for creating (with the first stock) and editing. */
export function ProductForm(v: { action: string; form: FormState; csrf: string; choices: ProductChoices; creating: boolean }) {
  const f = v.form;
  return (
    <PostForm action={v.action} csrf={v.csrf} class="card">
      <FormErrors form={f} fields={[...PRODUCT_FIELDS, ...priceFieldNames(v.choices.currencies)]} />
      <div class="form-row">
        <Field form={f} name="name" label="Name" required />
        <Field form={f} name="slug" label="Slug" hint="Left blank, it is made from the name." />
      </div>
      <Field form={f} name="description" label="Description" type="textarea" />
      <div class="form-row">
        <Field form={f} name="price" label="Price" type="number" step="0.01" min="0" required />
        <Field form={f} name="compareAtPrice" label="Compare-at price" type="number" step="0.01" min="0" />
        <Field form={f} name="sku" label="SKU" />
        <Select form={f} name="status" label="Status" options={PRODUCT_STATUSES} />
      </div>
      <div class="form-row">
        <Select form={f} name="brandId" label="Brand" options={v.choices.brands} blank="No brand" />
        {v.choices.vendors.length ? <Select form={f} name="vendorId" label="Vendor" options={v.choices.vendors} blank="The store itself" /> : null}
        {v.creating ? <Field form={f} name="stock" label="Stock" type="number" min="0" hint="Units of the default variant." /> : null}
        {v.creating ? <Field form={f} name="weight" label="Weight" type="number" step="any" min="0" hint={WEIGHT_HINT} /> : null}
        <Field form={f} name="lowStockThreshold" label="Low-stock threshold" type="number" min="0" hint="Blank: the store default." />
        <Select form={f} name="taxClass" label="Tax class" options={v.choices.taxClasses} />
      </div>
      <CurrencyPriceFields form={f} currencies={v.choices.currencies} />
      {v.choices.categories.length ? <Checkboxes form={f} name="categoryIds" legend="Categories" options={v.choices.categories} /> : null}
      <button type="submit">{v.creating ? 'Create product' : 'Save product'}</button>
    </PostForm>
  );
}

export function ProductEditPage(v: { product: Product; form: FormState; variantForm: FormState; csrf: string; choices: ProductChoices; mediaMaxBytes: number }) {
  const p = v.product;
  return (
    <>
      <div class="actions">
        <a href="/admin/products">← All products</a>
        <Badge value={p.status} />
        {p.status !== 'archived' ? (
          <ActionButton action={`/admin/products/${p.id}/archive`} csrf={v.csrf} label="Archive" danger confirm={`Archive "${p.name}"? It leaves the shop; orders keep it.`} />
        ) : null}
        <ActionButton
          action={`/admin/products/${p.id}/delete`}
          csrf={v.csrf}
          label="Delete"
          danger
          confirm={`Delete "${p.name}" and its variants for good? Archiving keeps it for the records.`}
        />
      </div>
      <ProductForm action={`/admin/products/${p.id}`} form={v.form} csrf={v.csrf} choices={v.choices} creating={false} />
      <ProductMediaSection product={p} csrf={v.csrf} maxBytes={v.mediaMaxBytes} />
      <h2>Variants</h2>
      <p class="muted">Options as name=value pairs, e.g. “size=M, color=Blue”. Stock changes are recorded as corrections.</p>
      {p.variants.map((variant) => (
        <VariantForm
          productId={p.id}
          variant={variant}
          csrf={v.csrf}
          form={v.variantForm.values.variantId === variant.id ? v.variantForm : undefined}
          currencies={v.choices.currencies}
        />
      ))}
      <h2>Add a variant</h2>
      <VariantForm productId={p.id} csrf={v.csrf} form={v.variantForm.values.variantId === 'new' ? v.variantForm : undefined} currencies={v.choices.currencies} />
    </>
  );
}

export const optionsText = (options: Record<string, string>) =>
  Object.entries(options)
    .map(([k, val]) => `${k}=${val}`)
    .join(', ');

export const VARIANT_FIELDS = ['sku', 'name', 'options', 'price', 'compareAtPrice', 'stock', 'weight', 'lowStockThreshold'];

/** The fields of the rows of own prices (CurrencyPriceFields), so their errors show beside them. */
const priceFieldNames = (currencies: readonly string[]) => currencies.flatMap((code) => [`prices.${code}.amount`, `prices.${code}.compareAt`]);

/** Weights are in the store's unit; shipping methods priced by weight read them. */
const WEIGHT_HINT = "In the store's weight unit (Settings); blank: none, shipped as weighing nothing.";

function VariantForm(v: { productId: string; variant?: Variant; csrf: string; form?: FormState; currencies: string[] }) {
  const base = `/admin/products/${v.productId}/variants`;
  const action = v.variant ? `${base}/${v.variant.id}` : base;
  const variant = v.variant;
  const form: FormState = v.form ?? {
    values: variant ? { ...variant, ...priceValues(variant.prices), options: optionsText(variant.options) } : {},
    errors: {},
  };
  // Ids per variant so labels stay unique on the page.
  const key = variant?.id ?? 'new';
  const prefixed: FormState = {
    values: Object.fromEntries(Object.entries(form.values).map(([k, val]) => [`${key}.${k}`, val])),
    errors: Object.fromEntries(Object.entries(form.errors).map(([k, val]) => [`${key}.${k}`, val])),
    message: form.message,
  };
  return (
    <div class="card">
      <PostForm action={action} csrf={v.csrf}>
        <FormErrors form={prefixed} fields={[...VARIANT_FIELDS, ...priceFieldNames(v.currencies)].map((f) => `${key}.${f}`)} />
        <input type="hidden" name="variantKey" value={key} />
        <div class="form-row">
          <Field form={prefixed} name={`${key}.sku`} label="SKU" />
          <Field form={prefixed} name={`${key}.name`} label="Variant name" />
          <Field form={prefixed} name={`${key}.options`} label="Options" placeholder="size=M, color=Blue" />
          <Field form={prefixed} name={`${key}.price`} label="Price" type="number" step="0.01" min="0" hint={variant ? undefined : 'Blank: the product price.'} />
          <Field form={prefixed} name={`${key}.stock`} label="Stock" type="number" min="0" />
          <Field form={prefixed} name={`${key}.weight`} label="Weight" type="number" step="any" min="0" hint={WEIGHT_HINT} />
        </div>
        <CurrencyPriceFields form={prefixed} currencies={v.currencies} prefix={`${key}.`} />
        <div class="actions">
          <button type="submit">{variant ? 'Save variant' : 'Add variant'}</button>
        </div>
      </PostForm>
      {variant ? <ActionButton action={`${base}/${variant.id}/delete`} csrf={v.csrf} label="Delete variant" danger confirm="Delete this variant? This cannot be undone." /> : null}
    </div>
  );
}
