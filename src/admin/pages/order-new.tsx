import { Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { Table } from '../components/table';
import { formatMoney } from '../../lib/money';

/** A line of the draft as the form holds it (text, as typed or chosen). */
export interface DraftLine {
  variantId: string;
  quantity: string;
}

/** The shipping address fields of the form, named as CreateOrderBody's `shippingAddress` keys. */
export const ADDRESS_FIELDS = [
  ['firstName', 'First name'],
  ['lastName', 'Last name'],
  ['company', 'Company'],
  ['line1', 'Address line 1'],
  ['line2', 'Address line 2'],
  ['city', 'City'],
  ['region', 'Region / state'],
  ['postalCode', 'Postal code'],
  ['country', 'Country (ISO code, e.g. US)'],
  ['phone', 'Phone'],
] as const;

/** The fields of the draft other than its lines. */
export const DRAFT_FIELDS = ['customerId', 'email', 'currency', 'couponCode', 'notes', ...ADDRESS_FIELDS.map(([k]) => `shippingAddress.${k}`)];

/** The totals the server computed for the draft (major units), as the order will have them. */
export interface Review {
  currency: string;
  /** The currency's minor units: its amounts are shown with as many decimals. */
  digits: number;
  lines: { name: string; sku: string | null; quantity: number; stock: number; unitPrice: number; discount: number; tax: number; taxRate: number | null; total: number }[];
  pricesIncludeTax: boolean;
  subtotal: number;
  discountTotal: number;
  shippingTotal: number;
  taxTotal: number;
  total: number;
  couponCode: string | null;
  orderer: string;
}

export interface NewOrderView {
  csrf: string;
  /** Values of DRAFT_FIELDS, the errors by field (`lines.0.quantity`, `shippingAddress.country`, ...). */
  form: FormState;
  lines: DraftLine[];
  customers: [string, string][];
  variants: [string, string][];
  currencies: [string, string][];
  /** The customer search the select was filled from (`customer_q`, the customers list's `q`). */
  customerSearch: string;
  review?: Review;
}

/** Hidden inputs carrying the draft, so a later step (add line, review, place) sees it all. */
function DraftHidden({ v }: { v: NewOrderView }) {
  return (
    <>
      {DRAFT_FIELDS.map((name) => (
        <input type="hidden" name={name} value={String(v.form.values[name] ?? '')} />
      ))}
      {v.lines.map((l, i) => (
        <>
          <input type="hidden" name={`lines.${i}.variantId`} value={l.variantId} />
          <input type="hidden" name={`lines.${i}.quantity`} value={l.quantity} />
        </>
      ))}
    </>
  );
}

export function NewOrderPage(v: NewOrderView) {
  const f = v.form;
  const lineFields = v.lines.flatMap((_, i) => [`lines.${i}.variantId`, `lines.${i}.quantity`]);
  const lineForm = (i: number): FormState => ({
    values: { [`lines.${i}.variantId`]: v.lines[i]!.variantId, [`lines.${i}.quantity`]: v.lines[i]!.quantity },
    errors: f.errors,
  });
  return (
    <>
      <div class="actions">
        <a href="/admin/orders">← All orders</a>
      </div>
      <form method="get" action="/admin/orders/new" class="filters" role="search" aria-label="Find a customer">
        <Field form={{ values: { customer_q: v.customerSearch }, errors: {} }} name="customer_q" label="Find a customer (name or email)" type="search" />
        <button type="submit" class="secondary">
          Find
        </button>
      </form>
      <PostForm action="/admin/orders/new" csrf={v.csrf}>
        <FormErrors form={f} fields={[...DRAFT_FIELDS, ...lineFields]} />
        <section class="card" aria-labelledby="who">
          <h2 id="who">Customer</h2>
          <p class="muted">Choose a customer, or leave it on "Guest" and give the guest's email.</p>
          <div class="form-row">
            <Select form={f} name="customerId" label="Customer" options={v.customers} blank="Guest (email below)" />
            <Field form={f} name="email" label="Email" type="email" hint="A guest's email; for a customer, its account email when left blank." />
          </div>
        </section>
        <section class="card" aria-labelledby="items">
          <h2 id="items">Lines</h2>
          {f.errors.lines ? <p class="error">{f.errors.lines}</p> : null}
          {v.lines.map((_, i) => (
            <div class="form-row" data-line={String(i)}>
              <Select form={lineForm(i)} name={`lines.${i}.variantId`} label={`Line ${i + 1}: item`} options={v.variants} blank="— none —" />
              <Field form={lineForm(i)} name={`lines.${i}.quantity`} label="Quantity" type="number" min="1" step="1" />
            </div>
          ))}
          <button type="submit" name="step" value="add" class="secondary">
            Add line
          </button>
        </section>
        <section class="card" aria-labelledby="terms">
          <h2 id="terms">Price and delivery</h2>
          <div class="form-row">
            <Select form={f} name="currency" label="Currency" options={v.currencies} />
            <Field form={f} name="couponCode" label="Coupon code" />
          </div>
          <h3>Shipping address</h3>
          <p class="muted">Optional; when given, line 1, city and country are required. Its country (and region) choose the tax rate.</p>
          <div class="form-row">
            {ADDRESS_FIELDS.map(([key, label]) => (
              <Field form={f} name={`shippingAddress.${key}`} label={label} />
            ))}
          </div>
          <Field form={f} name="notes" label="Notes" type="textarea" />
        </section>
        <button type="submit" name="step" value="review">
          Review
        </button>
      </PostForm>
      {v.review ? <ReviewCard v={v} review={v.review} /> : null}
    </>
  );
}

function ReviewCard({ v, review: r }: { v: NewOrderView; review: Review }) {
  const money = (amount: number, currency: string) => formatMoney(amount, currency, r.digits);
  return (
    <section class="card" aria-labelledby="review" id="review-card">
      <h2 id="review">Review</h2>
      <p>
        For <strong>{r.orderer}</strong>. These are the totals the order is placed at if prices do not change in the meantime.
      </p>
      <Table caption="Lines to order" head={['Item', 'SKU', 'Qty', 'In stock', 'Unit', 'Discount', 'Tax', 'Total']} count={r.lines.length}>
        {r.lines.map((l) => (
          <tr>
            <td>{l.name}</td>
            <td>{l.sku ?? '—'}</td>
            <td class="num">{l.quantity}</td>
            <td class="num">{l.stock}</td>
            <td class="num">{money(l.unitPrice, r.currency)}</td>
            <td class="num">{money(l.discount, r.currency)}</td>
            <td class="num">
              {money(l.tax, r.currency)}
              {l.taxRate === null ? '' : ` (${l.taxRate}%)`}
            </td>
            <td class="num">{money(l.total, r.currency)}</td>
          </tr>
        ))}
      </Table>
      <dl class="facts" id="review-totals">
        <dt>Subtotal</dt>
        <dd data-total="subtotal">{money(r.subtotal, r.currency)}</dd>
        <dt>Discount</dt>
        <dd data-total="discountTotal">
          {money(r.discountTotal, r.currency)}
          {r.couponCode ? ` (${r.couponCode})` : ''}
        </dd>
        <dt>Shipping</dt>
        <dd data-total="shippingTotal">{money(r.shippingTotal, r.currency)}</dd>
        <dt>Tax</dt>
        <dd data-total="taxTotal">
          {money(r.taxTotal, r.currency)}
          {r.pricesIncludeTax ? ' (included in prices)' : ''}
        </dd>
        <dt>Total</dt>
        <dd data-total="total">
          <strong>{money(r.total, r.currency)}</strong>
        </dd>
      </dl>
      <PostForm action="/admin/orders/new" csrf={v.csrf}>
        <DraftHidden v={v} />
        <button type="submit" name="step" value="place">
          Place order
        </button>
      </PostForm>
    </section>
  );
}
