import { INVENTORY_REASONS } from '../../db/schema';
import type { Pagination } from '../../lib/envelope';
import { type Adjustment, type InventoryItem, MANUAL_REASONS } from '../../modules/inventory/schemas';
import { Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { Badge, Filters, Pager, Table, when } from '../components/table';

const HERE = '/admin/inventory';

const options = (o: Record<string, string>) =>
  Object.entries(o)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');

/** The variant as people know it: its name, else its options, else “Default”. */
const variantLabel = (i: InventoryItem) => i.name ?? (Object.keys(i.options).length ? options(i.options) : 'Default');

/** “Low” beside a stock level at or below its threshold. */
const LowBadge = ({ item }: { item: InventoryItem }) => (item.low ? <span class="badge b-low">Low</span> : <span class="badge b-ok">OK</span>);

export function InventoryListPage(v: { items: InventoryItem[]; page: Pagination; url: string; filters: FormState; canWrite: boolean }) {
  return (
    <>
      <Filters action={HERE} exportTo="inventory">
        <Field form={v.filters} name="q" label="Search" placeholder="SKU or name" />
        <Select
          form={v.filters}
          name="low"
          label="Stock"
          options={[
            ['true', 'Low on stock'],
            ['false', 'Above threshold'],
          ]}
          blank="Any"
        />
      </Filters>
      <Table caption="Stock per variant" head={['Product', 'Variant', 'SKU', 'Stock', 'Threshold', 'Status', '']} count={v.items.length} empty="No variants match.">
        {v.items.map((i) => (
          <tr data-variant={i.variantId}>
            <td>
              <a href={`/admin/products/${i.productId}`}>{i.productName}</a>
            </td>
            <td>{variantLabel(i)}</td>
            <td>{i.sku ? <code>{i.sku}</code> : '—'}</td>
            <td class="num">{i.stock}</td>
            <td class="num">{i.lowStockThreshold}</td>
            <td>
              <LowBadge item={i} />
            </td>
            <td>
              <a href={`${HERE}/${i.variantId}`}>{v.canWrite ? 'Adjust · history' : 'History'}</a>
            </td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
    </>
  );
}

export function VariantStockPage(v: {
  item: InventoryItem;
  history: Adjustment[];
  page: Pagination;
  url: string;
  filters: FormState;
  form: FormState;
  csrf: string;
  canWrite: boolean;
}) {
  const i = v.item;
  return (
    <>
      <div class="actions">
        <a href={HERE}>← Inventory</a>
        <a href={`/admin/products/${i.productId}`}>The product</a>
      </div>
      <div class="grid">
        <div class="card">
          <div class="muted">In stock</div>
          <p class="stat" id="stock-level">
            {i.stock}
          </p>
          <LowBadge item={i} />
        </div>
        <div class="card">
          <dl class="facts">
            <dt>Variant</dt>
            <dd>{variantLabel(i)}</dd>
            <dt>SKU</dt>
            <dd>{i.sku ?? '—'}</dd>
            <dt>Low-stock threshold</dt>
            <dd>{i.lowStockThreshold}</dd>
          </dl>
        </div>
      </div>
      {v.canWrite ? (
        <PostForm action={`${HERE}/${i.variantId}/adjustments`} csrf={v.csrf} class="card">
          <h2>Adjust stock</h2>
          <FormErrors form={v.form} fields={['delta', 'reason', 'note']} />
          <div class="form-row">
            <Field form={v.form} name="delta" label="Change" type="number" required hint="Units to add, or negative to take out (e.g. -3)." />
            <Select form={v.form} name="reason" label="Reason" options={MANUAL_REASONS} />
            <Field form={v.form} name="note" label="Note" />
          </div>
          <button type="submit">Adjust stock</button>
        </PostForm>
      ) : null}
      <h2>History</h2>
      <Filters action={`${HERE}/${i.variantId}`}>
        <Select form={v.filters} name="reason" label="Reason" options={INVENTORY_REASONS} blank="Any" />
      </Filters>
      <Table caption="Stock history" head={['When', 'Change', 'Reason', 'Note', 'By']} count={v.history.length} empty="No stock changes recorded.">
        {v.history.map((a) => (
          <tr>
            <td>{when(a.createdAt)}</td>
            <td class="num">{a.delta > 0 ? `+${a.delta}` : a.delta}</td>
            <td>
              <Badge value={a.reason} />
            </td>
            <td>
              {a.note ?? (a.orderId ? null : '—')}
              {a.orderId ? <a href={`/admin/orders/${a.orderId}`}>Order {a.orderId}</a> : null}
            </td>
            <td>
              <code>{a.actor}</code>
            </td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
    </>
  );
}
