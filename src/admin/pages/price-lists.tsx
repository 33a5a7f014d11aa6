import { PRICE_LIST_STATUSES } from '../../db/schema';
import type { Pagination } from '../../lib/envelope';
import type { CustomerGroup } from '../../modules/customer-groups/schemas';
import type { PriceList } from '../../modules/price-lists/schemas';
import { utcLocal } from '../components/content';
import { ActionButton, Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { Badge, Filters, Pager, Table, when } from '../components/table';

const HERE = '/admin/price-lists';
export const PRICE_LIST_FIELDS = ['name', 'description', 'customerGroupId', 'currency', 'status', 'startsAt', 'endsAt', 'prices'];
const EVERYONE = 'Every signed-in customer';

/** A list's prices as the form's text: `VARIANT_ID AMOUNT` a line, with the tier's minimum quantity after it when above 1. */
export const pricesToText = (list: PriceList) => list.prices.map((p) => [p.variantId, p.amount, ...(p.minQuantity > 1 ? [p.minQuantity] : [])].join(' ')).join('\n');

/** A price list's form values as stored. */
export const priceListValues = (list: PriceList): Record<string, unknown> => ({
  ...list,
  description: list.description ?? '',
  customerGroupId: list.customerGroupId ?? '',
  startsAt: utcLocal(list.startsAt),
  endsAt: utcLocal(list.endsAt),
  prices: pricesToText(list),
});

function PriceListFields(v: { form: FormState; groups: CustomerGroup[]; currencies: string[] | null }) {
  return (
    <>
      <FormErrors form={v.form} fields={PRICE_LIST_FIELDS} />
      <div class="form-row">
        <Field form={v.form} name="name" label="Name" required placeholder="Wholesale USD" />
        <Select form={v.form} name="customerGroupId" label="For" options={v.groups.map((g) => [g.id, g.name])} blank={EVERYONE} />
        {v.currencies ? <Select form={v.form} name="currency" label="Currency" options={v.currencies} required /> : null}
        <Select form={v.form} name="status" label="Status" options={PRICE_LIST_STATUSES} />
      </div>
      <div class="form-row">
        <Field form={v.form} name="startsAt" label="Starts (UTC)" type="datetime-local" hint="Blank: already started." />
        <Field form={v.form} name="endsAt" label="Ends (UTC)" type="datetime-local" hint="Blank: never ends." />
      </div>
      <Field form={v.form} name="description" label="Description" />
      <Field
        form={v.form}
        name="prices"
        label="Prices"
        type="textarea"
        hint="One a line: a variant id, the unit price in the list's currency, and optionally the quantity it starts at (var_01… 8.50 10). The lowest price that applies wins, and only below the public price."
      />
    </>
  );
}

export function PriceListListPage(v: {
  lists: PriceList[];
  groups: CustomerGroup[];
  currencies: string[];
  page: Pagination;
  url: string;
  filters: FormState;
  form: FormState;
  csrf: string;
  canWrite: boolean;
}) {
  const groupName = new Map(v.groups.map((g) => [g.id, g.name]));
  return (
    <>
      <p class="muted">
        Prices of variants for a <a href="/admin/customer-groups">customer group</a> or every signed-in customer, shown to them in the catalogue and charged in their carts and
        orders while the list is active and within its dates. Anonymous shoppers always see the public price.
      </p>
      <Filters action={HERE}>
        <Field form={v.filters} name="q" label="Search" />
        <Select form={v.filters} name="status" label="Status" options={PRICE_LIST_STATUSES} blank="Any" />
      </Filters>
      <Table caption="Price lists" head={['Name', 'For', 'Currency', 'Status', 'Starts', 'Ends', 'Prices', '']} count={v.lists.length} empty="No price lists yet.">
        {v.lists.map((l) => (
          <tr>
            <td>
              <a href={`${HERE}/${l.id}`}>{l.name}</a>
            </td>
            <td>{l.customerGroupId ? <a href={`/admin/customer-groups/${l.customerGroupId}`}>{groupName.get(l.customerGroupId) ?? l.customerGroupId}</a> : EVERYONE}</td>
            <td>{l.currency}</td>
            <td>
              <Badge value={l.status} />
            </td>
            <td>{when(l.startsAt)}</td>
            <td>{when(l.endsAt)}</td>
            <td>{l.prices.length}</td>
            <td>{v.canWrite ? <ActionButton action={`${HERE}/${l.id}/delete`} csrf={v.csrf} label="Delete" danger confirm={`Delete the price list “${l.name}”?`} /> : null}</td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
      {v.canWrite ? (
        <PostForm action={HERE} csrf={v.csrf} class="card">
          <h2>New price list</h2>
          <PriceListFields form={v.form} groups={v.groups} currencies={v.currencies} />
          <button type="submit">Create price list</button>
        </PostForm>
      ) : null}
    </>
  );
}

export function PriceListEditPage(v: { list: PriceList; groups: CustomerGroup[]; form: FormState; csrf: string; canWrite: boolean }) {
  const l = v.list;
  return (
    <>
      <div class="actions">
        <a href={HERE}>← All price lists</a>
        <Badge value={l.status} />
      </div>
      {v.canWrite ? (
        <>
          <PostForm action={`${HERE}/${l.id}`} csrf={v.csrf} class="card">
            <h2>Price list in {l.currency}</h2>
            <PriceListFields form={v.form} groups={v.groups} currencies={null} />
            <button type="submit">Save price list</button>
          </PostForm>
          <ActionButton action={`${HERE}/${l.id}/delete`} csrf={v.csrf} label="Delete price list" danger confirm={`Delete the price list “${l.name}”?`} />
        </>
      ) : (
        <section class="card">
          <h2>{l.name}</h2>
          <pre>{pricesToText(l)}</pre>
        </section>
      )}
    </>
  );
}
