import { RETURN_STATUSES } from '../../db/schema';
import type { Pagination } from '../../lib/envelope';
import type { OrderDetail } from '../../modules/orders/schemas';
import type { Return } from '../../modules/returns/schemas';
import { Field, FormErrors, type FormState, PostForm, Select, emptyForm } from '../components/form';
import { Badge, Filters, Pager, Table, when } from '../components/table';

const BASE = '/admin/returns';
const units = (r: Return) => r.lines.reduce((n, l) => n + l.quantity, 0);

/** The returns of a list (the queue, or an order's), each linked to its page. */
export function ReturnTable({ returns, empty }: { returns: Return[]; empty: string }) {
  return (
    <Table caption="Returns" head={['Return', 'Order', 'Status', 'Units', 'Requested by', 'Created']} count={returns.length} empty={empty}>
      {returns.map((r) => (
        <tr>
          <td>
            <a href={`${BASE}/${r.id}`}>
              <code>{r.id}</code>
            </a>
          </td>
          <td>
            <a href={`/admin/orders/${r.orderId}`}>{r.orderId}</a>
          </td>
          <td>
            <Badge value={r.status} />
          </td>
          <td class="num">{units(r)}</td>
          <td>{r.requestedBy}</td>
          <td>{when(r.createdAt)}</td>
        </tr>
      ))}
    </Table>
  );
}

export function ReturnsPage(v: { returns: Return[]; page: Pagination; url: string; filters: FormState }) {
  return (
    <>
      <p class="muted">Every return, newest first: filter by requested for what waits on you. Customers ask from their orders within the return window.</p>
      <Filters action={BASE}>
        <Select form={v.filters} name="status" label="Status" options={RETURN_STATUSES} blank="Any" />
        <Field form={v.filters} name="order" label="Order id" />
        <Field form={v.filters} name="customer" label="Customer id" />
        <Field form={v.filters} name="created_after" label="From (UTC)" type="date" />
      </Filters>
      <ReturnTable returns={v.returns} empty="No returns match." />
      <Pager page={v.page} url={v.url} />
    </>
  );
}

export interface ReturnView {
  ret: Return;
  /** The order as the caller's reach shows it, for the lines' names. */
  order: OrderDetail;
  csrf: string;
  canWrite: boolean;
  failed?: { action: string; form: FormState };
}

/** Damaged or defective goods are not put back on sale unless staff say so. */
const restockByDefault = (line: Return['lines'][number]) => (line.reason === 'damaged' || line.reason === 'defective' ? 0 : line.quantity);

export function ReturnDetailPage(v: ReturnView) {
  const r = v.ret;
  const action = `${BASE}/${r.id}`;
  const formFor = (name: string, values: Record<string, unknown> = {}) => (v.failed?.action === name ? v.failed.form : emptyForm(values));
  const lineOf = (orderLineId: string) => v.order.lines.find((l) => l.id === orderLineId);
  const restock = formFor('received', Object.fromEntries(r.lines.map((l) => [`restock.${l.id}`, restockByDefault(l)])));
  const shown = { approved: r.status === 'requested', received: r.status === 'approved', rejected: r.status === 'requested' || r.status === 'approved' };
  // A move refused because the return moved meanwhile: its form is gone, so the error shows on top.
  const settling = r.status === 'received' && (v.failed?.action === 'refund' || v.failed?.action === 'exchange');
  const orphan = v.failed && !settling && !shown[v.failed.action as keyof typeof shown] ? v.failed.form : null;
  return (
    <>
      {orphan ? <FormErrors form={orphan} /> : null}
      <div class="actions">
        <a href={BASE}>← All returns</a>
        <Badge value={r.status} /> <a href={`/admin/orders/${r.orderId}`}>Order #{v.order.number}</a>
      </div>
      <dl>
        <dt>Requested by</dt>
        <dd>
          {r.requestedBy} {when(r.createdAt)}
        </dd>
        <dt>Note</dt>
        <dd>{r.note ?? '—'}</dd>
        <dt>Resolution</dt>
        <dd>{r.resolution ?? '—'}</dd>
      </dl>
      <Table caption="Returned lines" head={['Item', 'SKU', 'Returned', 'Reason', 'Restocked']} count={r.lines.length}>
        {r.lines.map((l) => (
          <tr>
            <td>{lineOf(l.orderLineId)?.name ?? l.orderLineId}</td>
            <td>{lineOf(l.orderLineId)?.sku ?? '—'}</td>
            <td class="num">{l.quantity}</td>
            <td>{l.reason.replace(/_/g, ' ')}</td>
            <td class="num">{l.restockedQuantity}</td>
          </tr>
        ))}
      </Table>
      {v.canWrite && shown.approved ? (
        <PostForm action={action} csrf={v.csrf}>
          <h3>Approve</h3>
          <input type="hidden" name="status" value="approved" />
          <FormErrors form={formFor('approved')} fields={['resolution']} />
          <Field form={formFor('approved')} name="resolution" label="Instructions for the customer" hint="E.g. where to send the parcel." />
          <button type="submit">Approve return</button>
        </PostForm>
      ) : null}
      {v.canWrite && shown.received ? (
        <PostForm action={action} csrf={v.csrf}>
          <h3>Receive</h3>
          <p class="muted">The units of each line put back in stock; damaged goods stay out.</p>
          <input type="hidden" name="status" value="received" />
          <FormErrors form={restock} />
          <div class="form-row">
            {r.lines.map((l) => (
              <Field form={restock} name={`restock.${l.id}`} label={`Restock: ${lineOf(l.orderLineId)?.name ?? l.orderLineId} (of ${l.quantity})`} type="number" min="0" />
            ))}
          </div>
          <button type="submit">Mark received</button>
        </PostForm>
      ) : null}
      {v.canWrite && r.status === 'received' ? <SettleForms v={v} formFor={formFor} /> : null}
      {r.exchangeOrderId ? (
        <p>
          Exchanged for <a href={`/admin/orders/${r.exchangeOrderId}`}>order {r.exchangeOrderId}</a>.
        </p>
      ) : null}
      {v.canWrite && shown.rejected ? (
        <PostForm action={action} csrf={v.csrf} confirm="Reject this return? Its units can be returned again.">
          <h3>Reject</h3>
          <input type="hidden" name="status" value="rejected" />
          <FormErrors form={formFor('rejected')} fields={['resolution']} />
          <Field form={formFor('rejected')} name="resolution" label="Why" required />
          <button type="submit" class="danger">
            Reject return
          </button>
        </PostForm>
      ) : null}
    </>
  );
}

/**
 * What settles a received return: a refund of its units by line (worth what was paid for them,
 * from the payment with the most left), or an exchange for other variants (docs/returns.md).
 */
function SettleForms({ v, formFor }: { v: ReturnView; formFor: (name: string, values?: Record<string, unknown>) => FormState }) {
  const action = `${BASE}/${v.ret.id}`;
  const toCredit = v.order.customerId
    ? ([
        ['payment', 'The payment'],
        ['store_credit', 'Store credit'],
      ] as [string, string][])
    : null;
  const refund = formFor('refund', { destination: 'payment' });
  const exchange = formFor('exchange', { balanceTo: 'payment', 'quantity.0': 1 });
  return (
    <>
      <PostForm action={`${action}/refund`} csrf={v.csrf}>
        <h3>Refund</h3>
        <p class="muted">Gives back what was paid for the returned units, to the cent (discount and tax as at checkout), and marks the return refunded.</p>
        <FormErrors form={refund} fields={['destination', 'reason']} />
        <label>
          <input type="checkbox" name="shipping" checked={refund.values.shipping === 'on'} /> Refund shipping too
        </label>
        {toCredit ? <Select form={refund} name="destination" label="To" options={toCredit} /> : null}
        <Field form={refund} name="reason" label="Reason" />
        <button type="submit">Refund return</button>
      </PostForm>
      <PostForm action={`${action}/exchange`} csrf={v.csrf}>
        <h3>Exchange</h3>
        <p class="muted">
          A new order of these items, shipped free, paid by what the returned units were worth; the customer pays any difference, and a value beyond the new order goes back as
          chosen.
        </p>
        <FormErrors form={exchange} fields={['balanceTo', 'lines']} />
        {[0, 1, 2].map((i) => (
          <div class="form-row">
            <Field form={exchange} name={`sku.${i}`} label="SKU or variant id" required={i === 0} />
            <Field form={exchange} name={`quantity.${i}`} label="Units" type="number" min="1" />
          </div>
        ))}
        {toCredit ? <Select form={exchange} name="balanceTo" label="A value beyond the new order to" options={toCredit} /> : null}
        <button type="submit">Exchange</button>
      </PostForm>
    </>
  );
}
